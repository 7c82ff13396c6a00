import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { SCALING_TIERS } from "~/catalogue/plans";
import { CHECKOUT_REFUSAL_CODES, type CheckoutRefusalCode } from "~/lib/checkout-codes";
import { action as appsAction } from "~/routes/_marketing/apps";
import { action as distributorsAction } from "~/routes/_marketing/distributors";
import { action as checkoutAction, loader as checkoutLoader } from "~/routes/api/checkout";
import { initAuth, resetAuth, type Auth } from "~/server/auth/auth.server";
import { createCheckout } from "~/server/billing/create-checkout.server";
import { fulfilOrder } from "~/server/billing/fulfil-order.server";
import { localProvider, setCheckoutProvider } from "~/server/billing/provider.server";
import { seedCatalogue } from "~/server/catalogue/seed.server";
import { setDatabase } from "~/server/db/client.server";
import { limitCounters, orders } from "~/server/db/schema";
import { CLIENT_IP_HEADER } from "~/server/http/client-ip.server";
import { RATE_LIMITS, takeAttempt } from "~/server/limits/rate-limits.server";
import { engine, freshDatabase, insertTestAddons, signedInCustomerMaker } from "./support/db";
import { routeAnswer, routeArgs, type RouteAnswer } from "./support/route";

process.env.LOG_LEVEL ??= "error";

const SITE = "http://localhost:3000";
const ADDONS = [
  { id: "r-seo", name: "SEO Booster", category: "Marketing", monthlyPrice: 4900 },
  { id: "r-crm", name: "CRM Sync", category: "Sales", monthlyPrice: 7900 },
];

const request = (path: string, cookie: string | null, init: { method?: string; type?: string; body?: BodyInit } = {}) =>
  new Request(`${SITE}${path}`, {
    method: init.method ?? "POST",
    headers: {
      ...(cookie ? { cookie } : {}),
      origin: SITE,
      [CLIENT_IP_HEADER]: "192.0.2.77",
      ...(init.type ? { "content-type": init.type } : {}),
    },
    body: init.body,
  });
const apiCheckout = (cookie: string | null, body: unknown) =>
  routeAnswer(
    checkoutAction(
      routeArgs(
        request("/api/checkout", cookie, {
          type: "application/json",
          body: typeof body === "string" ? body : JSON.stringify(body),
        }),
      ),
    ),
  );
const formPost = (path: string, cookie: string, form: Record<string, string>) =>
  request(path, cookie, { type: "application/x-www-form-urlencoded", body: new URLSearchParams(form) });

/** What the contract fixes of a refusal: its status and code, a message, `error` repeating it. */
const refused = (status: number, code: CheckoutRefusalCode, extra: Record<string, unknown> = {}) => ({
  status,
  code,
  message: expect.any(String),
  errorIsMessage: true,
  ...extra,
});

/**
 * The checkout contract (app/lib/checkout-codes.ts): every refusal of POST /api/checkout answers its
 * HTTP status with `{ code, message, field? }` (and `error`, the message again), and a page's
 * no-JavaScript checkout form, which goes through the same startCheckout, answers the same code.
 */
