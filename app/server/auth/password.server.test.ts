import { afterEach, describe, expect, it, vi } from "vitest";
import { hashPassword, parseHash, passwordHashing, verifyPassword } from "./password.server";

afterEach(() => {
  vi.unstubAllEnvs();
});

// scrypt at N = 2^17 takes ~0.3 s a hash on an idle core; a loaded CI machine is far slower.
describe("password hashing", { timeout: 30_000 }, () => {
  it("meets ASVS 5 Appendix C: scrypt N >= 2^17, r = 8, p = 1, random salt", async () => {
    vi.stubEnv("PASSWORD_HASH_COST", undefined);
    const a = await hashPassword("correct horse battery staple");
    const parsed = parseHash(a)!;
    expect(2 ** parsed.log2N).toBeGreaterThanOrEqual(2 ** 17);
    expect(parsed.r).toBe(8);
    expect(parsed.p).toBe(1);
    expect(parsed.salt.length).toBeGreaterThanOrEqual(16);
    // The salt is drawn for each hash whatever the strength: the same password hashes differently.
    vi.stubEnv("PASSWORD_HASH_COST", "test");
    const [b, c] = [await hashPassword("correct horse battery staple"), await hashPassword("correct horse battery staple")];
    expect(parseHash(b)!.salt).not.toEqual(parseHash(c)!.salt);
    expect(parseHash(b)!.salt).not.toEqual(parsed.salt);
  });

  it("verifies the right password and rejects others, without truncating long ones", async () => {
    // At test strength: what is checked here does not depend on the cost, which the hash records.
    vi.stubEnv("PASSWORD_HASH_COST", "test");
    const long = "x".repeat(80) + "tail-1";
    const hash = await hashPassword(long);
    expect(await verifyPassword({ hash, password: long })).toBe(true);
    expect(await verifyPassword({ hash, password: "x".repeat(80) + "tail-2" })).toBe(false);
    expect(await verifyPassword({ hash, password: "" })).toBe(false);
  });

  it("rejects malformed or weakened stored hashes", async () => {
    expect(await verifyPassword({ hash: "not-a-hash", password: "a" })).toBe(false);
    expect(await verifyPassword({ hash: "scrypt$2$1$1$AAAA$AAAA", password: "a" })).toBe(false);
    expect(parseHash("bcrypt$10$x")).toBeNull();
  });

  it("runs at most passwordHashing.concurrency hashes at once; the others wait their turn", async () => {
    const burst = passwordHashing.concurrency + 2;
    let most = 0;
    let waited = 0;
    const sampler = setInterval(() => {
      most = Math.max(most, passwordHashing.activeCount);
      waited = Math.max(waited, passwordHashing.pendingCount);
    }, 5);
    try {
      const hashes = await Promise.all(Array.from({ length: burst }, (_, i) => hashPassword(`password-${i}`)));
      expect(new Set(hashes).size).toBe(burst);
    } finally {
      clearInterval(sampler);
    }
    expect(most).toBe(passwordHashing.concurrency);
    expect(waited).toBeGreaterThan(0);
  });

  it("hashes at test strength only when told to, and verifies across both", async () => {
    vi.stubEnv("PASSWORD_HASH_COST", "test");
    const cheap = await hashPassword("correct horse battery staple");
    expect(parseHash(cheap)!.log2N).toBe(12);
    vi.stubEnv("PASSWORD_HASH_COST", undefined);
    expect(await verifyPassword({ hash: cheap, password: "correct horse battery staple" })).toBe(true);
    const strong = await hashPassword("correct horse battery staple");
    expect(parseHash(strong)!.log2N).toBe(17);
    vi.stubEnv("PASSWORD_HASH_COST", "test");
    expect(await verifyPassword({ hash: strong, password: "correct horse battery staple" })).toBe(true);
    expect(await verifyPassword({ hash: strong, password: "wrong horse" })).toBe(false);
  });
});
