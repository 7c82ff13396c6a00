import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ACCOUNT_FAILURE_LIMIT, createAuth, emailHash, type Auth } from "~/server/auth/auth.server";
import * as schema from "~/server/db/schema";
import { engine, freshDatabase } from "./support/db";

/**
 * Checklist item 5: more than 100 failed sign-ins an hour for one account are throttled from any
 * number of IPs, and the throttle lifts once the failures are older than an hour. Driving 100
 * failures over HTTP would hit the per-IP limit first, so the failures are inserted directly.
 */
describe(`per-account sign-in throttle (${engine})`, () => {
  let database: Awaited<ReturnType<typeof freshDatabase>>;
  let auth: Auth;
  const email = "throttled@example.com";
  const password = "correct-horse-battery";

  const signIn = (ip: string, pass = password) =>
    auth.handler(
      new Request("http://localhost:3000/api/auth/sign-in/email", {
        method: "POST",
        headers: { "content-type": "application/json", origin: "http://localhost:3000", "x-client-ip": ip },
        body: JSON.stringify({ email, password: pass }),
      }),
    );

  beforeAll(async () => {
    database = await freshDatabase();
    auth = createAuth(database.db, "x".repeat(40));
    await auth.api.signUpEmail({ body: { email, password, name: "Throttled User" } });
    await database.db.update(schema.user).set({ emailVerified: true }).where(eq(schema.user.email, email));
  });
  afterAll(async () => {
    await database?.cleanup();
  });

  it("lets the right password in below the limit", async () => {
    const res = await signIn("10.0.0.1");
    expect(res.status).toBe(200);
  });

  it("records each failure against the email's hash", async () => {
    const res = await signIn("10.0.0.2", "wrong-password");
    expect(res.status).toBe(401);
    const rows = await database.db
      .select()
      .from(schema.authFailures)
      .where(eq(schema.authFailures.emailHash, emailHash(email)));
    expect(rows).toHaveLength(1);
  });

  it("answers 429 to the RIGHT password from any IP once 100 failures are recorded in the hour", async () => {
    await database.db.delete(schema.authFailures);
    await database.db
      .insert(schema.authFailures)
      .values(Array.from({ length: ACCOUNT_FAILURE_LIMIT }, () => ({ emailHash: emailHash(email) })));
    for (const ip of ["10.0.1.1", "10.0.2.2", "192.168.7.9", "2001:db8::7"]) {
      const res = await signIn(ip);
      expect({ ip, status: res.status }).toEqual({ ip, status: 429 });
      expect(((await res.json()) as { message: string }).message).toMatch(/too many attempts for this account/i);
    }
    // The spelling of the email does not matter: the hash is of the trimmed, lower-cased address.
    const res = await auth.handler(
      new Request("http://localhost:3000/api/auth/sign-in/email", {
        method: "POST",
        headers: { "content-type": "application/json", origin: "http://localhost:3000", "x-client-ip": "10.0.3.3" },
        body: JSON.stringify({ email: "  THROTTLED@Example.com ", password }),
      }),
    );
    expect(res.status).toBe(429);
  });

  it("99 failures do not throttle", async () => {
    await database.db.delete(schema.authFailures);
    await database.db
      .insert(schema.authFailures)
      .values(Array.from({ length: ACCOUNT_FAILURE_LIMIT - 1 }, () => ({ emailHash: emailHash(email) })));
    expect((await signIn("10.0.4.4")).status).toBe(200);
  });

  it("failures older than an hour do not count, so the real user is not locked out for long", async () => {
    await database.db.delete(schema.authFailures);
    await database.db
      .insert(schema.authFailures)
      .values(Array.from({ length: ACCOUNT_FAILURE_LIMIT + 20 }, () => ({ emailHash: emailHash(email) })));
    expect((await signIn("10.0.5.5")).status).toBe(429);
    await database.db.execute(sql`update auth_failures set created_at = now() - interval '61 minutes'`);
    expect((await signIn("10.0.5.6")).status).toBe(200);
  });

  it("another account is not affected by this account's failures", async () => {
    await database.db
      .insert(schema.authFailures)
      .values(Array.from({ length: ACCOUNT_FAILURE_LIMIT }, () => ({ emailHash: emailHash(email) })));
    const res = await auth.handler(
      new Request("http://localhost:3000/api/auth/sign-in/email", {
        method: "POST",
        headers: { "content-type": "application/json", origin: "http://localhost:3000", "x-client-ip": "10.0.6.6" },
        body: JSON.stringify({ email: "someone-else@example.com", password }),
      }),
    );
    expect(res.status).toBe(401);
  });
});
