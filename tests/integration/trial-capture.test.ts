import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { quoteApp } from "~/catalogue/pricing";
import { action as billingAction, loader as billingLoader } from "~/routes/_dashboard/billing";
import { action as localCheckoutAction, loader as localCheckoutLoader } from "~/routes/checkout.local";
import { action as webhookAction } from "~/routes/api/webhooks.stripe";
import { initAuth, resetAuth, type Auth } from "~/server/auth/auth.server";
import { captureTrial } from "~/server/billing/capture-trial.server";
import { createCheckout } from "~/server/billing/create-checkout.server";
import { listPurchasedAutomations } from "~/server/billing/list-orders.server";
import { localProvider, setCheckoutProvider } from "~/server/billing/provider.server";
import { getApp } from "~/server/catalogue/apps.server";
import { seedCatalogue } from "~/server/catalogue/seed.server";
import { queryRows, setDatabase } from "~/server/db/client.server";
import { affiliates, commissionLedger, orders, paymentEvents, referrals } from "~/server/db/schema";
import { type JobsOptions, startJobs, stopJobs, TRIAL_CAPTURE_QUEUE } from "~/server/jobs/queue.server";
import { engine, freshDatabase, orderById, signedInCustomerMaker, userMaker } from "./support/db";
import { signedEvent, startFakeStripeForApp, webhookRequest, type FakeStripe } from "../support/fake-stripe";
import { routeAnswer, routeArgs } from "./support/route";
import { waitFor } from "./support/wait";

process.env.LOG_LEVEL ??= "error";

/**
 * A one-time build's 3-day free trial: the card is authorised at checkout, nothing is charged or
 * granted, and the trial-capture job charges it when the trial ends (or the customer cancels first
 * and the authorisation is voided). On the local provider and on Stripe (a local stand-in).
 */
const SITE = "http://localhost:3000";
const SECRET = "whsec_trial_capture_secret";
const APP_ID = 7;
const DAY = 86_400_000;

const FAST: JobsOptions = {
  trialCapture: { retryLimit: 5, retryDelay: 1, retryBackoff: true, retryDelayMax: 1, expireInSeconds: 30 },
  pollingIntervalSeconds: 0.5,
  schedules: false,
  sweepMinAgeMs: 0,
  stopTimeoutMs: 10_000,
};

const get = (path: string, cookie: string) => new Request(`${SITE}${path}`, { headers: { cookie } });
const postForm = (path: string, cookie: string, fields: Record<string, string>) =>
  new Request(`${SITE}${path}`, {
    method: "POST",
    headers: { cookie, origin: SITE, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields).toString(),
  });
const withParams = (request: Request, params: Record<string, string>) => ({ ...(routeArgs(request) as object), params }) as never;
const deliver = async (type: string, object: unknown) => {
  const event = signedEvent(SECRET, { type, object });
  return routeAnswer(webhookAction({ request: webhookRequest(event.body, event.signature) } as never));
};

