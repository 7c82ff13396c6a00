import { randomBytes, scryptSync } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  ACCOUNT_FAILURE_LIMIT,
  ACCOUNT_THROTTLED_MESSAGE,
  DEVICE_COOKIE,
  emailHash,
  initAuth,
  resetAuth,
  type Auth,
} from "~/server/auth/auth.server";
import { setDatabase } from "~/server/db/client.server";
import * as schema from "~/server/db/schema";
import { engine, freshDatabase } from "./support/db";

process.env.LOG_LEVEL ??= "error";

/** How many times a password was checked against a stored hash. */
const checks = vi.hoisted(() => ({ count: 0 }));

vi.mock("~/server/auth/password.server", async (importOriginal) => {
  const real = await importOriginal<typeof import("~/server/auth/password.server")>();
  return {
    ...real,
    // Hashes at N = 2^10 in the stored format, which the real verify reads: this file counts how many
    // password checks run, and 100 of them at ASVS strength would only cost minutes of CPU.
    hashPassword: async (password: string) => {
      const salt = randomBytes(16);
      const key = scryptSync(password.normalize("NFKC"), salt, 64, { N: 2 ** 10, r: 8, p: 1 });
      return `scrypt$10$8$1$${salt.toString("base64")}$${key.toString("base64")}`;
    },
    verifyPassword: async (input: { hash: string; password: string }) => {
      checks.count += 1;
      return real.verifyPassword(input);
    },
  };
});

const SITE = "http://localhost:3000";
const PASSWORD = "correct-horse-battery";

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
 * Security checklist item 32: the per-account limit holds for password checks sent at once.
 */
describe(`limits on password checks (${engine})`, () => {
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

  it("failure rows older than the window are pruned after a failure", async () => {
    const { email } = await account();
    await throttle(email);
    await database.db.execute(sql`update auth_failures set created_at = now() - interval '3 hours'`);
    expect((await signIn(email, "not-the-password", freshIp())).status).toBe(401);
    expect(await failures(email)).toBe(1);
  });
});
