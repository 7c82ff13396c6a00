import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { action as webhookAction } from "~/routes/api/webhooks.stripe";
import { createCheckout } from "~/server/billing/create-checkout.server";
import { listPurchasedAutomations } from "~/server/billing/list-orders.server";
import { hasActiveSubscription } from "~/server/trial/trial.server";
import { seedCatalogue } from "~/server/catalogue/seed.server";
import { setDatabase } from "~/server/db/client.server";
import { paymentEvents, userAddons } from "~/server/db/schema";
import { startJobs, stopJobs } from "~/server/jobs/queue.server";
import { engine, freshDatabase, insertTestAddons, orderById, userMaker } from "./support/db";
import { signedEvent, startFakeStripeForApp, webhookRequest, type FakeStripe } from "../support/fake-stripe";
import { waitFor } from "./support/wait";

/** Stripe side of docs/decisions/0009's "bought once": resumed sessions and a duplicate paid anyway. */
const SECRET = "whsec_duplicates_test_secret";
const TEST_ADDONS = [
  { id: "s-seo", name: "SEO Booster", category: "Marketing", monthlyPrice: 4900 },
  { id: "s-crm", name: "CRM Sync", category: "Sales", monthlyPrice: 7900 },
];

const send = async (type: string, object: unknown) => {
  const event = signedEvent(SECRET, { type, object });
  const result = (await webhookAction({ request: webhookRequest(event.body, event.signature) })) as {
    data: Record<string, unknown>;
    init?: { status?: number } | null;
  };
  return { status: result.init?.status ?? 200, body: result.data };
};