describe(`checkout refusals carry their code (${engine})`, () => {
  let database: Awaited<ReturnType<typeof freshDatabase>>;
  let auth: Auth;
  let failProvider = false;

  const customer = signedInCustomerMaker(
    () => auth,
    () => database.db,
    "refusals",
  );

  /** A refusal's status and body; its code counts towards the check that every code is answered. */
  const seen = new Set<string>();
  const refusal = (res: RouteAnswer<Record<string, unknown>>) => {
    const body = res.body ?? {};
    if (typeof body.code === "string") seen.add(body.code);
    return { ...body, status: res.status, errorIsMessage: body.error === body.message };
  };
  beforeAll(async () => {
    database = await freshDatabase();
    await seedCatalogue(database.db);
    await insertTestAddons(database.db, ADDONS);
    setDatabase(database);
    auth = await initAuth(database.db);
    setCheckoutProvider({
      ...localProvider,
      createSession: (input) => (failProvider ? Promise.reject(new Error("provider down")) : localProvider.createSession(input)),
    });
  });
  afterAll(async () => {
    setCheckoutProvider(undefined);
    resetAuth();
    setDatabase(undefined);
    await database?.cleanup();
  });
  beforeEach(async () => {
    failProvider = false;
    await database.db.delete(limitCounters);
  });

  it("method, session and body: method_not_allowed, not_signed_in, invalid_input", async () => {
    const buyer = await customer();
    const put = request("/api/checkout", buyer.cookie, { method: "PUT" });
    expect(refusal(await routeAnswer(checkoutLoader()))).toMatchObject(
      refused(405, "method_not_allowed", { message: "Method not allowed" }),
    );
    expect(refusal(await routeAnswer(checkoutAction(routeArgs(put))))).toMatchObject(refused(405, "method_not_allowed"));
    expect(refusal(await apiCheckout(null, { kind: "app", appId: 7, tab: "base" }))).toMatchObject(
      refused(401, "not_signed_in", { message: "Authentication required" }),
    );
    expect(refusal(await apiCheckout(buyer.cookie, "{oops"))).toMatchObject(
      refused(400, "invalid_input", { message: "Invalid JSON body" }),
    );
    expect(refusal(await apiCheckout(buyer.cookie, "x".repeat(5000)))).toMatchObject(refused(413, "invalid_input"));
    expect(refusal(await apiCheckout(buyer.cookie, { kind: "plan", planType: "basic", amount: 1 }))).toMatchObject(
      refused(400, "invalid_input", { message: "Unexpected field: amount" }),
    );
    expect(refusal(await apiCheckout(buyer.cookie, { kind: "app", appId: "7", tab: "base" }))).toMatchObject(
      refused(400, "invalid_input", { message: "Invalid app data" }),
    );
    const distributor = { kind: "distributor", email: "nope", fullName: "Ada", businessName: "Ada Ltd" };
    expect(refusal(await apiCheckout(buyer.cookie, distributor))).toMatchObject(
      refused(400, "invalid_input", { field: "email", message: "Enter a valid email address" }),
    );
    expect(refusal(await apiCheckout(buyer.cookie, { kind: "addons", addonIds: ["r-seo", "r-seo"] }))).toMatchObject(
      refused(400, "invalid_input"),
    );
    expect(await database.db.select().from(orders).where(eq(orders.userId, buyer.id))).toEqual([]);
  });

  it("the catalogue: unknown_item for an app or add-on that is not for sale", async () => {
    const buyer = await customer();
    expect(refusal(await apiCheckout(buyer.cookie, { kind: "app", appId: 999_999, tab: "base" }))).toMatchObject(
      refused(400, "unknown_item", { message: "Invalid app data" }),
    );
    expect(refusal(await apiCheckout(buyer.cookie, { kind: "addons", addonIds: ["no-such-addon"] }))).toMatchObject(
      refused(400, "unknown_item"),
    );
  });

  it("ownership: already_owned for an add-on or the distributor program the account holds", async () => {
    const buyer = await customer();
    const paid = async (req: Parameters<typeof createCheckout>[2]) =>
      fulfilOrder(database.db, (await createCheckout(database.db, buyer, req)).sessionId);
    const distributor = { kind: "distributor", email: buyer.email, fullName: "Ada", businessName: "Ada Ltd" } as const;
    await paid({ kind: "addons", addonIds: ["r-seo"] });
    await paid(distributor);
    expect(refusal(await apiCheckout(buyer.cookie, { kind: "addons", addonIds: ["r-seo", "r-crm"] }))).toMatchObject(
      refused(409, "already_owned"),
    );
    expect(refusal(await apiCheckout(buyer.cookie, distributor))).toMatchObject(refused(409, "already_owned"));
  });

  it("the plan: included_in_plan for a scaling tier with the contacts the plan already has", async () => {
    const buyer = await customer();
    await fulfilOrder(database.db, (await createCheckout(database.db, buyer, { kind: "plan", planType: "pro" })).sessionId);
    const included = SCALING_TIERS.findIndex((t) => t.contacts === 100_000);
    expect(refusal(await apiCheckout(buyer.cookie, { kind: "scaling", tierIndex: included }))).toMatchObject(
      refused(409, "included_in_plan"),
    );
  });

  it("the provider: provider_unavailable when it cannot open the checkout", async () => {
    const buyer = await customer();
    failProvider = true;
    expect(refusal(await apiCheckout(buyer.cookie, { kind: "plan", planType: "basic" }))).toMatchObject(
      refused(503, "provider_unavailable"),
    );
  });

  it("the limits: rate_limited with Retry-After once the account's checkouts are used up", async () => {
    const buyer = await customer();
    for (let i = 0; i < RATE_LIMITS.checkout.perAccount[0].max; i++)
      await takeAttempt(database.db, RATE_LIMITS.checkout, { userId: buyer.id, ip: `198.51.100.${i + 1}` });
    const res = await apiCheckout(buyer.cookie, { kind: "plan", planType: "basic" });
    expect(refusal(res)).toMatchObject(refused(429, "rate_limited", { message: expect.stringMatching(/^Too many requests/) }));
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
  });

  it("a page's checkout form answers the same codes, with the status and the page's context", async () => {
    const buyer = await customer();
    const apps = (appId: string) => routeAnswer(appsAction(routeArgs(formPost("/apps", buyer.cookie, { appId, tab: "base" }))));
    expect(refusal(await apps("999999"))).toMatchObject(refused(400, "unknown_item", { context: { appId: "999999" } }));
    expect(refusal(await apps("seven"))).toMatchObject(refused(400, "invalid_input", { message: "Invalid app data" }));
    const form = { email: "nope", fullName: "Ada", businessName: "Ada Ltd" };
    const distributor = await routeAnswer(distributorsAction(routeArgs(formPost("/distributors", buyer.cookie, form))));
    expect(refusal(distributor)).toMatchObject(
      refused(400, "invalid_input", { field: "email", message: "Enter a valid email address" }),
    );
  });

  it("every code the contract defines is answered by one of the paths above", () => {
    expect([...seen].sort()).toEqual([...CHECKOUT_REFUSAL_CODES].sort());
  });
});
