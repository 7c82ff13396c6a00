import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { action as billingAction } from "~/routes/_dashboard/billing";
import { action as changeAction, loader as changeLoader } from "~/routes/_dashboard/billing.change";
import { initAuth, resetAuth, type Auth } from "~/server/auth/auth.server";
import { CLIENT_IP_HEADER } from "~/server/http/client-ip.server";
import { confirmPlanChange, QUOTE_MINUTES } from "~/server/billing/confirm-plan-change.server";
import { createCheckout } from "~/server/billing/create-checkout.server";
import { getEntitlements } from "~/server/billing/entitlements.server";
import { fulfilOrder } from "~/server/billing/fulfil-order.server";
import { listOrders } from "~/server/billing/list-orders.server";
import { holdsMemberPlan } from "~/server/billing/member-plans.server";
import { localProvider, setCheckoutProvider } from "~/server/billing/provider.server";
import { quotePlanChange } from "~/server/billing/quote-plan-change.server";
import { startCheckout } from "~/server/billing/start-checkout.server";
import { seedCatalogue } from "~/server/catalogue/seed.server";
import { setDatabase } from "~/server/db/client.server";
import { orders, paymentEvents, userSubscriptions } from "~/server/db/schema";
import { engine, freshDatabase, signedInCustomerMaker, userMaker } from "./support/db";
import { routeAnswer } from "./support/route";

/**
 * Plan changes with the local provider: a subscriber's request for another plan, tier or member
 * plan is a prorated change of the same subscription (figures first, then a confirm that applies it
 * once), not a second checkout.
 */
const DAY = 86_400_000;
const SITE = "http://localhost:3000";

