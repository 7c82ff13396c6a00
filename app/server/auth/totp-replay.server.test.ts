import { Secret, TOTP } from "otpauth";
import { describe, expect, it } from "vitest";
import { hotp, matchingStep, totpKey, totpStep } from "./totp-replay.server";

// Better Auth's generated secrets are text used as UTF-8 bytes; the otpauth URI carries them in base32.
const SECRET = "a-generated-secret-of-32-chars!!";
const authenticator = new TOTP({ secret: Secret.fromUTF8(SECRET), digits: 6, period: 30, algorithm: "SHA1" });
const AT = Date.UTC(2026, 10, 27, 12, 0, 10);

describe("hotp", () => {
  it("gives RFC 4226's test values", () => {
    const expected = ["755224", "287082", "359152", "969429", "338314", "254676", "287922", "162583", "399871", "520489"];
    expect(expected.map((_, counter) => hotp("12345678901234567890", counter))).toEqual(expected);
  });

  it("agrees with an authenticator app at any time", () => {
    for (const at of [AT, AT + 29_000, AT + 31_000, Date.UTC(2030, 0, 1)])
      expect(hotp(SECRET, totpStep(at))).toBe(authenticator.generate({ timestamp: at }));
  });
});

describe("matchingStep", () => {
  it("finds the step of a code within one step either side, the newest first", () => {
    const now = totpStep(AT);
    expect(matchingStep(SECRET, authenticator.generate({ timestamp: AT }), AT)).toBe(now);
    expect(matchingStep(SECRET, hotp(SECRET, now - 1), AT)).toBe(now - 1);
    expect(matchingStep(SECRET, hotp(SECRET, now + 1), AT)).toBe(now + 1);
    expect(matchingStep(SECRET, hotp(SECRET, now + 2), AT)).toBeNull();
    expect(matchingStep(SECRET, hotp(SECRET, now - 2), AT)).toBeNull();
  });
});

describe("totpKey", () => {
  it("uses generated secrets as text and decodes imported base32 ones", () => {
    expect(totpKey(SECRET)).toBe(SECRET);
    const imported = totpKey(`base32:${Secret.fromUTF8(SECRET).base32.toLowerCase()}`);
    expect(Buffer.from(imported as Uint8Array).toString("utf8")).toBe(SECRET);
  });
});
