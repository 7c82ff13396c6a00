import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { action as webhookAction } from "~/routes/api/webhooks.stripe";
import { createCheckout } from "~/server/billing/create-checkout.server";
import { getEntitlements } from "~/server/billing/entitlements.server";
import type { Stripe } from "stripe";
import { findStripeFollowUps } from "~/server/billing/stripe/follow-ups.server";
import { applyChargeRefunds } from "~/server/billing/stripe/refund-events.server";
import { seedCatalogue } from "~/server/catalogue/seed.server";
import { type Db, queryRows, setDatabase } from "~/server/db/client.server";
import { userSubscriptions } from "~/server/db/schema";
import { type JobsOptions, STRIPE_FOLLOW_UP_QUEUE, startJobs, stopJobs } from "~/server/jobs/queue.server";
import { engine, freshDatabase, orderById, userMaker } from "./support/db";
import { signedEvent, startFakeStripeForApp, webhookRequest, type FakeStripe } from "../support/fake-stripe";
import { waitFor } from "./support/wait";

/**
 * A subscription whose money went back to the buyer (a lost dispute, or refunds covering all it was
 * paid) ends here at once and is cancelled at Stripe by a follow-up job its transaction enqueued, so
 * the buyer is not charged again; a repeated event, Stripe's own deleted event and the sweep change
 * nothing more.
 */
const SECRET = "whsec_ended_subscriptions_secret";

/** Second-long retries, so the retried cancel is seen soon. */
const JOBS: JobsOptions = {
  stripeFollowUp: { retryLimit: 3, retryDelay: 1, retryBackoff: true, retryDelayMax: 1, expireInSeconds: 30 },
  pollingIntervalSeconds: 0.5,
  schedules: false,
  stopTimeoutMs: 10_000,
};

const send = async (type: string, object: unknown) => {
  const event = signedEvent(SECRET, { type, object });
  const result = (await webhookAction({ request: webhookRequest(event.body, event.signature) })) as {
    data: Record<string, unknown>;
    init?: { status?: number } | null;
  };
  return { status: result.init?.status ?? 200, outcome: result.data.outcome };
};

