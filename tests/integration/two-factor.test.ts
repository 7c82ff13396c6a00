import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loader as adminLoader } from "~/routes/admin";
import { action as authAction } from "~/routes/auth";
import { action as settingsAction } from "~/routes/_dashboard/settings";
import { initAuth, resetAuth, type Auth } from "~/server/auth/auth.server";
import { setDatabase } from "~/server/db/client.server";
import * as schema from "~/server/db/schema";
import { engine, freshDatabase, signedInCustomerMaker } from "./support/db";
import { routeAnswer, routeArgs } from "./support/route";
import { authPost, enrolTwoFactor, signInWithCode, unusedTotpCode } from "./support/two-factor";

process.env.LOG_LEVEL ??= "error";

const SITE = "http://localhost:3000";
const PASSWORD = "correct-horse-battery";
let ips = 0;

const form = (path: string, cookie: string, fields: Record<string, string>) =>
  new Request(`${SITE}${path}`, {
    method: "POST",
    headers: {
      origin: SITE,
      "content-type": "application/x-www-form-urlencoded",
      "x-client-ip": `10.78.0.${++ips % 250}`,
      ...(cookie ? { cookie } : {}),
    },
    body: new URLSearchParams(fields),
  });
const load = (cookie: string) => routeAnswer(adminLoader(routeArgs(new Request(`${SITE}/admin`, { headers: { cookie } }))));
const cookiesOf = (headers: Headers) =>
  headers
    .getSetCookie()
    .map((c) => c.split(";")[0]!)
    .filter((pair) => !pair.endsWith("="))
    .join("; ");

/**
 * Two-factor sign-in (docs/decisions/0073-two-factor.md): Settings turns it on with the password,
 * a QR code and a first code; a password sign-in then asks for a code; /admin refuses an operator
 * without it and a session opened without it.
 */
