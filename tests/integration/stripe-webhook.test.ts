import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DISTRIBUTOR_PROGRAM } from "~/catalogue/plans";
import { quoteApp } from "~/catalogue/pricing";
import { action as webhookAction, loader as webhookLoader } from "~/routes/api/webhooks.stripe";
import { createCheckout } from "~/server/billing/create-checkout.server";
import type { Stripe } from "stripe";
import { fulfilCheckedSession, syncCheckoutSession } from "~/server/billing/stripe/checkout-session-events.server";
import { cancelReplacedSubscription, endDroppedTrial } from "~/server/billing/stripe/follow-ups.server";
import { hasActiveSubscription } from "~/server/trial/trial.server";
import { stripeClient } from "~/server/billing/stripe/client.server";
import { getApp } from "~/server/catalogue/apps.server";
import { seedCatalogue } from "~/server/catalogue/seed.server";
import { type Db, queryRows, setDatabase } from "~/server/db/client.server";
import {
  affiliates,
  billingCustomers,
  commissionLedger,
  orders,
  paymentEvents,
  referrals,
  stripeEvents,
  userSubscriptions,
} from "~/server/db/schema";
import { type JobsOptions, STRIPE_FOLLOW_UP_QUEUE, startJobs, stopJobs, sweepStripeFollowUps } from "~/server/jobs/queue.server";
import { engine, freshDatabase, userMaker } from "./support/db";
import { signedEvent, startFakeStripeForApp, webhookRequest, type FakeStripe } from "../support/fake-stripe";
import { waitFor } from "./support/wait";

/**
 * POST /api/webhooks/stripe verifies the raw body, applies each
 * event once (ledger row in the same transaction), converges out-of-order subscription events,
 * reverses refunds and lets Stripe retry after a database error.
 */
const SECRET = "whsec_webhook_test_secret";
const APP_ID = 7;

const deliver = async (req: Request) => {
  const result = (await webhookAction({ request: req })) as {
    data: Record<string, unknown>;
    init?: { status?: number } | null;
  };
  return { status: result.init?.status ?? 200, body: result.data };
};
const send = (type: string, object: unknown, opts: { id?: string; created?: number } = {}) => {
  const event = signedEvent(SECRET, { type, object, ...opts });
  return deliver(webhookRequest(event.body, event.signature));
};
const subscriptionObject = (id: string, fields: { status: string; cancelAtPeriodEnd: boolean; periodEnd: number }) => ({
  id,
  object: "subscription",
  status: fields.status,
  cancel_at_period_end: fields.cancelAtPeriodEnd,
  cancel_at: null,
  items: { object: "list", data: [{ id: `si_${id}`, object: "subscription_item", current_period_end: fields.periodEnd }] },
});

/** The Stripe calls after a fulfilment are stripe-follow-up jobs: second-long retries here. */
const JOBS: JobsOptions = {
  stripeFollowUp: { retryLimit: 3, retryDelay: 1, retryBackoff: true, retryDelayMax: 1, expireInSeconds: 30 },
  pollingIntervalSeconds: 0.5,
  schedules: false,
  stopTimeoutMs: 10_000,
};