describe(`stripe subscriptions of ended orders (${engine})`, () => {
  let database: Awaited<ReturnType<typeof freshDatabase>>;
  let stripe: FakeStripe;
  let n = 0;
  const newUser = userMaker(() => database.db, "ended");

  beforeAll(async () => {
    stripe = await startFakeStripeForApp(SECRET);
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

  /** A paid Stripe subscription, and the charge of its first invoice at Stripe. */
  const paidSubscription = async (req: Parameters<typeof createCheckout>[2]) => {
    n += 1;
    const buyer = await newUser();
    const checkout = await createCheckout(database.db, buyer, req);
    const session = stripe.pay(checkout.sessionId);
    expect((await send("checkout.session.completed", session)).outcome).toBe("applied");
    const order = await orderById(database.db, checkout.orderId);
    const paymentIntent = `pi_ended_${n}`;
    const chargeId = `ch_ended_${n}`;
    stripe.invoiceOfPaymentIntent.set(paymentIntent, String(session.invoice));
    stripe.charges.set(chargeId, {
      id: chargeId,
      object: "charge",
      amount: order.amount,
      amount_refunded: 0,
      currency: "usd",
      customer: session.customer,
      payment_intent: paymentIntent,
    });
    return { buyer, order, session, subscriptionId: String(session.subscription), paymentIntent, chargeId };
  };
  const deletesOf = (subscriptionId: string) =>
    stripe.requests.filter((r) => r.method === "DELETE" && r.path === `/v1/subscriptions/${subscriptionId}`);
  const followUpJobs = (orderId: string) =>
    queryRows<{ state: string; retryCount: number }>(
      database.db,
      sql`select state::text as state, retry_count as "retryCount" from pgboss.job
          where name = ${STRIPE_FOLLOW_UP_QUEUE} and data->>'kind' = 'cancel-ended' and data->>'id' = ${orderId}
          order by created_on`,
    );
  const whenCancelled = (orderId: string) =>
    waitFor(
      () => followUpJobs(orderId),
      (jobs) => jobs.length > 0 && jobs.every((j) => j.state === "completed"),
    );
  const planRow = async (subscriptionId: string) =>
    (await database.db.select().from(userSubscriptions).where(eq(userSubscriptions.providerSubscriptionId, subscriptionId)))[0]!;

  it("a plan whose dispute is lost ends at once and is cancelled at Stripe, once", async () => {
    const { buyer, order, subscriptionId, paymentIntent, chargeId } = await paidSubscription({
      kind: "plan",
      planType: "basic",
    });
    expect((await getEntitlements(database.db, buyer.id)).plan).toMatchObject({ itemId: "basic" });
    const dispute = {
      id: `dp_ended_${n}`,
      object: "dispute",
      amount: order.amount,
      currency: "usd",
      charge: chargeId,
      payment_intent: paymentIntent,
      reason: "fraudulent",
      status: "lost",
    };
    stripe.disputes.set(dispute.id, { ...dispute });

    expect(await send("charge.dispute.closed", dispute)).toEqual({ status: 200, outcome: "applied" });
    // The plan ends with the order, before Stripe is called.
    expect((await orderById(database.db, order.id)).status).toBe("refunded");
    expect(await planRow(subscriptionId)).toMatchObject({ status: "canceled" });
    expect(await getEntitlements(database.db, buyer.id)).toMatchObject({ plan: null, paying: false });

    await whenCancelled(order.id);
    expect(stripe.subscriptions.get(subscriptionId)?.status).toBe("canceled");
    const deletes = deletesOf(subscriptionId);
    expect(deletes).toHaveLength(1);
    expect(deletes[0]!.headers["idempotency-key"]).toMatch(/^follow-up-cancel-ended-/);
    // Cancelled at once: no proration credit beyond the money already returned.
    expect(deletes[0]!.body).not.toHaveProperty("prorate");
    expect(await orderById(database.db, order.id)).toMatchObject({ status: "refunded", subscriptionStatus: "canceled" });

    // The dispute's event again, then Stripe's own deleted event: nothing more is cancelled or reopened.
    expect((await send("charge.dispute.closed", dispute)).outcome).toBe("ignored");
    expect(
      await send("customer.subscription.deleted", { ...stripe.subscriptions.get(subscriptionId), status: "canceled" }),
    ).toMatchObject({ status: 200 });
    expect(await orderById(database.db, order.id)).toMatchObject({ status: "refunded", subscriptionStatus: "canceled" });
    expect(await planRow(subscriptionId)).toMatchObject({ status: "canceled" });
    expect(deletesOf(subscriptionId)).toHaveLength(1);
    expect((await findStripeFollowUps(database.db)).filter((f) => f.id === order.id)).toEqual([]);
  });

  it("a scaling tier wholly refunded is cancelled at Stripe; a Stripe outage is retried", async () => {
    const { buyer, order, session, subscriptionId, paymentIntent, chargeId } = await paidSubscription({
      kind: "scaling",
      tierIndex: 2,
    });
    expect((await getEntitlements(database.db, buyer.id)).scalingTier).not.toBeNull();

    // A partial refund leaves the tier and its subscription running.
    const refund = (id: string, amount: number) => ({
      id,
      object: "refund",
      amount,
      currency: "usd",
      status: "succeeded",
      charge: chargeId,
    });
    const refunded = async (refunds: ReturnType<typeof refund>[]) => {
      stripe.refunds.set(chargeId, refunds);
      const total = refunds.reduce((sum, r) => sum + r.amount, 0);
      return send("charge.refunded", {
        id: chargeId,
        object: "charge",
        amount: order.amount,
        amount_refunded: total,
        currency: "usd",
        customer: session.customer,
        payment_intent: paymentIntent,
        refunded: total >= order.amount,
      });
    };
    expect((await refunded([refund(`re_ended_${n}_a`, 1000)])).outcome).toBe("applied");
    expect(await planRow(subscriptionId)).toMatchObject({ status: "active" });
    expect(await followUpJobs(order.id)).toEqual([]);

    // The rest, applied as the webhook applies it (without asking Stripe), while Stripe is down for
    // the job's first attempt (three requests: the SDK retries a 500 twice).
    stripe.failNext(3);
    const rest = [refund(`re_ended_${n}_a`, 1000), refund(`re_ended_${n}_b`, order.amount - 1000)] as Stripe.Refund[];
    expect(
      await database.db.transaction((tx) =>
        applyChargeRefunds(tx as unknown as Db, { userId: buyer.id, orderId: order.id }, rest),
      ),
    ).toBe(true);
    expect(await planRow(subscriptionId)).toMatchObject({ status: "canceled" });
    expect((await getEntitlements(database.db, buyer.id)).scalingTier).toBeNull();
    await whenCancelled(order.id);
    expect(await followUpJobs(order.id)).toEqual([{ state: "completed", retryCount: 1 }]);
    expect(stripe.subscriptions.get(subscriptionId)?.status).toBe("canceled");
    expect(deletesOf(subscriptionId)).toHaveLength(1);
    expect(await orderById(database.db, order.id)).toMatchObject({ status: "refunded", subscriptionStatus: "canceled" });
  });

  it("a subscription the operator already cancelled at Stripe is not cancelled again", async () => {
    const { order, session, subscriptionId, paymentIntent, chargeId } = await paidSubscription({
      kind: "plan",
      planType: "pro",
    });
    stripe.subscriptions.get(subscriptionId)!.status = "canceled";
    stripe.refunds.set(chargeId, [
      { id: `re_ended_${n}`, object: "refund", amount: order.amount, currency: "usd", status: "succeeded", charge: chargeId },
    ]);
    await send("charge.refunded", {
      id: chargeId,
      object: "charge",
      amount: order.amount,
      amount_refunded: order.amount,
      currency: "usd",
      customer: session.customer,
      payment_intent: paymentIntent,
      refunded: true,
    });
    await whenCancelled(order.id);
    expect(deletesOf(subscriptionId)).toEqual([]);
    expect(await orderById(database.db, order.id)).toMatchObject({ status: "refunded", subscriptionStatus: "canceled" });
  });
});
