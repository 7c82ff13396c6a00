import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LIST_PLAN_CATALOGUE } from "~/catalogue/plan-prices";
import { action as webhookAction } from "~/routes/api/webhooks.stripe";
import { confirmPlanChange } from "~/server/billing/confirm-plan-change.server";
import { createCheckout } from "~/server/billing/create-checkout.server";
import { changeDetails } from "~/server/billing/plan-changes.server";
import { setCheckoutProvider } from "~/server/billing/provider.server";
import { startCheckout } from "~/server/billing/start-checkout.server";
import { catalogueLines, planLine } from "~/server/billing/stripe/catalogue-items.server";
import { cataloguePriceId, ensureCataloguePrices, forgetCataloguePrices } from "~/server/billing/stripe/catalogue-prices.server";
import { stripeClient } from "~/server/billing/stripe/client.server";
import { updateStripePlan } from "~/server/billing/stripe/plan-change.server";
import { seedCatalogue } from "~/server/catalogue/seed.server";
import { setDatabase } from "~/server/db/client.server";
import { orders, paymentEvents, userSubscriptions } from "~/server/db/schema";
import { engine, freshDatabase, userMaker } from "./support/db";
import { signedEvent, startFakeStripeForApp, webhookRequest, type FakeStripe } from "../support/fake-stripe";

/**
 * Plan changes with Stripe: Stripe's preview gives the figures, the confirm updates the subscription
 * to the new plan's catalogue Price with the previewed proration date, and the update's webhooks
 * converge with the confirm whichever comes first, recording the change and its payment once.
 */
const SECRET = "whsec_plan_change_secret";

const send = async (type: string, object: unknown) => {
  const event = signedEvent(SECRET, { type, object });
  const result = (await webhookAction({ request: webhookRequest(event.body, event.signature) } as never)) as {
    data: Record<string, unknown>;
    init?: { status?: number } | null;
  };
  return { status: result.init?.status ?? 200, body: result.data };
};

