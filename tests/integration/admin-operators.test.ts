import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { action as adminAction, loader as adminLoader } from "~/routes/admin";
import { listOperators } from "~/server/admin/operators.server";
import { initAuth, resetAuth, type Auth } from "~/server/auth/auth.server";
import { setDatabase } from "~/server/db/client.server";
import * as schema from "~/server/db/schema";
import { engine, freshDatabase } from "./support/db";
import { routeAnswer, routeArgs } from "./support/route";
import { enrolTwoFactor } from "./support/two-factor";

process.env.LOG_LEVEL ??= "error";
// Read lazily by env(): set before anything asks for it.
process.env.OPERATOR_EMAILS = "listed-ops@example.com, not-signed-up@example.com";

const SITE = "http://localhost:3000";
const PASSWORD = "correct-horse-battery";

const get = (cookie: string, path = "/admin") => new Request(`${SITE}${path}`, { headers: cookie ? { cookie } : {} });
const post = (cookie: string, form: Record<string, string>) =>
  new Request(`${SITE}/admin`, {
    method: "POST",
    headers: { origin: SITE, "content-type": "application/x-www-form-urlencoded", ...(cookie ? { cookie } : {}) },
    body: new URLSearchParams(form),
  });
const load = (cookie: string, path?: string) => routeAnswer(adminLoader(routeArgs(get(cookie, path))));
const act = (cookie: string, form: Record<string, string>) => routeAnswer(adminAction(routeArgs(post(cookie, form))));

/**
 * /admin's loader and action as React Router calls them: everyone who is not an operator gets the
 * site's 404 (signed out too, no redirect to sign-in that would reveal the page), and operators grant
 * and revoke the role from /admin → Operators.
 */