describe(`stripe webhook (${engine})`, () => {
  let database: Awaited<ReturnType<typeof freshDatabase>>;
  let stripe: FakeStripe;

  const newUser = userMaker(() => database.db, "wh");
  const order = async (id: string) => (await database.db.select().from(orders).where(eq(orders.id, id)))[0]!;
  const payments = async (userId: string) =>
    database.db.select().from(paymentEvents).where(eq(paymentEvents.userId, userId)).orderBy(paymentEvents.id);
  const ledger = async (eventId: string) => database.db.select().from(stripeEvents).where(eq(stripeEvents.id, eventId));
  /** A paid one-time app order: checkout through the Stripe provider, then the buyer pays. */
  const paidSession = async (req: Parameters<typeof createCheckout>[2], changes?: Record<string, unknown>) => {
    const buyer = await newUser();
    const result = await createCheckout(database.db, buyer, req);
    const session = stripe.pay(result.sessionId, changes);
    return { buyer, result, session };
  };

  const paidPlan = async () => {
    const { buyer, result, session } = await paidSession({ kind: "plan", planType: "basic" });
    await send("checkout.session.completed", session);
    const subscriptionId = String(session.subscription);
    return { buyer, result, session, subscriptionId };
  };
  /** Reads and updates of Stripe subscriptions since request number `from` (cancels excluded). */
  const subscriptionCalls = (from: number) =>
    stripe.requests.slice(from).filter((r) => r.path.startsWith("/v1/subscriptions/") && r.method !== "DELETE");
  /** Stripe's own state of a subscription from now on (what the webhook re-reads). */
  const atStripe = (subscription: { id: string } & Record<string, unknown>) =>
    stripe.subscriptions.set(subscription.id, { ...subscription });
  const subscriptionRow = async (id: string) =>
    (await database.db.select().from(userSubscriptions).where(eq(userSubscriptions.providerSubscriptionId, id)))[0]!;
  const whenSubscriptionRow = (id: string, status: string) =>
    waitFor(
      () => subscriptionRow(id),
      (row) => row.status === status,
      20_000,
    );
  /** Fulfils a paid session as the webhook does, without asking Stripe (which a test may have made fail). */
  const fulfilPaid = async (orderId: string, session: Record<string, unknown>) => {
    const row = await order(orderId);
    return database.db.transaction((tx) =>
      fulfilCheckedSession(tx as unknown as Db, row, session as unknown as Stripe.Checkout.Session),
    );
  };
  /** The follow-up jobs of one row, oldest first. */
  const followUpJobs = (kind: string, id: string | number) =>
    queryRows<{ state: string; retryCount: number }>(
      database.db,
      sql`select state::text as state, retry_count as "retryCount" from pgboss.job
          where name = ${STRIPE_FOLLOW_UP_QUEUE} and data->>'kind' = ${kind} and data->>'id' = ${String(id)}
          order by created_on`,
    );

  beforeAll(async () => {
    stripe = await startFakeStripeForApp(SECRET);
    // One-time orders paid at once, as sessions from before one-time trials were (trial-capture.test.ts covers the held payments).
    stripe.captureAtOnce = true;
    database = await freshDatabase();
    await seedCatalogue(database.db);
    setDatabase(database);
    await startJobs(database, JOBS);
  });
  afterAll(async () => {
    await stopJobs();
    setDatabase(undefined);
    await database?.cleanup();
    await stripe?.close();
  });

  it("checkout.session.completed fulfils the order from the re-read session and stores the customer", async () => {
    const app = (await getApp(database.db, APP_ID))!;
    const { buyer, result, session } = await paidSession({ kind: "app", appId: APP_ID, tab: "express" });
    // The event's snapshot claims a different amount; the session Stripe holds is what counts.
    const res = await send("checkout.session.completed", { ...session, amount_total: 1 });
    expect(res).toEqual({ status: 200, body: { received: true, outcome: "applied" } });
    const row = await order(result.orderId);
    expect(row).toMatchObject({ status: "paid", providerCustomerId: session.customer });
    expect(await payments(buyer.id)).toMatchObject([
      { kind: "payment", amount: quoteApp(app, "express").amount, providerRef: session.payment_intent, orderId: result.orderId },
    ]);
    expect(await database.db.select().from(billingCustomers).where(eq(billingCustomers.userId, buyer.id))).toMatchObject([
      { provider: "stripe", customerId: session.customer },
    ]);
    expect(stripe.requests.some((r) => r.method === "GET" && r.path === `/v1/checkout/sessions/${String(session.id)}`)).toBe(
      true,
    );
  });

  describe("signature: a changed, wrongly signed, unsigned or stale event gets 400 and nothing written", () => {
    it("changed body, wrong secret, missing header, timestamp older than 300 s", async () => {
      const { result, session } = await paidSession({ kind: "app", appId: APP_ID, tab: "base" });
      const good = signedEvent(SECRET, { type: "checkout.session.completed", object: session });
      const changed = good.body.replace('"livemode":false', '"livemode":true');
      const wrongSecret = signedEvent("whsec_someone_else", { id: good.id, type: "checkout.session.completed", object: session });
      const stale = signedEvent(
        SECRET,
        { id: good.id, type: "checkout.session.completed", object: session },
        { timestamp: Math.floor(Date.now() / 1000) - 301 },
      );
      const attempts = [
        webhookRequest(changed, good.signature),
        webhookRequest(wrongSecret.body, wrongSecret.signature),
        webhookRequest(good.body),
        webhookRequest(good.body, ""),
        webhookRequest(good.body, "t=1,v1=deadbeef"),
        webhookRequest(stale.body, stale.signature),
      ];
      for (const req of attempts) {
        const res = await deliver(req);
        expect(res.status).toBe(400);
        expect(res.body.error).toMatch(/signature/i);
      }
      expect(await ledger(good.id)).toEqual([]);
      expect((await order(result.orderId)).status).toBe("pending");
      // The genuine delivery still works afterwards.
      expect((await deliver(webhookRequest(good.body, good.signature))).status).toBe(200);
      expect((await order(result.orderId)).status).toBe("paid");
    });
  });

  describe("duplicates: an event delivered twice is applied once", () => {
    it("the same event twice fulfils once; both answers are 2xx", async () => {
      const { buyer, result, session } = await paidSession({ kind: "app", appId: APP_ID, tab: "standard" });
      const event = signedEvent(SECRET, { type: "checkout.session.completed", object: session });
      const first = await deliver(webhookRequest(event.body, event.signature));
      const second = await deliver(webhookRequest(event.body, event.signature));
      expect(first).toEqual({ status: 200, body: { received: true, outcome: "applied" } });
      expect(second).toEqual({ status: 200, body: { received: true, outcome: "duplicate" } });
      expect(await ledger(event.id)).toHaveLength(1);
      expect(await payments(buyer.id)).toHaveLength(1);
      expect((await order(result.orderId)).status).toBe("paid");
    });

    it("5 concurrent copies: each 2xx, one ledger row, one payment", async () => {
      const { buyer, result, session } = await paidSession({ kind: "app", appId: APP_ID, tab: "express" });
      const event = signedEvent(SECRET, { type: "checkout.session.completed", object: session });
      const answers = await Promise.all(Array.from({ length: 5 }, () => deliver(webhookRequest(event.body, event.signature))));
      expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
      expect(answers.filter((a) => a.body.outcome === "applied")).toHaveLength(1);
      expect(await ledger(event.id)).toHaveLength(1);
      expect(await payments(buyer.id)).toHaveLength(1);
      expect((await order(result.orderId)).status).toBe("paid");
    });

    it("a different event for the same session (completed + async_payment_succeeded) still pays once", async () => {
      const { buyer, session } = await paidSession({ kind: "app", appId: APP_ID, tab: "base" });
      expect((await send("checkout.session.completed", session)).status).toBe(200);
      expect((await send("checkout.session.async_payment_succeeded", session)).status).toBe(200);
      expect(await payments(buyer.id)).toHaveLength(1);
    });
  });

  describe("session checks: what Stripe reports must match the order", () => {
    it("amount, currency, mode and payment status must match the order; otherwise 2xx and nothing fulfilled", async () => {
      for (const changes of [
        { amount_total: 100 },
        { currency: "eur" },
        { mode: "subscription" },
        { payment_status: "unpaid" },
        { metadata: { order_id: "00000000-0000-0000-0000-000000000000" }, client_reference_id: null },
      ]) {
        const { result, session } = await paidSession({ kind: "app", appId: APP_ID, tab: "base" }, changes);
        const res = await send("checkout.session.completed", session);
        expect({ changes, res }).toEqual({ changes, res: { status: 200, body: { received: true, outcome: "ignored" } } });
        expect((await order(result.orderId)).status).toBe("pending");
      }
    });

    it("a trial subscription: Stripe charges only the setup fee today, which is what is recorded", async () => {
      const buyer = await newUser();
      const result = await createCheckout(database.db, buyer, {
        kind: "distributor",
        email: buyer.email,
        fullName: "Dana",
        businessName: "Dana Co",
      });
      const session = stripe.pay(result.sessionId);
      expect(session.amount_total).toBe(DISTRIBUTOR_PROGRAM.setupFee);
      expect((await send("checkout.session.completed", session)).body.outcome).toBe("applied");
      expect(await order(result.orderId)).toMatchObject({ status: "paid", providerSubscriptionId: session.subscription });
      expect(await payments(buyer.id)).toMatchObject([{ amount: DISTRIBUTOR_PROGRAM.setupFee, providerRef: session.invoice }]);
    });

    it("a trial without a setup fee: no_payment_required fulfils and records no money", async () => {
      const { buyer, result, session } = await paidSession({ kind: "app", appId: APP_ID, tab: "monthly" });
      expect(session).toMatchObject({ amount_total: 0, payment_status: "no_payment_required" });
      expect((await send("checkout.session.completed", session)).body.outcome).toBe("applied");
      expect((await order(result.orderId)).status).toBe("paid");
      expect(await payments(buyer.id)).toEqual([]);
    });

    it("checkout.session.expired and async_payment_failed cancel a pending order, never a paid one", async () => {
      const buyer = await newUser();
      const a = await createCheckout(database.db, buyer, { kind: "app", appId: APP_ID, tab: "base" });
      expect((await send("checkout.session.expired", stripe.sessions.get(a.sessionId))).body.outcome).toBe("applied");
      expect((await order(a.orderId)).status).toBe("canceled");
      const b = await createCheckout(database.db, buyer, { kind: "app", appId: APP_ID, tab: "express" });
      expect((await send("checkout.session.async_payment_failed", stripe.sessions.get(b.sessionId))).status).toBe(200);
      expect((await order(b.orderId)).status).toBe("canceled");
      const { result, session } = await paidSession({ kind: "app", appId: APP_ID, tab: "base" });
      await send("checkout.session.completed", session);
      expect((await send("checkout.session.expired", session)).body.outcome).toBe("ignored");
      expect((await order(result.orderId)).status).toBe("paid");
    });
  });

  describe("subscriptions: state from Stripe whatever the event order, and renewals", () => {
    it("subscription events apply the state Stripe holds now, whatever their snapshot or order", async () => {
      const { subscriptionId } = await paidPlan();
      const started = stripe.subscriptions.get(subscriptionId)!.items as { data: { current_period_end: number }[] };
      expect((await subscriptionRow(subscriptionId)).currentPeriodEnd?.getTime()).toBe(
        started.data[0]!.current_period_end * 1000,
      );
      const t = Math.floor(Date.now() / 1000);
      const older = subscriptionObject(subscriptionId, { status: "active", cancelAtPeriodEnd: false, periodEnd: t + 30 * 86400 });
      const newer = subscriptionObject(subscriptionId, { status: "active", cancelAtPeriodEnd: true, periodEnd: t + 31 * 86400 });
      atStripe(newer);
      expect((await send("customer.subscription.updated", newer, { created: t + 20 })).body.outcome).toBe("applied");
      // The older snapshot, delivered late, re-reads Stripe: the row stays as Stripe has it.
      expect((await send("customer.subscription.updated", older, { created: t + 10 })).status).toBe(200);
      const row = await subscriptionRow(subscriptionId);
      expect(row).toMatchObject({ status: "active", cancelAtPeriodEnd: true });
      expect(row.currentPeriodEnd?.getTime()).toBe((t + 31 * 86400) * 1000);
      const latest = subscriptionObject(subscriptionId, {
        status: "past_due",
        cancelAtPeriodEnd: false,
        periodEnd: t + 31 * 86400,
      });
      atStripe(latest);
      expect((await send("customer.subscription.updated", latest, { created: t + 30 })).body.outcome).toBe("applied");
      expect(await subscriptionRow(subscriptionId)).toMatchObject({ status: "past_due", cancelAtPeriodEnd: false });
      const reads = stripe.requests.filter((r) => r.method === "GET" && r.path === `/v1/subscriptions/${subscriptionId}`);
      expect(reads.length).toBeGreaterThanOrEqual(3);
    });

    it("two events of the same second converge on Stripe's state, in either delivery order", async () => {
      const { buyer, result, session } = await paidSession({ kind: "app", appId: APP_ID, tab: "monthly" });
      await send("checkout.session.completed", session);
      const plan = await paidPlan();
      const subscriptionId = String(session.subscription);
      const t = Math.floor(Date.now() / 1000);
      const state = (id: string, status: string) =>
        subscriptionObject(id, { status, cancelAtPeriodEnd: false, periodEnd: t + 30 * 86400 });
      // Stripe: the renewal failed (past_due), the retry was paid (active), both in second t; then a
      // later failure leaves it past_due. The events arrive active first, then past_due, one second.
      atStripe(state(subscriptionId, "past_due"));
      atStripe(state(plan.subscriptionId, "past_due"));
      for (const id of [subscriptionId, plan.subscriptionId]) {
        await send("customer.subscription.updated", state(id, "past_due"), { created: t });
        await send("customer.subscription.updated", state(id, "active"), { created: t });
      }
      expect(await order(result.orderId)).toMatchObject({ status: "paid", subscriptionStatus: "past_due" });
      expect(await hasActiveSubscription(database.db, buyer.id)).toBe(false);
      expect(await subscriptionRow(plan.subscriptionId)).toMatchObject({ status: "past_due" });

      // Paid again: Stripe says active; the past_due snapshot of that second, delivered last, does not undo it.
      atStripe(state(subscriptionId, "active"));
      atStripe(state(plan.subscriptionId, "active"));
      for (const id of [subscriptionId, plan.subscriptionId]) {
        await send("customer.subscription.updated", state(id, "active"), { created: t + 1 });
        await send("customer.subscription.updated", state(id, "past_due"), { created: t + 1 });
      }
      expect(await order(result.orderId)).toMatchObject({ status: "paid", subscriptionStatus: "active" });
      // Past its free trial, the active app pays for the dashboard.
      const afterTrial = new Date(Date.now() + 3 * 86_400_000 + 60_000);
      expect(await hasActiveSubscription(database.db, buyer.id, afterTrial)).toBe(true);
      expect(await subscriptionRow(plan.subscriptionId)).toMatchObject({ status: "active" });
    });

    it("a monthly app whose subscription falls past due or unpaid stops granting access; paid again, it grants it again", async () => {
      const { buyer, result, session } = await paidSession({ kind: "app", appId: APP_ID, tab: "monthly" });
      await send("checkout.session.completed", session);
      const subscriptionId = String(session.subscription);
      // In its 3-day free trial the app is the customer's, but it pays for no dashboard yet (ADR
      // "what pays for the dashboard"); once the trial is over and Stripe charges, it does.
      expect(await hasActiveSubscription(database.db, buyer.id)).toBe(false);
      const afterTrial = new Date(Date.now() + 3 * 86_400_000 + 60_000);
      expect(await hasActiveSubscription(database.db, buyer.id, afterTrial)).toBe(true);
      const t = Math.floor(Date.now() / 1000);
      const state = (status: string) =>
        subscriptionObject(subscriptionId, { status, cancelAtPeriodEnd: false, periodEnd: t + 30 * 86400 });
      atStripe(state("past_due"));
      expect((await send("customer.subscription.updated", state("past_due"), { created: t + 10 })).body.outcome).toBe("applied");
      expect(await order(result.orderId)).toMatchObject({ status: "paid", subscriptionStatus: "past_due" });
      expect(await hasActiveSubscription(database.db, buyer.id, afterTrial)).toBe(false);
      // An older 'active' snapshot delivered late does not restore it: Stripe still says past_due.
      await send("customer.subscription.updated", state("active"), { created: t + 5 });
      expect(await hasActiveSubscription(database.db, buyer.id, afterTrial)).toBe(false);
      atStripe(state("unpaid"));
      expect((await send("customer.subscription.updated", state("unpaid"), { created: t + 20 })).body.outcome).toBe("applied");
      expect(await hasActiveSubscription(database.db, buyer.id, afterTrial)).toBe(false);
      // The customer pays: Stripe reports the subscription active again.
      atStripe(state("active"));
      expect((await send("customer.subscription.updated", state("active"), { created: t + 30 })).body.outcome).toBe("applied");
      expect(await order(result.orderId)).toMatchObject({ status: "paid", subscriptionStatus: "active" });
      expect(await hasActiveSubscription(database.db, buyer.id, afterTrial)).toBe(true);
    });

    it("deleted cancels the subscription and its order; an updated snapshot delivered later does not revive it", async () => {
      const { buyer, result, subscriptionId } = await paidPlan();
      const t = Math.floor(Date.now() / 1000);
      const state = subscriptionObject(subscriptionId, { status: "canceled", cancelAtPeriodEnd: false, periodEnd: t });
      atStripe(state);
      expect((await send("customer.subscription.deleted", state, { created: t + 50 })).body.outcome).toBe("applied");
      const revive = subscriptionObject(subscriptionId, {
        status: "active",
        cancelAtPeriodEnd: false,
        periodEnd: t + 86400 * 30,
      });
      await send("customer.subscription.updated", revive, { created: t + 40 });
      // Even a stand-in Stripe answering 'active' again cannot revive a canceled row: 'canceled' is terminal.
      atStripe(revive);
      expect((await send("customer.subscription.updated", revive, { created: t + 60 })).body.outcome).toBe("ignored");
      expect(await subscriptionRow(subscriptionId)).toMatchObject({ status: "canceled" });
      expect((await order(result.orderId)).status).toBe("canceled");
      const active = await database.db
        .select()
        .from(userSubscriptions)
        .where(and(eq(userSubscriptions.userId, buyer.id), eq(userSubscriptions.status, "active")));
      expect(active).toEqual([]);
    });

    it("invoice.paid: the first invoice is not counted twice; each renewal is recorded once", async () => {
      const { buyer, result, session, subscriptionId } = await paidPlan();
      const invoice = (id: string, reason: string) => ({
        id,
        object: "invoice",
        billing_reason: reason,
        amount_paid: 9900,
        currency: "usd",
        customer: session.customer,
        parent: { type: "subscription_details", subscription_details: { subscription: subscriptionId, metadata: {} } },
      });
      expect((await send("invoice.paid", invoice(String(session.invoice), "subscription_create"))).body.outcome).toBe("ignored");
      expect(await payments(buyer.id)).toHaveLength(1);
      const renewal = invoice("in_renewal_1", "subscription_cycle");
      expect((await send("invoice.paid", renewal)).body.outcome).toBe("applied");
      // Stripe may send the same invoice in another event (a new event id): still one payment.
      expect((await send("invoice.paid", renewal)).body.outcome).toBe("ignored");
      expect(await payments(buyer.id)).toMatchObject([
        { providerRef: session.invoice, amount: 9900, orderId: result.orderId },
        { providerRef: "in_renewal_1", amount: 9900, orderId: result.orderId },
      ]);
    });
  });

  describe("refunds", () => {
    it("charge.refunded records the refund once and reverses the affiliate's commission", async () => {
      const affiliate = await newUser();
      await database.db.insert(affiliates).values({ userId: affiliate.id, username: "wh-affiliate" });
      const { buyer, session } = await paidSession({ kind: "app", appId: APP_ID, tab: "base" });
      await database.db.insert(referrals).values({ referredUserId: buyer.id, affiliateUserId: affiliate.id });
      await send("checkout.session.completed", session);
      const [payment] = await payments(buyer.id);
      const chargeId = "ch_refund_1";
      stripe.refunds.set(chargeId, [
        { id: "re_partial_1", object: "refund", amount: 1000, currency: "usd", status: "succeeded", charge: chargeId },
      ]);
      const charge = {
        id: chargeId,
        object: "charge",
        amount: payment!.amount,
        amount_refunded: 1000,
        currency: "usd",
        customer: session.customer,
        payment_intent: session.payment_intent,
        refunded: false,
      };
      expect((await send("charge.refunded", charge)).body.outcome).toBe("applied");
      // A second refund of the same charge: the event lists both; the first is not recorded again.
      stripe.refunds.get(chargeId)!.push({
        id: "re_rest_2",
        object: "refund",
        amount: payment!.amount - 1000,
        currency: "usd",
        status: "succeeded",
        charge: chargeId,
      });
      expect((await send("charge.refunded", { ...charge, amount_refunded: payment!.amount, refunded: true })).status).toBe(200);
      const rows = await payments(buyer.id);
      expect(rows.map((r) => [r.kind, r.providerRef, r.amount])).toEqual([
        ["payment", session.payment_intent, payment!.amount],
        ["refund", "re_partial_1", 1000],
        ["refund", "re_rest_2", payment!.amount - 1000],
      ]);
      const commissions = await database.db
        .select()
        .from(commissionLedger)
        .where(eq(commissionLedger.referredUserId, buyer.id))
        .orderBy(commissionLedger.id);
      expect(commissions.reduce((sum, c) => sum + c.amount, 0)).toBe(0);
      expect(commissions.map((c) => c.kind)).toEqual(["commission", "reversal", "reversal"]);
    });

    it("a refund of a subscription invoice finds its order through the invoice payment", async () => {
      const { buyer, result, session } = await paidSession({ kind: "plan", planType: "basic" });
      await send("checkout.session.completed", session);
      stripe.invoiceOfPaymentIntent.set("pi_sub_1", String(session.invoice));
      stripe.refunds.set("ch_sub_1", [
        { id: "re_sub_1", object: "refund", amount: 9900, currency: "usd", status: "succeeded", charge: "ch_sub_1" },
      ]);
      await send("charge.refunded", {
        id: "ch_sub_1",
        object: "charge",
        amount: 9900,
        amount_refunded: 9900,
        currency: "usd",
        customer: session.customer,
        payment_intent: "pi_sub_1",
        refunded: true,
      });
      expect((await payments(buyer.id)).at(-1)).toMatchObject({
        kind: "refund",
        providerRef: "re_sub_1",
        orderId: result.orderId,
      });
    });
  });

  describe("database failure: nothing half-written, Stripe's retry succeeds", () => {
    it("a failure mid-fulfilment answers 500 and leaves nothing; Stripe's retry succeeds", async () => {
      const { buyer, result, session } = await paidSession({ kind: "app", appId: APP_ID, tab: "express" });
      // Fails the payment insert: after the ledger row and the order update in the same transaction.
      await database.db.execute(sql`
        create or replace function fail_payment_insert() returns trigger language plpgsql as $$
        begin raise exception 'simulated database failure'; end $$`);
      await database.db.execute(
        sql`create trigger fail_payment_insert before insert on payment_events for each row execute function fail_payment_insert()`,
      );
      const event = signedEvent(SECRET, { type: "checkout.session.completed", object: session });
      try {
        const res = await deliver(webhookRequest(event.body, event.signature));
        expect(res).toEqual({ status: 500, body: { error: "Webhook processing failed" } });
        expect(await ledger(event.id)).toEqual([]);
        expect((await order(result.orderId)).status).toBe("pending");
        expect(await database.db.select().from(billingCustomers).where(eq(billingCustomers.userId, buyer.id))).toEqual([]);
      } finally {
        await database.db.execute(sql`drop trigger if exists fail_payment_insert on payment_events`);
      }
      const retry = await deliver(webhookRequest(event.body, event.signature));
      expect(retry).toEqual({ status: 200, body: { received: true, outcome: "applied" } });
      expect(await ledger(event.id)).toHaveLength(1);
      expect((await order(result.orderId)).status).toBe("paid");
      expect(await payments(buyer.id)).toHaveLength(1);
    });

    it("a Stripe API outage while re-reading the session answers 500 too", async () => {
      const { result, session } = await paidSession({ kind: "app", appId: APP_ID, tab: "base" });
      stripe.failNext(3, `/v1/checkout/sessions/${session.id}`);
      const event = signedEvent(SECRET, { type: "checkout.session.completed", object: session });
      expect((await deliver(webhookRequest(event.body, event.signature))).status).toBe(500);
      expect(await ledger(event.id)).toEqual([]);
      expect((await deliver(webhookRequest(event.body, event.signature))).status).toBe(200);
      expect((await order(result.orderId)).status).toBe("paid");
    });
  });

  it("a new plan cancels the replaced Stripe subscription (prorated) after the commit; a failed cancel is retried", async () => {
    const buyer = await newUser();
    const first = await createCheckout(database.db, buyer, { kind: "plan", planType: "basic" });
    const firstSession = stripe.pay(first.sessionId);
    await send("checkout.session.completed", firstSession);
    const oldSubscription = String(firstSession.subscription);

    const second = await createCheckout(database.db, buyer, { kind: "scaling", tierIndex: 2 });
    const secondSession = stripe.pay(second.sessionId);
    const deletesBefore = stripe.requests.filter((r) => r.method === "DELETE").length;
    expect((await send("checkout.session.completed", secondSession)).status).toBe(200);
    // A job the fulfilling transaction enqueued cancels it.
    await whenSubscriptionRow(oldSubscription, "canceled");
    const deletes = stripe.requests.filter((r) => r.method === "DELETE").slice(deletesBefore);
    expect(deletes.map((r) => r.path)).toEqual([`/v1/subscriptions/${oldSubscription}`]);
    expect({ ...deletes[0]!.body, ...Object.fromEntries(deletes[0]!.query) }).toMatchObject({ prorate: "true" });
    expect(deletes[0]!.headers["idempotency-key"]).toMatch(/^follow-up-cancel-replaced-/);
    expect(stripe.subscriptions.get(oldSubscription)?.status).toBe("canceled");
    expect(await subscriptionRow(oldSubscription)).toMatchObject({ status: "canceled" });
    expect(await subscriptionRow(String(secondSession.subscription))).toMatchObject({ status: "active", reachLimit: 100_000 });

    // Stripe down while cancelling: the row stays 'replaced' and pg-boss retries the job.
    const third = await createCheckout(database.db, buyer, { kind: "plan", planType: "pro" });
    const thirdSession = stripe.pay(third.sessionId);
    const replaced = String(secondSession.subscription);
    const replacedRow = await subscriptionRow(replaced);
    // One attempt is three requests (the SDK retries a 500 twice): the first attempt fails.
    stripe.failNext(3);
    const deletesAtFailure = stripe.requests.filter((r) => r.method === "DELETE").length;
    expect(await fulfilPaid(third.orderId, thirdSession)).toBeTruthy();
    await waitFor(
      () => followUpJobs("cancel-replaced", replacedRow.id),
      (jobs) => jobs[0]?.state === "retry" || jobs[0]?.state === "completed",
      20_000,
    );
    expect(await subscriptionRow(replaced)).toMatchObject({ status: "replaced" });
    await whenSubscriptionRow(replaced, "canceled");
    expect(stripe.subscriptions.get(replaced)?.status).toBe("canceled");
    expect(stripe.requests.filter((r) => r.method === "DELETE").length - deletesAtFailure).toBe(4);
    expect(await followUpJobs("cancel-replaced", replacedRow.id)).toEqual([{ state: "completed", retryCount: 1 }]);
    // Already cancelled at Stripe (resource_missing) counts as done.
    await database.db
      .update(userSubscriptions)
      .set({ status: "replaced" })
      .where(eq(userSubscriptions.providerSubscriptionId, replaced));
    expect(await cancelReplacedSubscription(database.db, stripeClient(), replacedRow.id)).toBe("done");
    expect(await subscriptionRow(replaced)).toMatchObject({ status: "canceled" });
  });

  it("a rolled-back fulfilment leaves no follow-up job and changes nothing at Stripe", async () => {
    const buyer = await newUser();
    const first = await createCheckout(database.db, buyer, { kind: "plan", planType: "basic" });
    const firstSession = stripe.pay(first.sessionId);
    await send("checkout.session.completed", firstSession);
    const kept = String(firstSession.subscription);
    const keptRow = await subscriptionRow(kept);
    const second = await createCheckout(database.db, buyer, { kind: "plan", planType: "pro" });
    const secondSession = stripe.pay(second.sessionId);
    const pending = await order(second.orderId);
    await expect(
      database.db.transaction(async (tx) => {
        expect(await fulfilCheckedSession(tx as unknown as Db, pending, secondSession as never)).toBeTruthy();
        throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
    expect(await followUpJobs("cancel-replaced", keptRow.id)).toEqual([]);
    expect(await order(second.orderId)).toMatchObject({ status: "pending" });
    // Nor does the sweep, which re-sends the follow-ups the database still owes, find one to send.
    await sweepStripeFollowUps();
    expect(await followUpJobs("cancel-replaced", keptRow.id)).toEqual([]);
    expect(await subscriptionRow(kept)).toMatchObject({ status: "active" });
    expect(stripe.subscriptions.get(kept)?.status).not.toBe("canceled");
  });

  describe("one free trial per item and account, with two checkouts opened side by side", () => {
    const monthly = { kind: "app", appId: APP_ID, tab: "monthly" } as const;

    it("the second paid is recorded without its trial and its Stripe trial is ended after the commit", async () => {
      const app = (await getApp(database.db, APP_ID))!;
      const buyer = await newUser();
      // Both sessions were created before any trial was paid, so both carry trial_period_days.
      const first = await createCheckout(database.db, buyer, monthly);
      const second = await createCheckout(database.db, buyer, monthly);
      const otherApp = await createCheckout(database.db, buyer, { kind: "app", appId: 1, tab: "monthly" });
      const someoneElse = await createCheckout(database.db, await newUser(), monthly);

      const firstSession = stripe.pay(first.sessionId);
      expect((await send("checkout.session.completed", firstSession)).body.outcome).toBe("applied");
      const firstSubscription = String(firstSession.subscription);
      // Cancelled in the portal during its trial.
      stripe.subscriptions.get(firstSubscription)!.status = "canceled";
      expect(
        (await send("customer.subscription.deleted", { ...stripe.subscriptions.get(firstSubscription)! })).body.outcome,
      ).toBe("applied");

      const secondSession = stripe.pay(second.sessionId);
      expect(secondSession).toMatchObject({ amount_total: 0, payment_status: "no_payment_required" });
      const before = stripe.requests.length;
      expect((await send("checkout.session.completed", secondSession)).body.outcome).toBe("applied");
      const secondSubscription = String(secondSession.subscription);
      expect(await order(second.orderId)).toMatchObject({
        status: "paid",
        trialDays: 0,
        providerSubscriptionId: secondSubscription,
      });
      expect(await order(first.orderId)).toMatchObject({ status: "canceled", trialDays: 3 });
      await waitFor(
        () => followUpJobs("end-dropped-trial", second.orderId),
        (jobs) => jobs[0]?.state === "completed",
      );
      const calls = subscriptionCalls(before);
      expect(calls.map((r) => `${r.method} ${r.path}`)).toEqual([
        `GET /v1/subscriptions/${secondSubscription}`,
        `POST /v1/subscriptions/${secondSubscription}`,
      ]);
      expect(calls[1]!.body).toEqual({ trial_end: "now" });
      expect(stripe.subscriptions.get(secondSubscription)?.status).toBe("active");

      // Stripe charges the first month on the invoice that ends the trial; once it is recorded the
      // order is settled and no later run asks Stripe about it again.
      const invoice = {
        id: `in_trial_end_${second.orderId}`,
        object: "invoice",
        billing_reason: "subscription_update",
        amount_paid: quoteApp(app, "monthly").amount,
        currency: "usd",
        customer: secondSession.customer,
        parent: { type: "subscription_details", subscription_details: { subscription: secondSubscription, metadata: {} } },
      };
      const beforeInvoice = stripe.requests.length;
      expect((await send("invoice.paid", invoice)).body.outcome).toBe("applied");
      expect(await payments(buyer.id)).toMatchObject([{ orderId: second.orderId, amount: quoteApp(app, "monthly").amount }]);
      expect(await endDroppedTrial(database.db, stripeClient(), second.orderId)).toBe("not-needed");
      expect(subscriptionCalls(beforeInvoice)).toEqual([]);
      // Another paying event of the same session (its trial amount) is no mismatch: it changes nothing.
      expect((await send("checkout.session.async_payment_succeeded", secondSession)).body.outcome).toBe("applied");
      expect(await order(second.orderId)).toMatchObject({ status: "paid", trialDays: 0 });

      // Another app of the same account and the same app of another account keep their trial.
      for (const other of [otherApp, someoneElse]) {
        const session = stripe.pay(other.sessionId);
        const from = stripe.requests.length;
        expect((await send("checkout.session.completed", session)).body.outcome).toBe("applied");
        expect(await order(other.orderId)).toMatchObject({ status: "paid", trialDays: 3 });
        expect(stripe.subscriptions.get(String(session.subscription))?.status).toBe("trialing");
        expect(await followUpJobs("end-dropped-trial", other.orderId)).toEqual([]);
        expect(subscriptionCalls(from)).toEqual([]);
      }
    });

    it("a failed end of the trial is retried by its job; an ended trial is not ended twice", async () => {
      const buyer = await newUser();
      const first = await createCheckout(database.db, buyer, monthly);
      const second = await createCheckout(database.db, buyer, monthly);
      await send("checkout.session.completed", stripe.pay(first.sessionId));
      const secondSession = stripe.pay(second.sessionId);
      const subscriptionId = String(secondSession.subscription);
      // Stripe down after the commit: the job's first attempt fails (three requests with the SDK's retries).
      stripe.failNext(3);
      const from = stripe.requests.length;
      expect(await fulfilPaid(second.orderId, secondSession)).toMatchObject({ status: "paid", trialDays: 0 });
      await waitFor(
        () => followUpJobs("end-dropped-trial", second.orderId),
        (jobs) => jobs[0]?.state === "completed",
      );
      expect(await followUpJobs("end-dropped-trial", second.orderId)).toEqual([{ state: "completed", retryCount: 1 }]);
      expect(stripe.subscriptions.get(subscriptionId)?.status).toBe("active");
      expect(subscriptionCalls(from).map((r) => r.method)).toEqual(["GET", "GET", "GET", "GET", "POST"]);

      // Until the invoice that ends the trial is paid the order still looks unsettled; Stripe's
      // subscription is read again, but only a running trial is ended.
      const again = stripe.requests.length;
      expect(await endDroppedTrial(database.db, stripeClient(), second.orderId)).toBe("not-needed");
      expect(subscriptionCalls(again).map((r) => r.method)).toEqual(["GET"]);
    });

    it("fulfilled while the queue was down: the sweep at the next start ends it; sweeps at once enqueue it once", async () => {
      const buyer = await newUser();
      const first = await createCheckout(database.db, buyer, monthly);
      const second = await createCheckout(database.db, buyer, monthly);
      await send("checkout.session.completed", stripe.pay(first.sessionId));
      const secondSession = stripe.pay(second.sessionId);
      const subscriptionId = String(secondSession.subscription);
      await stopJobs();
      try {
        // Fulfilled by the return page's re-sync in a process without the queue: no job.
        expect(await syncCheckoutSession(database.db, stripeClient(), await order(second.orderId))).toBe("fulfilled");
        expect(await followUpJobs("end-dropped-trial", second.orderId)).toEqual([]);
        expect(stripe.subscriptions.get(subscriptionId)?.status).toBe("trialing");
      } finally {
        await startJobs(database, JOBS);
      }
      await waitFor(
        () => followUpJobs("end-dropped-trial", second.orderId),
        (jobs) => jobs[0]?.state === "completed",
      );
      expect(stripe.subscriptions.get(subscriptionId)?.status).toBe("active");

      // Its first invoice is not paid yet, so every sweep still finds it; two at once (two
      // processes) enqueue one job for it: the job is keyed by the order.
      await Promise.all([sweepStripeFollowUps(), sweepStripeFollowUps()]);
      expect(await followUpJobs("end-dropped-trial", second.orderId)).toHaveLength(2);
    });
  });

  it("GET is 405; unknown event types are acknowledged and recorded", async () => {
    const get = webhookLoader() as unknown as { init?: { status?: number } | null };
    expect(get.init?.status).toBe(405);
    const event = signedEvent(SECRET, { type: "customer.created", object: { id: "cus_x", object: "customer" } });
    expect((await deliver(webhookRequest(event.body, event.signature))).body).toEqual({ received: true, outcome: "ignored" });
    expect(await ledger(event.id)).toHaveLength(1);
  });
});
