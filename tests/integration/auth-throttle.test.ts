import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ACCOUNT_FAILURE_LIMIT, createAuth, DEVICE_COOKIE, emailHash, type Auth } from "~/server/auth/auth.server";
import * as schema from "~/server/db/schema";
import { engine, freshDatabase } from "./support/db";

/** The `name=value` of the device cookie a response sets. */
const deviceCookie = (res: Response) =>
  res.headers
    .getSetCookie()
    .find((c) => c.startsWith(`${DEVICE_COOKIE}=`))
    ?.split(";")[0];

/** The `name=value` of the session cookie a response sets. */
const sessionCookie = (res: Response) =>
  res.headers
    .getSetCookie()
    .find((c) => c.includes("session_token="))
    ?.split(";")[0];

/**
 * Per-account throttle: more than 100 failed sign-ins an hour for one account are throttled from any
 * number of IPs, and the throttle lifts once the failures are older than an hour. Driving 100
 * failures over HTTP would hit the per-IP limit first, so the failures are inserted directly.
 */
describe(`per-account sign-in throttle (${engine})`, () => {
  let database: Awaited<ReturnType<typeof freshDatabase>>;
  let auth: Auth;
  const email = "throttled@example.com";
  const password = "correct-horse-battery";

  const signIn = (ip: string, pass = password, cookie?: string, who = email) =>
    auth.handler(
      new Request("http://localhost:3000/api/auth/sign-in/email", {
        method: "POST",
        headers: {
          "content-type": "application/json",
          origin: "http://localhost:3000",
          "x-client-ip": ip,
          ...(cookie ? { cookie } : {}),
        },
        body: JSON.stringify({ email: who, password: pass }),
      }),
    );
  const throttle = async (who = email) => {
    await database.db.delete(schema.authFailures);
    await database.db
      .insert(schema.authFailures)
      .values(Array.from({ length: ACCOUNT_FAILURE_LIMIT }, () => ({ emailHash: emailHash(who) })));
  };
  const signUpVerified = async (who: string) => {
    await auth.api.signUpEmail({ body: { email: who, password, name: "Device Owner" } });
    await database.db.update(schema.user).set({ emailVerified: true }).where(eq(schema.user.email, who));
  };
  /** Completes a password reset the way the emailed link does. */
  const resetPassword = async (who: string, newPassword: string) => {
    await auth.api.requestPasswordReset({ body: { email: who, redirectTo: "/auth?tab=reset" } });
    const [row] = await database.db
      .select()
      .from(schema.verification)
      .where(sql`${schema.verification.identifier} like 'reset-password:%'`)
      .orderBy(sql`${schema.verification.createdAt} desc`)
      .limit(1);
    const token = row!.identifier.slice("reset-password:".length);
    await auth.api.resetPassword({ body: { token, newPassword } });
  };

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

  it("the owner's own browser (a device cookie from an earlier sign-in) still gets in while the account is throttled", async () => {
    await database.db.delete(schema.authFailures);
    const before = await signIn("10.0.7.1");
    expect(before.status).toBe(200);
    const device = deviceCookie(before);
    expect(device).toBeTruthy();
    expect(before.headers.getSetCookie().find((c) => c.startsWith(`${DEVICE_COOKIE}=`))).toMatch(/HttpOnly/i);
    await throttle();
    expect((await signIn("10.0.7.2")).status).toBe(429);
    expect((await signIn("10.0.7.3", password, device)).status).toBe(200);
    // The cookie does not open the door to a wrong password.
    expect((await signIn("10.0.7.4", "wrong-password", device)).status).toBe(401);
    // A forged or altered cookie, or another account's, is not the owner's device.
    const [name, value] = device!.split("=") as [string, string];
    expect((await signIn("10.0.7.5", password, `${name}=${emailHash(email)}`)).status).toBe(429);
    expect((await signIn("10.0.7.6", password, `${name}=${value.replace(/.$/, (c) => (c === "A" ? "B" : "A"))}`)).status).toBe(
      429,
    );
    const other = "device-other@example.com";
    await auth.api.signUpEmail({ body: { email: other, password, name: "Other" } });
    await database.db.update(schema.user).set({ emailVerified: true }).where(eq(schema.user.email, other));
    const otherDevice = deviceCookie(await signIn("10.0.7.7", password, undefined, other));
    expect(otherDevice).toBeTruthy();
    expect((await signIn("10.0.7.8", password, otherDevice)).status).toBe(429);
  });

  it("a password reset lifts the throttle: the owner signs in with the new password from anywhere", async () => {
    await throttle();
    expect((await signIn("10.0.8.1")).status).toBe(429);
    const newPassword = "a-brand-new-passphrase";
    await resetPassword(email, newPassword);
    expect((await signIn("10.0.8.2", newPassword)).status).toBe(200);
  });

  it("a password reset revokes device cookies issued before it; a sign-in after it issues one that works", async () => {
    // Someone who once signed in with a leaked password keeps that browser's cookie...
    const who = "revoked-device@example.com";
    await signUpVerified(who);
    const stolen = deviceCookie(await signIn("10.0.9.1", password, undefined, who));
    expect(stolen).toBeTruthy();
    await throttle(who);
    expect((await signIn("10.0.9.2", password, stolen, who)).status).toBe(200);
    // ...and the owner resets the password and signs in again.
    const newPassword = "owner-resets-this-one";
    await resetPassword(who, newPassword);
    const ownerSignIn = await signIn("10.0.9.3", newPassword, undefined, who);
    expect(ownerSignIn.status).toBe(200);
    const owners = deviceCookie(ownerSignIn);
    expect(owners).toBeTruthy();
    expect(owners).not.toBe(stolen);
    await throttle(who);
    // The old cookie is still validly signed but names a revoked epoch: it no longer passes, even
    // with the right password, so guesses at the new one stay throttled.
    expect((await signIn("10.0.9.4", newPassword, stolen, who)).status).toBe(429);
    expect((await signIn("10.0.9.5", "a-guess-at-the-new-one", stolen, who)).status).toBe(429);
    expect((await signIn("10.0.9.6", newPassword, owners, who)).status).toBe(200);
  });

  it("a password change revokes device cookies too, and gives the changing browser a current one", async () => {
    const who = "changed-device@example.com";
    await signUpVerified(who);
    const before = await signIn("10.0.10.1", password, undefined, who);
    const stolen = deviceCookie(before);
    expect(stolen).toBeTruthy();
    let session = sessionCookie(before);
    expect(session).toBeTruthy();
    // The changing browser's own device cookie: each change gives it the account's new epoch. (The
    // throttle applies to password changes too: over the limit, only a current device cookie passes.)
    let device = stolen;
    const change = async (currentPassword: string, newPassword: string, revokeOtherSessions: boolean) => {
      const res = await auth.api.changePassword({
        headers: new Headers({ cookie: `${session}; ${device}`, origin: "http://localhost:3000", "x-client-ip": "10.0.10.2" }),
        body: { currentPassword, newPassword, revokeOtherSessions },
        asResponse: true,
      });
      expect(res.status).toBe(200);
      // Revoking the other sessions replaces this one too.
      session = sessionCookie(res) ?? session;
      device = deviceCookie(res) ?? device;
      return deviceCookie(res);
    };
    // Keeping the other sessions: the session used here is still valid for the second change.
    const kept = await change(password, "changed-once-passphrase", false);
    expect(kept).toBeTruthy();
    await throttle(who);
    expect((await signIn("10.0.10.3", "changed-once-passphrase", stolen, who)).status).toBe(429);
    expect((await signIn("10.0.10.4", "changed-once-passphrase", kept, who)).status).toBe(200);
    const revoked = await change("changed-once-passphrase", "changed-twice-passphrase", true);
    expect(revoked).toBeTruthy();
    await throttle(who);
    expect((await signIn("10.0.10.5", "changed-twice-passphrase", kept, who)).status).toBe(429);
    expect((await signIn("10.0.10.6", "changed-twice-passphrase", revoked, who)).status).toBe(200);
    // A refused change (wrong current password) revokes nothing.
    const failed = await auth.api.changePassword({
      headers: new Headers({ cookie: `${session}; ${device}`, origin: "http://localhost:3000", "x-client-ip": "10.0.10.7" }),
      body: { currentPassword: "not-the-password", newPassword: "never-set-passphrase" },
      asResponse: true,
    });
    expect(failed.status).toBe(400);
    expect((await signIn("10.0.10.8", "changed-twice-passphrase", revoked, who)).status).toBe(200);
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
