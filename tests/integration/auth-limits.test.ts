import { randomBytes, scryptSync } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { action as profileAction } from "~/routes/_dashboard/profile";
import {
  ACCOUNT_FAILURE_LIMIT,
  ACCOUNT_THROTTLED_MESSAGE,
  DEVICE_COOKIE,
  emailHash,
  initAuth,
  resetAuth,
  type Auth,
} from "~/server/auth/auth.server";
import * as passwords from "~/server/auth/password.server";
import { setDatabase } from "~/server/db/client.server";
import * as schema from "~/server/db/schema";
import { WRONG_PASSWORD_MESSAGE } from "~/server/profile/profile.server";
import { engine, freshDatabase } from "./support/db";
import { routeAnswer } from "./support/route";

process.env.LOG_LEVEL ??= "error";

/** How many times a password was checked against a stored hash. */
const checks = { count: 0 };

// Spied on the module's exports rather than replaced with vi.mock: the integration workers keep
// their modules from one file to the next (isolate: false), so a vi.mock would miss an auth module
// another file already loaded, and would stay in one this file loaded first. The auth instance
// reads both exports when initAuth makes it (beforeAll); Vitest restores them after the file.
const realVerify = passwords.verifyPassword;
// Hashes at N = 2^10 in the stored format, which the real verify reads: this file counts how many
// password checks run, and 100 of them at ASVS strength would only cost minutes of CPU.
vi.spyOn(passwords, "hashPassword").mockImplementation(async (password: string) => {
  const salt = randomBytes(16);
  const key = scryptSync(password.normalize("NFKC"), salt, 64, { N: 2 ** 10, r: 8, p: 1 });
  return `scrypt$10$8$1$${salt.toString("base64")}$${key.toString("base64")}`;
});
vi.spyOn(passwords, "verifyPassword").mockImplementation(async (input) => {
  checks.count += 1;
  return realVerify(input);
});

const SITE = "http://localhost:3000";
const PASSWORD = "correct-horse-battery";
const PER_ADDRESS_MESSAGE = "Too many requests. Please try again later.";
/** What the forms say for the per-address limit (AUTH_TEXT.tooManyAttempts). */
const FORM_PER_ADDRESS_MESSAGE = "Too many attempts. Please wait a minute and try again.";

let clients = 0;
/** A client address no other request of this file uses. */
const freshIp = () => `10.40.${Math.floor(++clients / 250)}.${clients % 250}`;

/** The `name=value` of the cookie a response sets whose name starts so. */
const cookieOf = (res: Response, name: string) =>
  res.headers
    .getSetCookie()
    .find((c) => c.startsWith(name))
    ?.split(";")[0];

/**
 * The status of an `auth.api` call made with `asResponse`: its Response's, or the thrown APIError's
 * (Better Auth throws what a before hook throws, even when asked for a Response).
 */
async function statusOf(call: Promise<Response>): Promise<{ status: number; message?: string }> {
  try {
    const res = await call;
    return { status: res.status, message: ((await res.json()) as { message?: string } | null)?.message };
  } catch (thrown) {
    const error = thrown as { statusCode?: number; message?: string };
    if (typeof error.statusCode !== "number") throw thrown;
    return { status: error.statusCode, message: error.message };
  }
}

/** The profile page's change-password form, posted as the browser posts it. */
const profileForm = (cookie: string, ip: string, currentPassword: string, newPassword = "a-new-passphrase") =>
  routeAnswer(
    profileAction({
      request: new Request(`${SITE}/dashboard/profile`, {
        method: "POST",
        headers: { cookie, origin: SITE, "x-client-ip": ip, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ intent: "password", currentPassword, newPassword, confirmPassword: newPassword }),
      }),
      params: {},
      context: {},
    } as never),
  );

/**
 * The per-account and per-address limits hold for every way a
 * password (or another secret) is checked, at once and one after another: the /api/auth endpoint,
 * a form action, and a server-side `auth.api` call.
 */
