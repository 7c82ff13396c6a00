import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createAuth, type Auth } from "~/server/auth/auth.server";
import { parseHash } from "~/server/auth/password.server";
import * as schema from "~/server/db/schema";
import { engine, freshDatabase } from "./support/db";

/** Asserts an ASVS 5 Appendix C scrypt hash in our stored format (never the Better Auth default). */
function expectAppendixC(stored: string) {
  const parsed = parseHash(stored);
  expect(parsed).not.toBeNull();
  expect(2 ** parsed!.log2N).toBeGreaterThanOrEqual(2 ** 17);
  expect(parsed!.r).toBe(8);
  expect(parsed!.p).toBe(1);
  expect(parsed!.salt.length).toBeGreaterThanOrEqual(16);
}

/**
 * Password storage, checked on the stored row: the hash Better Auth writes for a real sign-up (and a password
 * change) is scrypt at ASVS 5 Appendix C strength. password.server.test.ts checks hashPassword itself;
 * this fails if the auth configuration stops using it (Better Auth's default is scrypt N=16384, r=16).
 */
describe(`stored password hashes (${engine})`, () => {
  let database: Awaited<ReturnType<typeof freshDatabase>>;
  let auth: Auth;
  const email = "stored-hash@example.com";

  const storedHash = async () => {
    const [u] = await database.db.select().from(schema.user).where(eq(schema.user.email, email));
    const rows = await database.db.select().from(schema.account).where(eq(schema.account.userId, u!.id));
    expect(rows.map((r) => r.providerId)).toEqual(["credential"]);
    return rows[0]!.password!;
  };

  beforeAll(async () => {
    // The suite hashes at test strength (vitest.config.ts); this file checks the real one.
    vi.stubEnv("PASSWORD_HASH_COST", undefined);
    database = await freshDatabase();
    auth = createAuth(database.db, "x".repeat(40));
  });
  afterAll(async () => {
    vi.unstubAllEnvs();
    await database?.cleanup();
  });

  it("a sign-up stores scrypt N >= 2^17, r = 8, p = 1 with a 16-byte salt, and never the password", async () => {
    await auth.api.signUpEmail({ body: { email, password: "correct-horse-battery", name: "Stored Hash" } });
    const stored = await storedHash();
    expect(stored).not.toContain("correct-horse-battery");
    expectAppendixC(stored);
  });

  it("a password change stores the new one the same way", async () => {
    const before = await storedHash();
    await database.db.update(schema.user).set({ emailVerified: true }).where(eq(schema.user.email, email));
    const signIn = await auth.api.signInEmail({ body: { email, password: "correct-horse-battery" }, asResponse: true });
    const cookie = signIn.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    await auth.api.changePassword({
      headers: new Headers({ cookie }),
      body: { currentPassword: "correct-horse-battery", newPassword: "another-horse-battery" },
    });
    const after = await storedHash();
    expect(after).not.toBe(before);
    expectAppendixC(after);
  });
});
