import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { initAuth, resetAuth, type Auth } from "~/server/auth/auth.server";
import { setDatabase } from "~/server/db/client.server";
import * as schema from "~/server/db/schema";
import { engine, freshDatabase, signedInCustomerMaker } from "./support/db";
import { authPost, enrolTwoFactor, totpCode } from "./support/two-factor";

process.env.LOG_LEVEL ??= "error";

/**
 * A TOTP code works once. Better Auth's own check accepts a code again for as long as its window
 * lasts (up to 90 seconds): a code seen over a shoulder, or phished with the password, would open a
 * second session. The step a code belongs to is claimed per account before the check, so a code of
 * that step or an earlier one is refused, the same way as a wrong code.
 */
const PASSWORD = "correct-horse-battery";
const PERIOD = 30_000;

const cookieOf = (res: Response) =>
  res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0]!)
    .join("; ");
/** Waits (on the clock) until at least 5 s of the current step are left, so a test's codes stay in one window. */
const stepWithRoom = async () => {
  while (Date.now() % PERIOD > PERIOD - 5_000) await new Promise((r) => setTimeout(r, 250));
  return Math.floor(Date.now() / PERIOD);
};

describe(`TOTP codes work once (${engine})`, () => {
  let database: Awaited<ReturnType<typeof freshDatabase>>;
  let auth: Auth;
  const newCustomer = signedInCustomerMaker(
    () => auth,
    () => database.db,
    "replay",
  );
  /** A password sign-in's challenge cookie (the step before the code). */
  const challenge = async (email: string) => {
    const res = await authPost(auth, "/sign-in/email", { email, password: PASSWORD });
    expect(await res.json()).toMatchObject({ twoFactorRedirect: true });
    return cookieOf(res);
  };
  const verify = async (cookie: string, code: string) => {
    const res = await authPost(auth, "/two-factor/verify-totp", { code }, cookie);
    return { status: res.status, body: (await res.json()) as { code?: string; token?: string }, cookie: cookieOf(res) };
  };
  const sessionsOf = async (userId: string) => database.db.select().from(schema.session).where(eq(schema.session.userId, userId));

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

  it("the code that confirmed enrolment, or that signed in, is refused at the next sign-in; a newer one works", async () => {
    const customer = await newCustomer();
    const now = await stepWithRoom();
    const { totpURI } = await enrolTwoFactor(auth, customer.cookie, PASSWORD);
    // The enrolment used the current step's code (the helper takes the oldest unused step).
    const enrolled = totpCode(totpURI, now * PERIOD);
    const [claimed] = await database.db.select().from(schema.totpLastSteps).where(eq(schema.totpLastSteps.userId, customer.id));
    expect(claimed?.step).toBe(now);

    const before = (await sessionsOf(customer.id)).length;
    const replay = await verify(await challenge(customer.email), enrolled);
    expect(replay).toMatchObject({ status: 401, body: { code: "INVALID_CODE" } });
    expect(replay.cookie).not.toMatch(/session_token=[^;]/);
    // An older step's code, still inside Better Auth's window, is refused too.
    expect((await verify(await challenge(customer.email), totpCode(totpURI, (now - 1) * PERIOD))).status).toBe(401);
    expect(await sessionsOf(customer.id)).toHaveLength(before);

    // The next step's code (the authenticator shows it within 30 seconds) signs in, once.
    const next = totpCode(totpURI, (now + 1) * PERIOD);
    const cookie = await challenge(customer.email);
    const signedIn = await verify(cookie, next);
    expect(signedIn.status).toBe(200);
    expect(signedIn.cookie).toMatch(/session_token=[^;]/);
    expect(await sessionsOf(customer.id)).toHaveLength(before + 1);
    expect((await verify(await challenge(customer.email), next)).status).toBe(401);
    // The refused replays did not use up the account's failures: a right code is not locked out.
    const [row] = await database.db.select().from(schema.twoFactor).where(eq(schema.twoFactor.userId, customer.id));
    expect(row?.lockedUntil).toBeNull();
  });

  it("the same code sent twice at once opens one session", async () => {
    const customer = await newCustomer();
    const now = await stepWithRoom();
    const { totpURI } = await enrolTwoFactor(auth, customer.cookie, PASSWORD);
    const code = totpCode(totpURI, (now + 1) * PERIOD);
    const [a, b] = await Promise.all([challenge(customer.email), challenge(customer.email)]);
    const before = (await sessionsOf(customer.id)).length;
    const answers = await Promise.all([verify(a, code), verify(b, code)]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 401]);
    expect(await sessionsOf(customer.id)).toHaveLength(before + 1);
  });

  it("a code checked for a signed-in session (a step-up) is claimed the same way", async () => {
    const customer = await newCustomer();
    const now = await stepWithRoom();
    const { totpURI, cookie } = await enrolTwoFactor(auth, customer.cookie, PASSWORD);
    expect((await verify(cookie, totpCode(totpURI, now * PERIOD))).status).toBe(401);
    expect((await verify(cookie, totpCode(totpURI, (now + 1) * PERIOD))).status).toBe(200);
    expect((await verify(cookie, totpCode(totpURI, (now + 1) * PERIOD))).status).toBe(401);
  });
});