describe(`limits on password checks, every way in (${engine})`, () => {
  let database: Awaited<ReturnType<typeof freshDatabase>>;
  let auth: Auth;

  const authPost = (path: string, body: Record<string, unknown>, ip: string, cookie?: string) =>
    auth.handler(
      new Request(`${SITE}/api/auth${path}`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: SITE, "x-client-ip": ip, ...(cookie ? { cookie } : {}) },
        body: JSON.stringify(body),
      }),
    );
  const signIn = (email: string, password: string, ip: string, cookie?: string) =>
    authPost("/sign-in/email", { email, password }, ip, cookie);

  const changeInProcess = (cookie: string, ip: string, currentPassword: string, newPassword = "a-new-passphrase") =>
    statusOf(
      auth.api.changePassword({
        headers: new Headers({ cookie, origin: SITE, "x-client-ip": ip }),
        body: { currentPassword, newPassword },
        asResponse: true,
      }),
    );
  const changeOverHttp = (cookie: string, ip: string, currentPassword: string, newPassword = "a-new-passphrase") =>
    authPost("/change-password", { currentPassword, newPassword }, ip, cookie);

  const failures = async (email: string) =>
    (
      await database.db
        .select()
        .from(schema.authFailures)
        .where(eq(schema.authFailures.emailHash, emailHash(email)))
    ).length;
  const throttle = (email: string) =>
    database.db
      .insert(schema.authFailures)
      .values(Array.from({ length: ACCOUNT_FAILURE_LIMIT }, () => ({ emailHash: emailHash(email) })));

  let n = 0;
  /**
   * A verified account, signed in once: its email, the session cookie (what an attacker holding a
   * session sends) and the device cookie its owner's browser keeps besides.
   */
  const account = async () => {
    n += 1;
    const email = `limits-${n}@example.com`;
    expect((await authPost("/sign-up/email", { email, password: PASSWORD, name: `Limits ${n}` }, freshIp())).status).toBe(200);
    await database.db.update(schema.user).set({ emailVerified: true }).where(eq(schema.user.email, email));
    const res = await signIn(email, PASSWORD, freshIp());
    expect(res.status).toBe(200);
    const cookie = cookieOf(res, "better-auth.session_token=");
    const device = cookieOf(res, `${DEVICE_COOKIE}=`);
    expect(cookie).toBeTruthy();
    expect(device).toBeTruthy();
    return { email, cookie: cookie!, device: device! };
  };

  beforeAll(async () => {
    database = await freshDatabase();
    setDatabase(database);
    auth = await initAuth(database.db);
  });
  afterAll(async () => {
    resetAuth();
    setDatabase(undefined);
    await database?.cleanup();
  });

  it("110 wrong passwords at once from 22 addresses: 100 reach the password check, 10 get the account's 429, the owner's device still gets in", async () => {
    const { email, device } = await account();
    expect(await failures(email)).toBe(0);
    checks.count = 0;
    // 5 from each address stays under the per-address limit (10 a minute): only the account's can bite.
    const addresses = Array.from({ length: 22 }, () => freshIp());
    const answers = await Promise.all(
      Array.from({ length: 110 }, async (_, i) => {
        const res = await signIn(email, `wrong-password-${i}`, addresses[i % 22]!);
        return { status: res.status, message: ((await res.json()) as { message?: string }).message };
      }),
    );
    const statuses = answers.map((a) => a.status);
    expect(checks.count).toBe(ACCOUNT_FAILURE_LIMIT);
    expect(statuses.filter((s) => s === 401)).toHaveLength(ACCOUNT_FAILURE_LIMIT);
    const throttled = answers.filter((a) => a.status === 429);
    expect(throttled).toHaveLength(110 - ACCOUNT_FAILURE_LIMIT);
    for (const a of throttled) expect(a.message).toBe(ACCOUNT_THROTTLED_MESSAGE);
    expect(await failures(email)).toBe(ACCOUNT_FAILURE_LIMIT);

    // The right password from elsewhere is throttled too; the owner's browser gets in, and its
    // success is not counted as a failure.
    expect((await signIn(email, PASSWORD, freshIp())).status).toBe(429);
    expect((await signIn(email, PASSWORD, freshIp(), device)).status).toBe(200);
    expect(await failures(email)).toBe(ACCOUNT_FAILURE_LIMIT);
  });

  it("a successful sign-in gives its reservation back; a failed one keeps it", async () => {
    const { email } = await account();
    for (let i = 0; i < 3; i++) expect((await signIn(email, PASSWORD, freshIp())).status).toBe(200);
    expect(await failures(email)).toBe(0);
    expect((await signIn(email, "not-the-password", freshIp())).status).toBe(401);
    expect(await failures(email)).toBe(1);
  });

  it("a wrong current password counts against the account from the form, the API and an in-process call; over the limit all three answer 429 without a check", async () => {
    const { email, cookie, device } = await account();
    const form = await profileForm(cookie, freshIp(), "wrong-current-1");
    expect(form).toEqual({
      status: 400,
      body: { intent: "password", ok: false, errors: { currentPassword: WRONG_PASSWORD_MESSAGE } },
    });
    expect((await changeOverHttp(cookie, freshIp(), "wrong-current-2")).status).toBe(400);
    expect((await changeInProcess(cookie, freshIp(), "wrong-current-3")).status).toBe(400);
    expect(await failures(email)).toBe(3);

    await throttle(email);
    checks.count = 0;
    for (const current of ["wrong-current-4", PASSWORD]) {
      expect(await profileForm(cookie, freshIp(), current)).toEqual({
        status: 429,
        body: { intent: "password", ok: false, errors: { form: ACCOUNT_THROTTLED_MESSAGE } },
      });
      const http = await changeOverHttp(cookie, freshIp(), current);
      expect(http.status).toBe(429);
      expect(((await http.json()) as { message: string }).message).toBe(ACCOUNT_THROTTLED_MESSAGE);
      expect(await changeInProcess(cookie, freshIp(), current)).toEqual({ status: 429, message: ACCOUNT_THROTTLED_MESSAGE });
    }
    expect(checks.count).toBe(0);

    // The owner's own browser (its device cookie) still changes the password.
    const changed = await profileForm(`${cookie}; ${device}`, freshIp(), PASSWORD, "changed-while-flooded");
    expect(changed.status).toBe(200);
  });

  it("the form has the per-address limit of /api/auth/change-password, and shares its allowance", async () => {
    const { cookie } = await account();
    const ip = freshIp();
    for (let i = 0; i < 10; i++) expect((await profileForm(cookie, ip, `wrong-${i}`)).status).toBe(400);
    expect(await profileForm(cookie, ip, "wrong-10")).toEqual({
      status: 429,
      body: { intent: "password", ok: false, errors: { form: FORM_PER_ADDRESS_MESSAGE } },
    });
    const http = await changeOverHttp(cookie, ip, "wrong-11");
    expect(http.status).toBe(429);
    expect(((await http.json()) as { message: string }).message).toBe(PER_ADDRESS_MESSAGE);
    // Another address is not limited by this one.
    expect((await profileForm(cookie, freshIp(), "wrong-12")).status).toBe(400);
  });

  it("in-process calls that check a secret take from the same per-address allowance as the API", async () => {
    const { email, cookie } = await account();
    // Password change: in-process first, then the API from the same address.
    const changeIp = freshIp();
    for (let i = 0; i < 10; i++) expect((await changeInProcess(cookie, changeIp, `wrong-${i}`)).status).toBe(400);
    expect(await changeInProcess(cookie, changeIp, "wrong-10")).toEqual({ status: 429, message: PER_ADDRESS_MESSAGE });
    expect((await changeOverHttp(cookie, changeIp, "wrong-11")).status).toBe(429);

    // Sign-in: the API first, then in-process from the same address.
    const signInIp = freshIp();
    for (let i = 0; i < 10; i++) expect((await signIn(email, `wrong-${i}`, signInIp)).status).toBe(401);
    const signInInProcess = auth.api.signInEmail({
      headers: new Headers({ origin: SITE, "x-client-ip": signInIp }),
      body: { email, password: PASSWORD },
      asResponse: true,
    });
    expect(await statusOf(signInInProcess)).toEqual({ status: 429, message: PER_ADDRESS_MESSAGE });

    // Reset with a guessed token.
    const resetIp = freshIp();
    const reset = () =>
      statusOf(
        auth.api.resetPassword({
          headers: new Headers({ origin: SITE, "x-client-ip": resetIp }),
          body: { token: "guessed-token", newPassword: "never-set-passphrase" },
          asResponse: true,
        }),
      );
    for (let i = 0; i < 10; i++) expect((await reset()).status).toBe(400);
    expect((await reset()).status).toBe(429);

    // A call without a client address is the server's own (every request it answers has one): no
    // address to count; the account's limit still holds.
    for (let i = 0; i < 12; i++) {
      expect(await statusOf(auth.api.signInEmail({ body: { email, password: PASSWORD }, asResponse: true }))).toMatchObject({
        status: 200,
      });
    }
  });

  it("/verify-password (reachable over HTTP with a session) is limited per address and per account like a sign-in", async () => {
    const { email, cookie } = await account();
    const ip = freshIp();
    const verify = (password: string) => authPost("/verify-password", { password }, ip, cookie);
    expect((await verify(PASSWORD)).status).toBe(200);
    expect(await failures(email)).toBe(0);
    for (let i = 0; i < 9; i++) expect((await verify(`wrong-${i}`)).status).toBe(400);
    expect(await failures(email)).toBe(9);
    expect((await verify("wrong-9")).status).toBe(429);

    await throttle(email);
    checks.count = 0;
    const verifyInProcess = auth.api.verifyPassword({
      headers: new Headers({ cookie, origin: SITE, "x-client-ip": freshIp() }),
      body: { password: PASSWORD },
      asResponse: true,
    });
    expect(await statusOf(verifyInProcess)).toEqual({ status: 429, message: ACCOUNT_THROTTLED_MESSAGE });
    expect(checks.count).toBe(0);
  });

  it("failure rows older than the window are pruned after a failure", async () => {
    const { email } = await account();
    await throttle(email);
    await database.db.execute(sql`update auth_failures set created_at = now() - interval '3 hours'`);
    expect((await signIn(email, "not-the-password", freshIp())).status).toBe(401);
    expect(await failures(email)).toBe(1);
  });
});