const get = (path: string, cookie: string) => new Request(`${SITE}${path}`, { headers: { cookie } });
const post = (path: string, cookie: string, form: Record<string, string>) =>
  new Request(`${SITE}${path}`, {
    method: "POST",
    headers: { cookie, origin: SITE, [CLIENT_IP_HEADER]: "192.0.2.77", "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(form),
  });
/** A route's arguments with its path parameters. */
const args = (request: Request, params: Record<string, string> = {}) =>
  ({ request, url: new URL(request.url), params, context: {} }) as never;

describe(`plan changes, local provider (${engine})`, () => {
  let database: Awaited<ReturnType<typeof freshDatabase>>;
  let auth: Auth;
  const newUser = userMaker(() => database.db, "change");
  const customer = signedInCustomerMaker(
    () => auth,
    () => database.db,
    "change-page",
  );
  const rowsOf = (userId: string) => database.db.select().from(userSubscriptions).where(eq(userSubscriptions.userId, userId));
  const paymentsOf = (orderId: string) => database.db.select().from(paymentEvents).where(eq(paymentEvents.orderId, orderId));
  const orderOf = async (id: string) => (await database.db.select().from(orders).where(eq(orders.id, id)))[0]!;

  /** A customer paying for `req` through the local checkout, their period ending `daysLeft` days from `now`. */
  async function subscriber(req: Parameters<typeof createCheckout>[2], now: Date, daysLeft = 15) {
    const user = await newUser();
    const { sessionId } = await createCheckout(database.db, user, req);
    await fulfilOrder(database.db, sessionId);
    await database.db
      .update(userSubscriptions)
      .set({ currentPeriodEnd: new Date(now.getTime() + daysLeft * DAY) })
      .where(eq(userSubscriptions.userId, user.id));
    return user;
  }

  beforeAll(async () => {
    database = await freshDatabase();
    await seedCatalogue(database.db);
    setDatabase(database);
    auth = await initAuth(database.db);
    setCheckoutProvider(localProvider);
  });
  afterAll(async () => {
    setCheckoutProvider(undefined);
    resetAuth();
    setDatabase(undefined);
    await database?.cleanup();
  });

  it("an upgrade halfway through the period: the checkout request answers the confirmation page, with the prorated figure", async () => {
    const user = await subscriber({ kind: "plan", planType: "basic" }, new Date());
    const started = await startCheckout(database.db, user, { kind: "plan", planType: "enterprise" }, { ip: "203.0.113.9" });
    expect(started).toEqual({ url: expect.stringMatching(/^\/dashboard\/billing\/change\/[0-9a-f-]{36}$/) });
    const orderId = (started as { url: string }).url.split("/").at(-1)!;
    const quoted = await orderOf(orderId);
    // 15 of 30 days left: $999 x 1/2 - $99 x 1/2 = $450 (each half rounded to the cent on its own).
    expect(quoted).toMatchObject({
      kind: "plan-change",
      status: "pending",
      provider: "local",
      itemName: "Changed plan: Basic → Enterprise",
      isSubscription: false,
    });
    expect(Math.abs(quoted.amount - 45_000)).toBeLessThanOrEqual(1);
    // No checkout was opened: the only other order is the Basic plan.
    const all = await database.db.select().from(orders).where(eq(orders.userId, user.id));
    expect(all.map((o) => [o.kind, o.status]).sort()).toEqual([
      ["plan", "paid"],
      ["plan-change", "pending"],
    ]);
    // A quote is not history.
    expect((await listOrders(database.db, user.id)).map((o) => o.kind)).toEqual(["plan"]);
  });

  it("confirm moves the same row to the new plan and records the prorated payment once, however often it is confirmed", async () => {
    const now = new Date();
    const user = await subscriber({ kind: "plan", planType: "basic" }, now, 15);
    const [before] = await rowsOf(user.id);
    const quote = (await quotePlanChange(database.db, user.id, { kind: "plan", planType: "enterprise" }, now))!;
    expect(quote.amount).toBe(49_950 - 4_950);
    const [a, b] = await Promise.all([
      confirmPlanChange(database.db, user.id, quote.id),
      confirmPlanChange(database.db, user.id, quote.id),
    ]);
    expect(a.ok && b.ok).toBe(true);
    expect((await confirmPlanChange(database.db, user.id, quote.id)).ok).toBe(true);
    const rows = await rowsOf(user.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      id: before!.id,
      providerSubscriptionId: before!.providerSubscriptionId,
      status: "active",
      planName: "Enterprise",
      planType: "enterprise",
      monthlyPrice: 99_900,
      reachLimit: null,
      itemKind: "plan",
      itemId: "enterprise",
      currentPeriodEnd: before!.currentPeriodEnd,
    });
    expect((await paymentsOf(quote.id)).map((p) => [p.kind, p.amount, p.providerRef])).toEqual([
      ["payment", 45_000, `local:change_${quote.id}`],
    ]);
    expect(await orderOf(quote.id)).toMatchObject({ status: "paid", amount: 45_000 });
    const history = await listOrders(database.db, user.id);
    expect(history.map((o) => [o.itemName, o.status])).toEqual([
      ["Changed plan: Basic → Enterprise", "paid"],
      ["Basic Plan", "paid"],
    ]);
    const entitled = await getEntitlements(database.db, user.id);
    expect(entitled.plan).toMatchObject({ name: "Enterprise", price: 99_900 });
    expect(entitled.otherSubscriptions).toEqual([]);
  });

  it("a downgrade to a scaling tier is a credit: nothing is charged, the row takes the tier's reach", async () => {
    const now = new Date();
    const user = await subscriber({ kind: "plan", planType: "enterprise" }, now, 10);
    const quote = (await quotePlanChange(database.db, user.id, { kind: "scaling", tierIndex: 0 }, now))!;
    expect(quote.amount).toBe(0);
    // 10 of 30 days: $999 / 3 = $333 credited, $199 / 3 = $66.33 charged.
    expect(quote.details).toMatchObject({ net: 6_633 - 33_300, to: { kind: "scaling", itemId: "0", name: "Scale 10K" } });
    expect((await confirmPlanChange(database.db, user.id, quote.id, now)).ok).toBe(true);
    expect(await rowsOf(user.id)).toMatchObject([
      { status: "active", planName: "Scale 10K", planType: "scaling", monthlyPrice: 19_900, reachLimit: 10_000 },
    ]);
    expect(await paymentsOf(quote.id)).toEqual([]);
    expect((await getEntitlements(database.db, user.id)).scalingTier).toMatchObject({ name: "Scale 10K" });
  });

  it("member plans change the same way, and the account then holds the new one", async () => {
    const now = new Date();
    const user = await subscriber({ kind: "member", tier: "growth" }, now, 30);
    const quote = (await quotePlanChange(database.db, user.id, { kind: "member", tier: "pro" }, now))!;
    expect(quote.amount).toBe(700_000 - 350_000);
    expect((await confirmPlanChange(database.db, user.id, quote.id, now)).ok).toBe(true);
    expect(await holdsMemberPlan(database.db, user.id, "pro")).toBe(true);
    expect(await holdsMemberPlan(database.db, user.id, "growth")).toBe(false);
    expect(await rowsOf(user.id)).toMatchObject([{ status: "active", planName: "Pro Member Plan", monthlyPrice: 700_000 }]);
  });

  it("the same plan is refused; no plan, a cancelled plan or one paid through another provider is an ordinary checkout", async () => {
    const now = new Date();
    const pro = await subscriber({ kind: "plan", planType: "pro" }, now);
    await expect(quotePlanChange(database.db, pro.id, { kind: "plan", planType: "pro" })).rejects.toMatchObject({
      code: "already_owned",
      status: 409,
    });
    // Add-ons are not a plan.
    expect(await quotePlanChange(database.db, pro.id, { kind: "addons", addonIds: ["seo-optimizer"] })).toBeNull();

    const fresh = await newUser();
    expect(await quotePlanChange(database.db, fresh.id, { kind: "plan", planType: "pro" })).toBeNull();
    const started = await startCheckout(database.db, fresh, { kind: "plan", planType: "pro" }, { ip: null });
    expect(started).toEqual({ url: expect.stringMatching(/^\/checkout\/local\/cs_local_/) });

    const cancelled = await subscriber({ kind: "plan", planType: "basic" }, now);
    await database.db
      .update(userSubscriptions)
      .set({ cancelAtPeriodEnd: true })
      .where(eq(userSubscriptions.userId, cancelled.id));
    expect(await quotePlanChange(database.db, cancelled.id, { kind: "plan", planType: "pro" })).toBeNull();

    const elsewhere = await subscriber({ kind: "plan", planType: "basic" }, now);
    await database.db.update(userSubscriptions).set({ provider: "stripe" }).where(eq(userSubscriptions.userId, elsewhere.id));
    expect(await quotePlanChange(database.db, elsewhere.id, { kind: "plan", planType: "pro" })).toBeNull();
  });

  it("old figures are not confirmed: expired, replaced by a newer quote, or for a plan the account no longer has", async () => {
    const now = new Date();
    const user = await subscriber({ kind: "plan", planType: "basic" }, now);
    const first = (await quotePlanChange(database.db, user.id, { kind: "plan", planType: "pro" }, now))!;
    const later = new Date(now.getTime() + (QUOTE_MINUTES + 1) * 60_000);
    expect(await confirmPlanChange(database.db, user.id, first.id, later)).toMatchObject({ ok: false, code: "expired" });
    expect(await orderOf(first.id)).toMatchObject({ status: "canceled" });

    const second = (await quotePlanChange(database.db, user.id, { kind: "plan", planType: "pro" }, now))!;
    const third = (await quotePlanChange(database.db, user.id, { kind: "plan", planType: "enterprise" }, now))!;
    // The newer quote cancels the older one.
    expect(await orderOf(second.id)).toMatchObject({ status: "canceled" });
    expect(await confirmPlanChange(database.db, user.id, second.id, now)).toMatchObject({ ok: false, code: "expired" });

    // Another user's quote is not found.
    const stranger = await newUser();
    expect(await confirmPlanChange(database.db, stranger.id, third.id, now)).toMatchObject({ ok: false, code: "not_found" });

    // The plan changed under the quote (here by hand): stale.
    await database.db
      .update(userSubscriptions)
      .set({ itemId: "pro", planName: "Pro" })
      .where(and(eq(userSubscriptions.userId, user.id), eq(userSubscriptions.status, "active")));
    expect(await confirmPlanChange(database.db, user.id, third.id, now)).toMatchObject({ ok: false, code: "stale" });
    expect(await rowsOf(user.id)).toMatchObject([{ planName: "Pro", monthlyPrice: 9_900 }]);
  });

  it("through the pages: the billing form answers the change page, whose confirm applies it; another account's is not found", async () => {
    const buyer = await customer();
    const { sessionId } = await createCheckout(database.db, buyer, { kind: "plan", planType: "basic" });
    await fulfilOrder(database.db, sessionId);
    const picked = await routeAnswer(
      billingAction(args(post("/dashboard/billing", buyer.cookie, { intent: "checkout", planType: "pro" }))),
    );
    expect(picked.status).toBe(302);
    expect(picked.location).toMatch(/^\/dashboard\/billing\/change\/[0-9a-f-]{36}$/);
    const path = picked.location!;
    const orderId = path.split("/").at(-1)!;

    const page = await routeAnswer<{ change: Record<string, unknown>; expired: boolean }>(
      changeLoader(args(get(path, buyer.cookie), { orderId })),
    );
    expect(page.body).toMatchObject({
      expired: false,
      change: {
        status: "pending",
        from: { name: "Basic", monthlyPrice: 9_900 },
        to: { name: "Pro", monthlyPrice: 49_900 },
        credit: 0,
      },
    });
    expect(page.body!.change.dueNow).toBeGreaterThan(39_000);

    const refused = await routeAnswer(changeAction(args(post(path, buyer.cookie, { intent: "pay", amount: "1" }), { orderId })));
    expect(refused.status).toBe(400);
    expect((await orderOf(orderId)).status).toBe("pending");

    const stranger = await customer();
    expect((await routeAnswer(changeLoader(args(get(path, stranger.cookie), { orderId })))).body).toEqual({
      change: null,
      expired: false,
    });
    const notTheirs = await routeAnswer<{ ok: boolean; message: string }>(
      changeAction(args(post(path, stranger.cookie, { intent: "confirm" }), { orderId })),
    );
    expect(notTheirs.status).toBe(404);
    expect(notTheirs.body).toMatchObject({ ok: false, message: expect.stringMatching(/^This plan change was not found/) });

    const confirmed = await routeAnswer(changeAction(args(post(path, buyer.cookie, { intent: "confirm" }), { orderId })));
    expect(confirmed).toMatchObject({ status: 200, body: { ok: true } });
    expect(await rowsOf(buyer.id)).toMatchObject([{ status: "active", planName: "Pro", monthlyPrice: 49_900 }]);
    const after = await routeAnswer<{ change: { status: string } }>(changeLoader(args(get(path, buyer.cookie), { orderId })));
    expect(after.body!.change.status).toBe("paid");
  });
});
