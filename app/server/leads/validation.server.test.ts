import { describe, expect, it } from "vitest";
import { isPhoneNumber, PHONE_MESSAGE, validateCallbackRequest } from "./validation.server";

const lead = (phone: string) => ({ firstName: "Ana", email: "ana@example.com", phone });

describe("callback choices", () => {
  // The spec's option texts, as the visitor picks them from the form's lists.
  const chosen = {
    projectType: [
      "Web Application",
      "Mobile App",
      "E-commerce Platform",
      "Business Management System",
      "AI-Powered Solution",
      "Custom Integration",
      "Other",
    ],
    budget: ["$5,000 - $10,000", "$10,000 - $25,000", "$25,000 - $50,000", "$50,000 - $100,000", "$100,000+", "Let's discuss"],
    timeframe: ["ASAP", "Within 1 month", "1-3 months", "3-6 months", "6+ months", "Just exploring"],
    preferredTime: ["Morning (9AM-12PM)", "Afternoon (12PM-5PM)", "Evening (5PM-8PM)", "Any time"],
  };
  for (const [field, options] of Object.entries(chosen)) {
    it(`accepts each of the spec's ${field} options and refuses any other`, () => {
      for (const option of options)
        expect(validateCallbackRequest({ ...lead("+1 555 0100"), [field]: option })).toMatchObject({
          ok: true,
          value: { [field]: option },
        });
      expect(validateCallbackRequest({ ...lead("+1 555 0100"), [field]: "Something else" })).toMatchObject({
        ok: false,
        fields: { [field]: expect.any(String) },
      });
    });
  }
});

describe("callback phone numbers (docs/decisions/0010)", () => {
  it.each([
    "555-123-4567 ext. 12",
    "(555)1234567 x2",
    "1-800-FLOWERS",
    "+1 555 0100",
    "+44 20 7946 0958",
    "+49 (0)30 123456",
    "555.123.4567",
    "0301234/56",
    "555-1234 #12",
    "1234567",
    "  +1 555 0100  ",
    "+1 555 123 4567 extension 1234567890123",
  ])("accepts %j", (phone) => {
    expect(isPhoneNumber(phone)).toBe(true);
    expect(validateCallbackRequest(lead(phone))).toMatchObject({ ok: true, value: { phone: phone.trim() } });
  });

  it.each([
    ["no digits", "call me"],
    ["words first", "call 555 0100"],
    ["too few digits", "1-AB-CDEF"],
    ["too short", "12345"],
    ["a separator only", "+()"],
    ["other punctuation", "555 0100; DROP"],
    ["a URL", "+1 555 0100 http://x"],
    ["a tab inside", "555\t123 4567"],
    ["a control character", "555 123 4567\u0007"],
    ["non-ASCII digits", "٥٥٥١٢٣٤٥٦٧"],
    ["over 40 characters", "+1 555 123 4567 extension 12345678901234567"],
  ])("refuses %s: %j", (_why, phone) => {
    expect(isPhoneNumber(phone)).toBe(false);
    expect(validateCallbackRequest(lead(phone))).toMatchObject({ ok: false, fields: { phone: expect.any(String) } });
  });

  it("a format error names the phone field with the form's message", () => {
    expect(validateCallbackRequest(lead("call me"))).toEqual({
      ok: false,
      error: PHONE_MESSAGE,
      fields: { phone: PHONE_MESSAGE },
    });
  });

  it("an empty phone is a missing required field, not a format error", () => {
    expect(validateCallbackRequest(lead("   "))).toMatchObject({
      ok: false,
      error: "Please fill in required fields",
      fields: { phone: "Required" },
    });
  });
});

describe("marketing consent", () => {
  const base = { firstName: "Ana", email: "ana@example.com", phone: "+1 555 0100" };
  it("is given only by a ticked box (the form's 'on') or true, and refused when it is anything else", () => {
    for (const ticked of ["on", "true", true])
      expect(validateCallbackRequest({ ...base, marketingConsent: ticked })).toMatchObject({
        ok: true,
        value: { marketingConsent: true },
      });
    for (const unticked of [undefined, "", "false", false])
      expect(validateCallbackRequest({ ...base, marketingConsent: unticked })).toMatchObject({
        ok: true,
        value: { marketingConsent: false },
      });
    for (const other of ["yes", "1", 1, null])
      expect(validateCallbackRequest({ ...base, marketingConsent: other })).toMatchObject({
        ok: false,
        error: "Please check the form: Tick the box or leave it empty",
      });
  });
});