describe(`stripe duplicate purchases (${engine})`, () => {
  let database: Awaited<ReturnType<typeof freshDatabase>>;
  let stripe: FakeStripe;
  const newUser = userMaker(() => database.db, "sdup");
  const sessionCreates = () => stripe.requests.filter((r) => r.method === "POST" && r.path === "/v1/checkout/sessions").length;

  beforeAll(async () => {
    stripe = await startFakeStripeForApp(SECRET);
    // One-time orders paid at once, as sessions from before one-time trials were (trial-capture.test.ts covers the held payments).
    stripe.captureAtOnce = true;
    database = await freshDatabase();
    await seedCatalogue(database.db);
    await insertTestAddons(database.db, TEST_ADDONS);
    setDatabase(database);
    // The Stripe calls after a fulfilment are stripe-follow-up jobs.
    await startJobs(database, { pollingIntervalSeconds: 0.5, schedules: false });
  });
  afterAll(async () => {
    await stopJobs();
    setDatabase(undefined);
    await database?.cleanup();
    await stripe?.close();
  });

  it("a second click reuses the open Stripe session; an expired one gets a new order; a completed one is 409", async () => {
    const buyer = await newUser();
    const req = { kind: "addons" as const, addonIds: ["s-seo", "s-crm"] };
    const first = await createCheckout(database.db, buyer, req);
    const before = sessionCreates();
    expect(await createCheckout(database.db, buyer, req)).toEqual(first);
    expect(sessionCreates()).toBe(before);
    expect(stripe.requests.at(-1)).toMatchObject({ method: "GET", path: `/v1/checkout/sessions/${first.sessionId}` });

    // Expired at Stripe (its event not here yet): the old order ends, a new one opens.
    stripe.sessions.get(first.sessionId)!.status = "expired";
    const second = await createCheckout(database.db, buyer, req);
    expect(second.orderId).not.toBe(first.orderId);
    expect((await orderById(database.db, first.orderId)).status).toBe("canceled");

    // Paid at Stripe, its webhook still on the way: not a second order.
    stripe.pay(second.sessionId);
    await expect(createCheckout(database.db, buyer, req)).rejects.toMatchObject({ code: "already_owned", status: 409 });
  });

  it("add-ons paid twice: the payment is recorded, no second entitlement, and the duplicate subscription is cancelled", async () => {
    const buyer = await newUser();
    const bundle = await createCheckout(database.db, buyer, { kind: "addons", addonIds: ["s-seo", "s-crm"] });
    const single = await createCheckout(database.db, buyer, { kind: "addons", addonIds: ["s-seo"] });
    const paidBundle = stripe.pay(bundle.sessionId);
    const paidSingle = stripe.pay(single.sessionId);
    expect(await send("checkout.session.completed", paidBundle)).toMatchObject({ status: 200 });
    expect(await send("checkout.session.completed", paidSingle)).toMatchObject({ status: 200 });

    const owned = await database.db.select().from(userAddons).where(eq(userAddons.userId, buyer.id));
    expect(owned.map((o) => [o.addonId, o.orderId, o.status]).sort()).toEqual([
      ["s-crm", bundle.orderId, "active"],
      ["s-seo", bundle.orderId, "active"],
    ]);
    // The money Stripe took is on record (for the refund), under the duplicate order.
    expect(await database.db.select().from(paymentEvents).where(eq(paymentEvents.orderId, single.orderId))).toMatchObject([
      { kind: "payment", amount: 4900 },
    ]);
    // Cancelled at Stripe after the commit (a job), and the order ended.
    const subscriptionId = String(paidSingle.subscription);
    await waitFor(
      () => orderById(database.db, single.orderId),
      (o) => o.status === "canceled",
    );
    expect(stripe.requests.some((r) => r.method === "DELETE" && r.path === `/v1/subscriptions/${subscriptionId}`)).toBe(true);
    expect(stripe.subscriptions.get(subscriptionId)!.status).toBe("canceled");
    expect(await orderById(database.db, single.orderId)).toMatchObject({
      status: "canceled",
      details: expect.objectContaining({ duplicateOf: bundle.orderId }),
    });
    // The first subscription is untouched.
    expect(stripe.subscriptions.get(String(paidBundle.subscription))!.status).toBe("active");
    expect((await orderById(database.db, bundle.orderId)).status).toBe("paid");
  });

  const refundCharge = async (
    chargeId: string,
    paymentIntent: unknown,
    customer: unknown,
    refunds: { id: string; amount: number }[],
  ) => {
    stripe.refunds.set(
      chargeId,
      refunds.map((r) => ({ ...r, object: "refund", currency: "usd", status: "succeeded", charge: chargeId })),
    );
    const refunded = refunds.reduce((sum, r) => sum + r.amount, 0);
    return send("charge.refunded", {
      id: chargeId,
      object: "charge",
      amount: refunded,
      amount_refunded: refunded,
      currency: "usd",
      customer,
      payment_intent: paymentIntent,
      refunded: true,
    });
  };

  it("refunds: a partial refund keeps the order paid; refunds adding up to the payment mark it refunded and end the app", async () => {
    const buyer = await newUser();
    const checkout = await createCheckout(database.db, buyer, { kind: "app", appId: 7, tab: "base" });
    const session = stripe.pay(checkout.sessionId);
    await send("checkout.session.completed", session);
    const { amount } = await orderById(database.db, checkout.orderId);
    expect(await listPurchasedAutomations(database.db, buyer.id)).toHaveLength(1);

    await refundCharge("ch_app_1", session.payment_intent, session.customer, [{ id: "re_app_1", amount: 1000 }]);
    expect((await orderById(database.db, checkout.orderId)).status).toBe("paid");
    expect(await listPurchasedAutomations(database.db, buyer.id)).toHaveLength(1);

    const rest = [
      { id: "re_app_1", amount: 1000 },
      { id: "re_app_2", amount: amount - 1000 },
    ];
    expect((await refundCharge("ch_app_1", session.payment_intent, session.customer, rest)).body.outcome).toBe("applied");
    expect((await orderById(database.db, checkout.orderId)).status).toBe("refunded");
    expect(await listPurchasedAutomations(database.db, buyer.id)).toEqual([]);
    // Delivered again: nothing more happens.
    expect((await refundCharge("ch_app_1", session.payment_intent, session.customer, rest)).body.outcome).toBe("ignored");
    expect((await orderById(database.db, checkout.orderId)).status).toBe("refunded");
  });

  it("refunds: a wholly refunded add-on subscription ends its add-ons and access, and stays refunded when Stripe deletes it", async () => {
    const buyer = await newUser();
    const checkout = await createCheckout(database.db, buyer, { kind: "addons", addonIds: ["s-crm"] });
    const session = stripe.pay(checkout.sessionId);
    await send("checkout.session.completed", session);
    expect(await hasActiveSubscription(database.db, buyer.id)).toBe(true);
    stripe.invoiceOfPaymentIntent.set("pi_addon_1", String(session.invoice));
    await refundCharge("ch_addon_1", "pi_addon_1", session.customer, [{ id: "re_addon_1", amount: 7900 }]);
    expect((await orderById(database.db, checkout.orderId)).status).toBe("refunded");
    expect((await database.db.select().from(userAddons).where(eq(userAddons.userId, buyer.id)))[0]).toMatchObject({
      addonId: "s-crm",
      status: "canceled",
    });
    expect(await hasActiveSubscription(database.db, buyer.id)).toBe(false);
    // The operator cancels it at Stripe; the deleted event re-reads it there.
    stripe.subscriptions.get(String(session.subscription))!.status = "canceled";
    await send("customer.subscription.deleted", {
      id: session.subscription,
      object: "subscription",
      status: "canceled",
      cancel_at_period_end: false,
      cancel_at: null,
      items: { object: "list", data: [] },
    });
    expect((await orderById(database.db, checkout.orderId)).status).toBe("refunded");
  });
});