describe(`/admin → Operators (${engine})`, () => {
  let database: Awaited<ReturnType<typeof freshDatabase>>;
  let auth: Auth;
  let clients = 0;

  const authPost = (path: string, body: Record<string, unknown>) =>
    auth.handler(
      new Request(`${SITE}/api/auth${path}`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          origin: SITE,
          "x-client-ip": `10.12.${Math.floor(++clients / 250)}.${clients % 250}`,
        },
        body: JSON.stringify(body),
      }),
    );

  /** An account through Better Auth's sign-up; verified and signed in unless told otherwise. */
  const account = async (email: string, { verified = true } = {}) => {
    expect((await authPost("/sign-up/email", { email, password: PASSWORD, name: email.split("@")[0] })).status).toBe(200);
    const [row] = await database.db.select().from(schema.user).where(eq(schema.user.email, email));
    if (!verified) return { id: row!.id, cookie: "" };
    await database.db.update(schema.user).set({ emailVerified: true }).where(eq(schema.user.id, row!.id));
    const signedIn = await authPost("/sign-in/email", { email, password: PASSWORD });
    expect(signedIn.status).toBe(200);
    const cookie = signedIn.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    return { id: row!.id, cookie };
  };
  const roles = async (userId: string) => database.db.select().from(schema.userRoles).where(eq(schema.userRoles.userId, userId));

  let ops: { id: string; cookie: string };
  let customer: { id: string; cookie: string };

  beforeAll(async () => {
    database = await freshDatabase();
    setDatabase(database);
    auth = await initAuth(database.db);
    ops = await account("listed-ops@example.com");
    // /admin accepts only sessions opened with a second factor (docs/decisions/0073-two-factor.md).
    ops = { ...ops, cookie: (await enrolTwoFactor(auth, ops.cookie, PASSWORD)).cookie };
    customer = await account("customer@example.com");
  });
  afterAll(async () => {
    resetAuth();
    setDatabase(undefined);
    await database?.cleanup();
  });

  it("answers 404 to a signed-out visitor and to a signed-in customer, page, data request and action alike", async () => {
    for (const cookie of ["", customer.cookie]) {
      expect(await load(cookie)).toEqual({ status: 404, body: null });
      expect(await load(cookie, "/admin.data?_routes=routes%2Fadmin")).toEqual({ status: 404, body: null });
      for (const form of [
        { intent: "retry-lead", leadId: "x" },
        { intent: "grant-operator", email: "customer@example.com" },
      ] as Record<string, string>[]) {
        expect(await act(cookie, form)).toEqual({ status: 404, body: null });
      }
    }
    // Nobody granted themselves anything on the way.
    expect(await roles(customer.id)).toEqual([]);
    expect((await load(ops.cookie)).status).toBe(200);
  });

  it("an operator grants the role to an existing account by email; that account then opens /admin", async () => {
    const granted = await act(ops.cookie, { intent: "grant-operator", email: "  Customer@Example.com " });
    expect(granted).toEqual({
      status: 200,
      body: { ok: true, intent: "grant-operator", message: "customer@example.com is now an operator." },
    });
    expect(await roles(customer.id)).toMatchObject([{ role: "operator" }]);
    const again = await act(ops.cookie, { intent: "grant-operator", email: "customer@example.com" });
    expect(again.body).toMatchObject({ ok: true, message: "customer@example.com is already an operator." });
    customer = { ...customer, cookie: (await enrolTwoFactor(auth, customer.cookie, PASSWORD)).cookie };
    const page = await load(customer.cookie);
    expect(page.status).toBe(200);
    expect((page.body as { operators: unknown[] }).operators).toEqual(
      expect.arrayContaining([expect.objectContaining({ email: "customer@example.com", granted: true, listed: false })]),
    );
  });

  it("refuses unknown, unverified, malformed and extra input with a message in the form, writing nothing", async () => {
    const pending = await account("pending@example.com", { verified: false });
    expect(await act(ops.cookie, { intent: "grant-operator", email: "nobody@example.com" })).toEqual({
      status: 400,
      body: {
        ok: false,
        intent: "grant-operator",
        email: "nobody@example.com",
        message: "No account uses nobody@example.com. Ask them to sign up first, then grant the role.",
      },
    });
    expect(await act(ops.cookie, { intent: "grant-operator", email: "pending@example.com" })).toMatchObject({
      status: 400,
      body: { ok: false, message: expect.stringMatching(/has not verified its email address/) },
    });
    expect(await act(ops.cookie, { intent: "grant-operator", email: "not-an-email" })).toEqual({
      status: 400,
      body: { ok: false, intent: "grant-operator", message: "Enter a valid email address." },
    });
    for (const form of [{ intent: "grant-operator", email: "  " }, { intent: "grant-operator" }] as Record<string, string>[]) {
      expect(await act(ops.cookie, form)).toMatchObject({
        status: 400,
        body: { message: "Enter the email address of an existing account." },
      });
    }
    for (const form of [
      { intent: "grant-operator", email: "customer@example.com", role: "admin" },
      { intent: "make-me-root", email: "customer@example.com" },
      { intent: "revoke-operator", userId: "x".repeat(101) },
    ] as Record<string, string>[]) {
      expect(await act(ops.cookie, form)).toEqual({ status: 400, body: { ok: false, message: "Unknown or invalid request." } });
    }
    expect(await roles(pending.id)).toEqual([]);
  });

  it("nobody revokes their own role; an operator revokes another's, who then gets the 404", async () => {
    expect(await act(customer.cookie, { intent: "revoke-operator", userId: customer.id })).toEqual({
      status: 400,
      body: { ok: false, intent: "revoke-operator", message: "You cannot revoke your own operator role: ask another operator." },
    });
    expect(await roles(customer.id)).toHaveLength(1);
    expect(await act(ops.cookie, { intent: "revoke-operator", userId: customer.id })).toEqual({
      status: 200,
      body: { ok: true, intent: "revoke-operator", message: "Operator role revoked." },
    });
    expect(await roles(customer.id)).toEqual([]);
    expect(await load(customer.cookie)).toEqual({ status: 404, body: null });
    expect((await act(ops.cookie, { intent: "revoke-operator", userId: customer.id })).status).toBe(409);
  });

  it("lists granted operators and OPERATOR_EMAILS addresses, with or without an account", async () => {
    expect(await listOperators(database.db)).toEqual([
      {
        userId: ops.id,
        email: "listed-ops@example.com",
        name: "listed-ops",
        granted: false,
        listed: true,
        emailVerified: true,
      },
      { userId: null, email: "not-signed-up@example.com", name: null, granted: false, listed: true, emailVerified: false },
    ]);
  });
});