describe(`two-factor authentication (${engine})`, () => {
  let database: Awaited<ReturnType<typeof freshDatabase>>;
  let auth: Auth;
  const newCustomer = signedInCustomerMaker(
    () => auth,
    () => database.db,
    "two-factor",
  );

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

  it("Settings turns it on: wrong password and wrong code are the field's message; the new session carries the factor", async () => {
    const customer = await newCustomer();
    const wrong = await routeAnswer(
      settingsAction(
        routeArgs(form("/dashboard/settings", customer.cookie, { intent: "two-factor-enable", password: "nope-nope" })),
      ),
    );
    expect([wrong.status, (wrong.body as { errors: Record<string, string> }).errors]).toEqual([
      400,
      { twoFactorPassword: "That password is not correct." },
    ]);
    const enabled = await routeAnswer<{ setup: { totpURI: string; qrSvg: string; manualKey: string; backupCodes: string[] } }>(
      settingsAction(
        routeArgs(form("/dashboard/settings", customer.cookie, { intent: "two-factor-enable", password: PASSWORD })),
      ),
    );
    expect(enabled.status).toBe(200);
    const setup = enabled.body!.setup;
    expect(setup.totpURI).toMatch(/^otpauth:\/\/totp\//);
    expect(setup.qrSvg).toMatch(/^<svg/);
    expect(setup.manualKey).toBe(new URL(setup.totpURI).searchParams.get("secret"));
    expect(setup.backupCodes).toHaveLength(10);
    const echo = { totpURI: setup.totpURI, backupCodes: setup.backupCodes.join(",") };
    const badCode = await routeAnswer(
      settingsAction(
        routeArgs(form("/dashboard/settings", customer.cookie, { intent: "two-factor-verify", code: "12345", ...echo })),
      ),
    );
    expect(badCode.status).toBe(400);
    const [before] = await database.db.select().from(schema.user).where(eq(schema.user.id, customer.id));
    expect(before!.twoFactorEnabled).toBe(false);
    const done = await routeAnswer(
      settingsAction(
        routeArgs(
          form("/dashboard/settings", customer.cookie, {
            intent: "two-factor-verify",
            code: await unusedTotpCode(setup.totpURI),
            ...echo,
          }),
        ),
      ),
    );
    expect([done.status, done.location]).toEqual([302, "/dashboard/settings?two-factor=enabled#two-factor"]);
    const [after] = await database.db.select().from(schema.user).where(eq(schema.user.id, customer.id));
    expect(after!.twoFactorEnabled).toBe(true);
    const sessions = await database.db.select().from(schema.session).where(eq(schema.session.userId, customer.id));
    expect(sessions.map((s) => s.twoFactorVerified)).toEqual([true]);
  });

  it("a password sign-in asks for a code; a wrong code is refused, the right one or a recovery code signs in once", async () => {
    const customer = await newCustomer();
    const { totpURI, backupCodes } = await enrolTwoFactor(auth, customer.cookie, PASSWORD);
    const signIn = await routeAnswer(
      authAction(routeArgs(form("/auth", "", { intent: "signin", email: customer.email, password: PASSWORD, next: "/admin" }))),
    );
    expect([signIn.status, signIn.location]).toEqual([302, "/auth?tab=signin&step=code&next=%2Fadmin"]);
    const challenge = cookiesOf(signIn.headers);
    expect(challenge).toMatch(/two_factor/);
    expect(challenge).not.toMatch(/session_token/);
    const wrong = await routeAnswer(authAction(routeArgs(form("/auth", challenge, { intent: "two-factor", code: "000000" }))));
    expect(wrong.status).toBe(401);
    const right = await routeAnswer(
      authAction(
        routeArgs(form("/auth", challenge, { intent: "two-factor", code: await unusedTotpCode(totpURI), next: "/admin" })),
      ),
    );
    expect([right.status, right.location]).toEqual([302, "/admin"]);
    expect(cookiesOf(right.headers)).toMatch(/session_token/);

    // A recovery code works once.
    for (const expected of [302, 401]) {
      const first = await authPost(auth, "/sign-in/email", { email: customer.email, password: PASSWORD });
      const cookie = cookiesOf(first.headers);
      const answer = await routeAnswer(
        authAction(routeArgs(form("/auth", cookie, { intent: "two-factor", code: backupCodes[0]! }))),
      );
      expect(answer.status).toBe(expected);
    }
  });

  it("/admin: an operator without two-factor is sent to Settings; one signed in with a code opens it", async () => {
    const ops = await newCustomer();
    await database.db.insert(schema.userRoles).values({ userId: ops.id, role: "operator" });
    expect((await load(ops.cookie)).location).toBe("/dashboard/settings?two-factor=required");
    const { cookie, totpURI } = await enrolTwoFactor(auth, ops.cookie, PASSWORD);
    expect((await load(cookie)).status).toBe(200);
    // A session of the enrolled account opened without the code (marked as Google's would be) is refused.
    const fresh = await signInWithCode(auth, ops.email, PASSWORD, totpURI);
    expect((await load(fresh)).status).toBe(200);
    await database.db.update(schema.session).set({ twoFactorVerified: false }).where(eq(schema.session.userId, ops.id));
    expect((await load(fresh)).location).toBe("/dashboard/settings?two-factor=sign-in-again");
  });

  it("wrong codes are limited: 5 per sign-in challenge, then the password step again", async () => {
    const customer = await newCustomer();
    await enrolTwoFactor(auth, customer.cookie, PASSWORD);
    const first = await authPost(auth, "/sign-in/email", { email: customer.email, password: PASSWORD });
    const challenge = cookiesOf(first.headers);
    const statuses = [];
    for (let i = 0; i < 6; i += 1) {
      const answer = await routeAnswer(authAction(routeArgs(form("/auth", challenge, { intent: "two-factor", code: "000000" }))));
      statuses.push(answer.status === 302 ? answer.location : answer.status);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, "/auth?tab=signin&two-factor=expired"]);
  });

  it("turning it off needs the password; sign-in then needs none", async () => {
    const customer = await newCustomer();
    const { cookie } = await enrolTwoFactor(auth, customer.cookie, PASSWORD);
    const wrong = await routeAnswer(
      settingsAction(routeArgs(form("/dashboard/settings", cookie, { intent: "two-factor-disable", password: "nope-nope" }))),
    );
    expect(wrong.status).toBe(400);
    const off = await routeAnswer(
      settingsAction(routeArgs(form("/dashboard/settings", cookie, { intent: "two-factor-disable", password: PASSWORD }))),
    );
    expect(off.location).toBe("/dashboard/settings?two-factor=disabled#two-factor");
    const signIn = await authPost(auth, "/sign-in/email", { email: customer.email, password: PASSWORD });
    expect(((await signIn.json()) as { twoFactorRedirect?: boolean }).twoFactorRedirect).toBeUndefined();
  });
});