describe(`plan changes with Stripe (${engine})`, () => {
  let database: Awaited<ReturnType<typeof freshDatabase>>;
  let stripe: FakeStripe;
  const newUser = userMaker(() => database.db, "stripe-change");
  const rowOf = async (userId: string) =>
    database.db.select().from(userSubscriptions).where(eq(userSubscriptions.userId, userId));
  const orderOf = async (id: string) => (await database.db.select().from(orders).where(eq(orders.id, id)))[0]!;
  const paymentsOf = (orderId: string) => database.db.select().from(paymentEvents).where(eq(paymentEvents.orderId, orderId));
  const updatesOf = (subscriptionId: string) =>
    stripe.requests.filter((r) => r.method === "POST" && r.path === `/v1/subscriptions/${subscriptionId}` && r.body.items);
  const priceIdOf = (lookupKey: string) => String([...stripe.prices.values()].find((p) => p.lookup_key === lookupKey)?.id);

  /** A customer whose Basic plan was paid in a Stripe Checkout Session (webhook fulfilled). */
  async function subscriber() {
    const user = await newUser();
    const { sessionId, orderId } = await createCheckout(database.db, user, { kind: "plan", planType: "basic" });
    const session = stripe.pay(sessionId);
    expect((await send("checkout.session.completed", session)).status).toBe(200);
    return { user, orderId, subscriptionId: String(session.subscription) };
  }

  /** The quote of moving `user` to Enterprise, through the checkout request the page sends. */
  async function quoteEnterprise(user: { id: string; email: string }) {
    const started = await startCheckout(database.db, user, { kind: "plan", planType: "enterprise" }, { ip: null });
    expect(started).toEqual({ url: expect.stringMatching(/^\/dashboard\/billing\/change\//) });
    return orderOf((started as { url: string }).url.split("/").at(-1)!);
  }

  beforeAll(async () => {
    stripe = await startFakeStripeForApp(SECRET);
    database = await freshDatabase();
    await seedCatalogue(database.db);
    setDatabase(database);
    setCheckoutProvider(undefined);
  });
  afterAll(async () => {
    setDatabase(undefined);
    await database?.cleanup();
    await stripe?.close();
  });

  it("an upgrade: Stripe previews it, the confirm updates the subscription's price with the previewed date, once", async () => {
    const { user, orderId, subscriptionId } = await subscriber();
    const [before] = await rowOf(user.id);
    const quote = await quoteEnterprise(user);
    const d = changeDetails(quote);
    const enterprisePrice = priceIdOf("plan.enterprise.usd.99900.month");
    const preview = stripe.requests.filter((r) => r.path === "/v1/invoices/create_preview").at(-1)!;
    expect(preview.body).toEqual({
      subscription: subscriptionId,
      subscription_details: {
        items: [{ id: `si_${subscriptionId}`, price: enterprisePrice }],
        proration_date: String(d.prorationDate),
        proration_behavior: "always_invoice",
      },
    });
    // Nearly the whole month is left: almost the whole difference is due now.
    expect(d.net).toBeGreaterThan(89_000);
    expect(d.net).toBeLessThanOrEqual(90_000);
    expect(quote).toMatchObject({ status: "pending", amount: d.net, itemName: "Changed plan: Basic → Enterprise" });

    const results = await Promise.all([
      confirmPlanChange(database.db, user.id, quote.id),
      confirmPlanChange(database.db, user.id, quote.id),
    ]);
    expect(results.every((r) => r.ok)).toBe(true);
    expect((await confirmPlanChange(database.db, user.id, quote.id)).ok).toBe(true);
    const updates = updatesOf(subscriptionId);
    // Two concurrent confirms send the same request (one idempotency key); Stripe applies it once.
    expect(new Set(updates.map((u) => u.headers["idempotency-key"]))).toEqual(new Set([`plan-change-${quote.id}-0`]));
    expect(updates[0]!.body).toEqual({
      items: [{ id: `si_${subscriptionId}`, price: enterprisePrice }],
      proration_behavior: "always_invoice",
      proration_date: String(d.prorationDate),
      payment_behavior: "error_if_incomplete",
      metadata: { change_order_id: quote.id },
      expand: ["latest_invoice"],
    });
    const invoiceId = String(stripe.subscriptions.get(subscriptionId)!.latest_invoice);
    const invoice = stripe.invoices.get(invoiceId)!;
    expect(invoice.amount_paid).toBe(d.net);
    expect(await rowOf(user.id)).toMatchObject([
      { id: before!.id, status: "active", planName: "Enterprise", monthlyPrice: 99_900, reachLimit: null, itemId: "enterprise" },
    ]);
    expect((await paymentsOf(quote.id)).map((p) => [p.amount, p.providerRef])).toEqual([[d.net, invoiceId]]);

    // Stripe's events of the update arrive afterwards: nothing is recorded twice.
    expect((await send("invoice.paid", invoice)).status).toBe(200);
    expect((await send("customer.subscription.updated", stripe.subscriptions.get(subscriptionId))).status).toBe(200);
    expect(await paymentsOf(quote.id)).toHaveLength(1);
    // The proration invoice is not a renewal of the first order.
    expect((await paymentsOf(orderId)).map((p) => p.amount)).toEqual([9_900]);
    expect(await rowOf(user.id)).toMatchObject([{ status: "active", planName: "Enterprise", monthlyPrice: 99_900 }]);
    expect(await orderOf(quote.id)).toMatchObject({ status: "paid" });
  });

  it("the webhooks first: the update and its invoice apply the change; the confirm then finds it made", async () => {
    const { user, subscriptionId } = await subscriber();
    const quote = await quoteEnterprise(user);
    // The update went through at Stripe, but the confirm's own transaction did not run.
    await updateStripePlan(stripeClient(), quote.id, changeDetails(quote));
    expect((await send("customer.subscription.updated", stripe.subscriptions.get(subscriptionId))).body).toMatchObject({
      outcome: "applied",
    });
    expect(await rowOf(user.id)).toMatchObject([{ planName: "Enterprise", monthlyPrice: 99_900 }]);
    expect(await orderOf(quote.id)).toMatchObject({ status: "paid" });
    const invoice = stripe.invoices.get(String(stripe.subscriptions.get(subscriptionId)!.latest_invoice))!;
    expect((await send("invoice.paid", invoice)).body).toMatchObject({ outcome: "applied" });
    expect((await paymentsOf(quote.id)).map((p) => [p.amount, p.providerRef])).toEqual([[invoice.amount_paid, invoice.id]]);
    expect((await confirmPlanChange(database.db, user.id, quote.id)).ok).toBe(true);
    expect(updatesOf(subscriptionId)).toHaveLength(1);
    expect(await paymentsOf(quote.id)).toHaveLength(1);
  });

  it("a declined proration payment leaves the old plan and says so; confirming again is a new attempt", async () => {
    const { user, subscriptionId } = await subscriber();
    const quote = await quoteEnterprise(user);
    stripe.declineNextPlanChange = true;
    const declined = await confirmPlanChange(database.db, user.id, quote.id);
    expect(declined).toMatchObject({
      ok: false,
      code: "declined",
      message: expect.stringMatching(/^Your card was declined, so your plan was not changed/),
    });
    expect(await rowOf(user.id)).toMatchObject([{ status: "active", planName: "Basic", monthlyPrice: 9_900 }]);
    expect(await orderOf(quote.id)).toMatchObject({ status: "declined" });
    expect(await paymentsOf(quote.id)).toEqual([]);
    expect((await confirmPlanChange(database.db, user.id, quote.id)).ok).toBe(true);
    expect(updatesOf(subscriptionId).map((u) => u.headers["idempotency-key"])).toEqual([
      `plan-change-${quote.id}-0`,
      `plan-change-${quote.id}-1`,
    ]);
    expect(await rowOf(user.id)).toMatchObject([{ planName: "Enterprise" }]);
  });

  it("catalogue Prices are found by lookup key, made once by concurrent creators, and a new amount is a new Price", async () => {
    forgetCataloguePrices();
    const line = planLine("plan", "pro", "Pro Plan", 49_900);
    const lookupKey = line.lookupKey!;
    forgetCataloguePrices();
    const [a, b] = await Promise.all([
      cataloguePriceId(stripeClient(), { ...line, lookupKey }),
      cataloguePriceId(stripeClient(), { ...line, lookupKey }),
    ]);
    expect(a.id).toBe(b.id);
    expect([...stripe.prices.values()].filter((p) => p.lookup_key === lookupKey)).toHaveLength(1);
    expect(stripe.products.get("ai_plan_pro")).toMatchObject({ name: "Pro Plan" });
    // Another instance (an empty memory) finds it instead of making a second one.
    forgetCataloguePrices();
    expect(await cataloguePriceId(stripeClient(), { ...line, lookupKey })).toEqual({ id: a.id, created: false });
    const raised = planLine("plan", "pro", "Pro Plan", 59_900);
    const next = await cataloguePriceId(stripeClient(), { ...raised, lookupKey: raised.lookupKey! });
    expect(next.id).not.toBe(a.id);
    expect(stripe.prices.get(next.id)).toMatchObject({
      product: "ai_plan_pro",
      unit_amount: 59_900,
      lookup_key: "plan.pro.usd.59900.month",
    });

    // The command's work: every catalogue Price, and nothing new the second time.
    const lines = catalogueLines(LIST_PLAN_CATALOGUE);
    const first = await ensureCataloguePrices(stripeClient(), lines);
    expect(first).toHaveLength(lines.length);
    forgetCataloguePrices();
    const second = await ensureCataloguePrices(stripeClient(), lines);
    expect(second.filter((p) => p.created)).toEqual([]);
    expect(second.map((p) => p.priceId)).toEqual(first.map((p) => p.priceId));
  });
});