describe(`one-time build trial: authorise, then capture (${engine})`, () => {
  let database: Awaited<ReturnType<typeof freshDatabase>>;
  let stripe: FakeStripe;
  let auth: Auth;
  const db = () => database.db;
  const newCustomer = signedInCustomerMaker(() => auth, db, "trial-buyer");
  const newUser = userMaker(db, "trial-user");
  const payments = (orderId: string) => db().select().from(paymentEvents).where(eq(paymentEvents.orderId, orderId));
  const captureJobs = (orderId: string) =>
    queryRows<{ state: string; start_after: Date | string }>(
      db(),
      sql`select state, start_after from pgboss.job where name = ${TRIAL_CAPTURE_QUEUE} and data->>'orderId' = ${orderId}`,
    );
  /** The trial's end, moved to the past: as if three days went by. */
  const endTrial = async (orderId: string) => {
    await db()
      .update(orders)
      .set({ captureAt: sql`now() - interval '1 minute'` })
      .where(eq(orders.id, orderId));
    await db().execute(
      sql`update pgboss.job set start_after = now() - interval '1 minute' where name = ${TRIAL_CAPTURE_QUEUE} and data->>'orderId' = ${orderId}`,
    );
  };

  beforeAll(async () => {
    stripe = await startFakeStripeForApp(SECRET);
    database = await freshDatabase();
    await seedCatalogue(database.db);
    setDatabase(database);
    auth = await initAuth(database.db);
    await startJobs(database, FAST);
  });
  afterAll(async () => {
    await stopJobs();
    setCheckoutProvider(undefined);
    resetAuth();
    setDatabase(undefined);
    await database?.cleanup();
    await stripe?.close();
  });
  beforeEach(async () => {
    setCheckoutProvider(undefined);
    await startJobs(database, FAST);
  });

  /** A signed-in customer who starts the Standard tab's checkout and pays on the local page. */
  const startTrial = async (card = "4242424242424242") => {
    const buyer = await newCustomer();
    const checkout = await createCheckout(db(), buyer, { kind: "app", appId: APP_ID, tab: "standard" });
    const page = await routeAnswer<{ dueToday: number; trialCharge: { amount: number; at: string } | null }>(
      localCheckoutLoader(
        withParams(get(`/checkout/local/${checkout.sessionId}`, buyer.cookie), { sessionId: checkout.sessionId }),
      ),
    );
    const paid = await routeAnswer(
      localCheckoutAction(
        withParams(postForm(`/checkout/local/${checkout.sessionId}`, buyer.cookie, { card, expiry: "12/40", cvc: "123" }), {
          sessionId: checkout.sessionId,
        }),
      ),
    );
    return { buyer, checkout, page, paid };
  };
  /** A buyer's Stripe checkout of the Express tab, held (manual capture) and reported by the webhook. */
  const heldCheckout = async () => {
    const buyer = await newUser();
    const checkout = await createCheckout(db(), buyer, { kind: "app", appId: APP_ID, tab: "express" });
    const session = stripe.pay(checkout.sessionId);
    const answer = await deliver("checkout.session.completed", session);
    expect(answer.status).toBe(200);
    const intentId = String(session.payment_intent);
    return { buyer, checkout, session, intentId };
  };
  const intentCalls = (intentId: string, action: "capture" | "cancel") =>
    stripe.requests.filter((r) => r.method === "POST" && r.path === `/v1/payment_intents/${intentId}/${action}`);

  describe("local provider", () => {
    beforeEach(() => setCheckoutProvider(localProvider));

    it("checkout says $0 today and the charge; paying holds the card: nothing charged, granted or commissioned, the capture job waits 3 days", async () => {
      const app = (await getApp(db(), APP_ID))!;
      const amount = quoteApp(app, "standard").amount;
      const affiliate = await newUser();
      await db().insert(affiliates).values({ userId: affiliate.id, username: "trial-affiliate" });
      const before = Date.now();
      const { buyer, checkout, page, paid } = await startTrial();
      await db().insert(referrals).values({ referredUserId: buyer.id, affiliateUserId: affiliate.id });
      expect(page.body?.dueToday).toBe(0);
      expect(page.body?.trialCharge?.amount).toBe(amount);
      expect(Math.abs(Date.parse(page.body!.trialCharge!.at) - (before + 3 * DAY))).toBeLessThan(60_000);
      expect(paid.status).toBe(302);
      expect(paid.location).toBe(`/payment-success?session_id=${checkout.sessionId}`);

      const order = await orderById(db(), checkout.orderId);
      expect(order.status).toBe("authorized");
      expect(order.paidAt).toBeNull();
      expect(Math.abs(order.captureAt!.getTime() - (before + 3 * DAY))).toBeLessThan(60_000);
      expect(await payments(order.id)).toEqual([]);
      expect(await listPurchasedAutomations(db(), buyer.id)).toEqual([]);
      const jobs = await captureJobs(order.id);
      expect(jobs).toHaveLength(1);
      expect(jobs[0]!.state).toBe("created");
      expect(Math.abs(new Date(jobs[0]!.start_after).getTime() - order.captureAt!.getTime())).toBeLessThan(1000);

      // Billing lists the trial with its charge and a cancel; history says what it is.
      const billing = await routeAnswer<{
        trials: { orderId: string; amount: number; chargeAt: string; cancelable: boolean }[];
        history: { id: string; status: string }[];
      }>(billingLoader(routeArgs(get("/dashboard/billing", buyer.cookie))));
      expect(billing.body?.trials).toEqual([
        {
          orderId: order.id,
          itemName: app.name,
          kind: "app",
          amount,
          chargeAt: order.captureAt!.toISOString(),
          cancelable: true,
        },
      ]);
      expect(billing.body?.history.find((h) => h.id === order.id)?.status).toBe("authorized");

      // Three days later the job captures: paid in full, once, and the affiliate's commission accrues then.
      await endTrial(order.id);
      const captured = await waitFor(
        () => orderById(db(), order.id),
        (o) => o.status === "paid",
      );
      expect(captured.paidAt).not.toBeNull();
      expect((await payments(order.id)).map((p) => [p.kind, p.amount])).toEqual([["payment", amount]]);
      const commission = await db().select().from(commissionLedger).where(eq(commissionLedger.referredUserId, buyer.id));
      expect(commission.map((c) => [c.kind, c.amount])).toEqual([["commission", Math.round(amount * 0.3)]]);
      expect((await listPurchasedAutomations(db(), buyer.id)).map((a) => a.id)).toEqual([order.id]);
      // A second run of the job changes nothing.
      expect(await captureTrial(db(), order.id)).toBe("nothing");
      expect(await payments(order.id)).toHaveLength(1);
    });

    it("cancel during the trial: nothing is charged or granted, the job finds nothing to capture, a second cancel is refused", async () => {
      const { buyer, checkout } = await startTrial();
      const cancel = () =>
        routeAnswer<{ ok: boolean; code?: string }>(
          billingAction(
            routeArgs(postForm("/dashboard/billing", buyer.cookie, { intent: "cancel-trial", orderId: checkout.orderId })),
          ),
        );
      const first = await cancel();
      expect(first.status).toBe(200);
      expect(first.body?.ok).toBe(true);
      expect((await orderById(db(), checkout.orderId)).status).toBe("canceled");
      expect((await cancel()).body).toMatchObject({ ok: false, code: "trial_already_canceled" });

      await endTrial(checkout.orderId);
      await waitFor(
        () => captureJobs(checkout.orderId),
        (jobs) => jobs.every((j) => j.state === "completed"),
      );
      expect((await orderById(db(), checkout.orderId)).status).toBe("canceled");
      expect(await payments(checkout.orderId)).toEqual([]);
      expect(await listPurchasedAutomations(db(), buyer.id)).toEqual([]);
      const billing = await routeAnswer<{ trials: unknown[]; history: { id: string; status: string }[] }>(
        billingLoader(routeArgs(get("/dashboard/billing", buyer.cookie))),
      );
      expect(billing.body?.trials).toEqual([]);
      expect(billing.body?.history.find((h) => h.id === checkout.orderId)?.status).toBe("trial_canceled");
    });

    it("another account cannot cancel the trial, and nobody can once the trial has ended", async () => {
      const { buyer, checkout } = await startTrial();
      const other = await newCustomer();
      const byOther = await routeAnswer(
        billingAction(
          routeArgs(postForm("/dashboard/billing", other.cookie, { intent: "cancel-trial", orderId: checkout.orderId })),
        ),
      );
      expect(byOther.body).toMatchObject({ ok: false, code: "trial_not_found" });
      await stopJobs();
      await endTrial(checkout.orderId);
      const late = await routeAnswer(
        billingAction(
          routeArgs(postForm("/dashboard/billing", buyer.cookie, { intent: "cancel-trial", orderId: checkout.orderId })),
        ),
      );
      expect(late.body).toMatchObject({ ok: false, code: "trial_ended" });
      expect((await orderById(db(), checkout.orderId)).status).toBe("authorized");
    });

    it("a capture that fails grants nothing and records nothing", async () => {
      const { buyer, checkout } = await startTrial("4000000000000341");
      expect((await orderById(db(), checkout.orderId)).status).toBe("authorized");
      await endTrial(checkout.orderId);
      await waitFor(
        () => orderById(db(), checkout.orderId),
        (o) => o.status === "capture_failed",
      );
      expect(await payments(checkout.orderId)).toEqual([]);
      expect(await listPurchasedAutomations(db(), buyer.id)).toEqual([]);
    });

    it("a capture that fell due while the server was down runs when the queue starts again", async () => {
      const { checkout } = await startTrial();
      await stopJobs();
      await endTrial(checkout.orderId);
      // Down: nothing runs.
      await new Promise((r) => setTimeout(r, 1500));
      expect((await orderById(db(), checkout.orderId)).status).toBe("authorized");
      await startJobs(database, FAST);
      await waitFor(
        () => orderById(db(), checkout.orderId),
        (o) => o.status === "paid",
      );
      expect(await payments(checkout.orderId)).toHaveLength(1);
    });

    it("a trial authorised while the queue was not running gets its job from the sweep at start", async () => {
      await stopJobs();
      const { checkout } = await startTrial();
      expect(await captureJobs(checkout.orderId)).toEqual([]);
      await startJobs(database, FAST);
      // The boot sweep is a job of its own: it runs just after the start.
      const jobs = await waitFor(
        () => captureJobs(checkout.orderId),
        (found) => found.length > 0,
      );
      expect(jobs).toHaveLength(1);
      expect(new Date(jobs[0]!.start_after).getTime()).toBe((await orderById(db(), checkout.orderId)).captureAt!.getTime());
    });
  });

  describe("stripe", () => {
    it("the session asks for a manual capture and says $0 today; the completed, unpaid session authorises the order", async () => {
      const app = (await getApp(db(), APP_ID))!;
      const amount = quoteApp(app, "express").amount;
      const { buyer, checkout, session, intentId } = await heldCheckout();
      const sent = stripe.requests.filter((r) => r.method === "POST" && r.path === "/v1/checkout/sessions").at(-1)!;
      expect(sent.body.payment_intent_data).toEqual({
        metadata: { order_id: checkout.orderId, kind: "app" },
        capture_method: "manual",
      });
      expect(String((sent.body.custom_text as { submit: { message: string } }).submit.message)).toMatch(
        /^Due today \$0\. 3-day free trial/,
      );
      expect(session.payment_status).toBe("unpaid");
      const order = await orderById(db(), checkout.orderId);
      expect(order).toMatchObject({ status: "authorized", paidAt: null });
      expect(order.details.paymentIntentId).toBe(intentId);
      expect(await payments(order.id)).toEqual([]);
      expect(await listPurchasedAutomations(db(), buyer.id)).toEqual([]);
      expect(await captureJobs(order.id)).toHaveLength(1);

      await endTrial(order.id);
      await waitFor(
        () => orderById(db(), order.id),
        (o) => o.status === "paid",
      );
      expect(stripe.paymentIntents.get(intentId)?.status).toBe("succeeded");
      expect((await payments(order.id)).map((p) => [p.providerRef, p.amount])).toEqual([[intentId, amount]]);
    });

    it("a capture repeated after a crash charges once: Stripe's refusal of a captured intent is read back as captured", async () => {
      const { checkout, intentId } = await heldCheckout();
      await stopJobs();
      await endTrial(checkout.orderId);
      expect(await captureTrial(db(), checkout.orderId)).toBe("captured");
      // As if the process died after Stripe captured but before the order was marked paid.
      await db().delete(paymentEvents).where(eq(paymentEvents.orderId, checkout.orderId));
      await db().update(orders).set({ status: "capturing", paidAt: null }).where(eq(orders.id, checkout.orderId));
      expect(await captureTrial(db(), checkout.orderId)).toBe("captured");
      expect(await captureTrial(db(), checkout.orderId)).toBe("nothing");
      expect(intentCalls(intentId, "capture")).toHaveLength(2);
      expect(await payments(checkout.orderId)).toHaveLength(1);
      expect((await orderById(db(), checkout.orderId)).status).toBe("paid");
    });

    it("cancel voids the authorisation; a void that failed at cancel time is done again by the job", async () => {
      const first = await heldCheckout();
      const cancel = (userId: string, orderId: string) =>
        import("~/server/billing/cancel-trial.server").then((m) => m.cancelTrial(db(), userId, orderId));
      expect((await cancel(first.buyer.id, first.checkout.orderId)).ok).toBe(true);
      expect(stripe.paymentIntents.get(first.intentId)?.status).toBe("canceled");
      expect((await orderById(db(), first.checkout.orderId)).status).toBe("canceled");

      const second = await heldCheckout();
      stripe.failNext(3);
      expect((await cancel(second.buyer.id, second.checkout.orderId)).ok).toBe(true);
      expect(stripe.paymentIntents.get(second.intentId)?.status).toBe("requires_capture");
      await endTrial(second.checkout.orderId);
      await waitFor(
        () => Promise.resolve(stripe.paymentIntents.get(second.intentId)?.status),
        (status) => status === "canceled",
      );
      expect(intentCalls(second.intentId, "capture")).toEqual([]);
      expect(await payments(second.checkout.orderId)).toEqual([]);
      expect((await orderById(db(), second.checkout.orderId)).status).toBe("canceled");
    });

    it("a capture Stripe refuses (the authorisation lapsed) marks the order capture_failed and records nothing", async () => {
      const { buyer, checkout, intentId } = await heldCheckout();
      stripe.captureRefused.add(intentId);
      await endTrial(checkout.orderId);
      await waitFor(
        () => orderById(db(), checkout.orderId),
        (o) => o.status === "capture_failed",
      );
      expect(await payments(checkout.orderId)).toEqual([]);
      expect(await listPurchasedAutomations(db(), buyer.id)).toEqual([]);
    });

    it("a Stripe outage during the capture is retried by the job", async () => {
      const { checkout, intentId } = await heldCheckout();
      stripe.failNext(3);
      await endTrial(checkout.orderId);
      await waitFor(
        () => orderById(db(), checkout.orderId),
        (o) => o.status === "paid",
      );
      expect(await payments(checkout.orderId)).toHaveLength(1);
      expect(stripe.paymentIntents.get(intentId)?.status).toBe("succeeded");
      expect(
        (
          await db()
            .select()
            .from(orders)
            .where(and(eq(orders.id, checkout.orderId), eq(orders.status, "paid")))
        ).length,
      ).toBe(1);
    });
  });
});
