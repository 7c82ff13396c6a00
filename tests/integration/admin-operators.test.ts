import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { action as adminAction, loader as adminLoader } from "~/routes/admin";
import { initAuth, resetAuth, type Auth } from "~/server/auth/auth.server";
import { setDatabase } from "~/server/db/client.server";
import * as schema from "~/server/db/schema";
import { engine, freshDatabase } from "./support/db";

process.env.LOG_LEVEL ??= "error";
// Read lazily by env(): set before anything asks for it.
process.env.OPERATOR_EMAILS = "listed-ops@example.com, not-signed-up@example.com";

const SITE = "http://localhost:3000";
const PASSWORD = "correct-horse-battery";

/**
 * What a loader or action answered: a returned or thrown data() as status and body, a thrown or
 * returned Response (a redirect) as its status and Location.
 */
async function answer(run: Promise<unknown>): Promise<{ status: number; body: unknown; location?: string | null }> {
  let result: unknown;
  try {
    result = await run;
  } catch (thrown) {
    result = thrown;
  }
  if (result instanceof Response) return { status: result.status, body: null, location: result.headers.get("location") };
  if (result && typeof result === "object" && "init" in result && "data" in result) {
    const { data, init } = result as { data: unknown; init: ResponseInit | null };
    return { status: init?.status ?? 200, body: data };
  }
  if (result instanceof Error) throw result;
  return { status: 200, body: result };
}

const args = (request: Request) => ({ request, params: {}, context: {} }) as never;
const get = (cookie: string, path = "/admin") => new Request(`${SITE}${path}`, { headers: cookie ? { cookie } : {} });
const post = (cookie: string, form: Record<string, string>) =>
  new Request(`${SITE}/admin`, {
    method: "POST",
    headers: { origin: SITE, "content-type": "application/x-www-form-urlencoded", ...(cookie ? { cookie } : {}) },
    body: new URLSearchParams(form),
  });
const load = (cookie: string, path?: string) => answer(adminLoader(args(get(cookie, path))));
const act = (cookie: string, form: Record<string, string>) => answer(adminAction(args(post(cookie, form))));

/**
 * /admin's loader and action as React Router calls them: everyone who is not an operator gets the
 * site's 404 (signed out too, no redirect to sign-in that would reveal the page).
 */
describe(`/admin (${engine})`, () => {
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

  /** An account through Better Auth's sign-up, verified and signed in. */
  const account = async (email: string) => {
    expect((await authPost("/sign-up/email", { email, password: PASSWORD, name: email.split("@")[0] })).status).toBe(200);
    const [row] = await database.db.select().from(schema.user).where(eq(schema.user.email, email));
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
});
