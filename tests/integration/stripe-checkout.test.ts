import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { BILLING_PLANS, DISTRIBUTOR_PROGRAM } from "~/catalogue/plans";
import { quoteApp } from "~/catalogue/pricing";
import { action as portalAction } from "~/routes/api/billing.portal";
import { action as syncAction } from "~/routes/api/billing.sync";
import { initAuth, resetAuth, type Auth } from "~/server/auth/auth.server";
import { CheckoutError } from "~/server/billing/checkout-error.server";
import { createCheckout } from "~/server/billing/create-checkout.server";
import { localProvider, setCheckoutProvider } from "~/server/billing/provider.server";
import { getApp } from "~/server/catalogue/apps.server";
import { seedCatalogue } from "~/server/catalogue/seed.server";
import { setDatabase } from "~/server/db/client.server";
import { apps, billingCustomers, orders, paymentEvents, userSubscriptions } from "~/server/db/schema";
import { engine, freshDatabase, orderById, signedInCustomerMaker } from "./support/db";
import { startFakeStripeForApp, type FakeStripe } from "../support/fake-stripe";

/**
 * The Checkout Session the Stripe provider asks for (exact
 * parameters, as the official SDK sends them to a local stand-in), the customer portal and the
 * return-page re-sync.
 */
const APP_ID = 7;
const SITE = "http://localhost:3000";

const post = (path: string, cookie: string | null, body?: unknown) =>
  new Request(`${SITE}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: SITE, ...(cookie ? { cookie } : {}) },
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });

/** The body of a `data()` result (React Router's DataWithResponseInit) or a Response. */
const unwrap = async (result: unknown): Promise<{ status: number; body: Record<string, unknown> }> => {
  if (result instanceof Response) return { status: result.status, body: (await result.json()) as Record<string, unknown> };
  const d = result as { data: Record<string, unknown>; init?: { status?: number } | null };
  return { status: d.init?.status ?? 200, body: d.data };
};

describe(`stripe checkout, portal and sync (${engine})`, () => {
  let database: Awaited<ReturnType<typeof freshDatabase>>;
  let stripe: FakeStripe;
  let auth: Auth;

  const newUser = signedInCustomerMaker(
    () => auth,
    () => database.db,
    "stripe-buyer",
  );
  const lastSessionCreate = () => {
    const found = stripe.requests.filter((r) => r.method === "POST" && r.path === "/v1/checkout/sessions").at(-1);
    if (!found) throw new Error("no checkout session was created");
    return found;
  };
  /** The id of the fake's one Price with `lookupKey`, after checking what it charges. */
  const priceOf = (lookupKey: string, expected: Record<string, unknown>) => {
    const found = [...stripe.prices.values()].filter((p) => p.lookup_key === lookupKey);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ currency: "usd", ...expected });
    return String(found[0]!.id);
  };
  beforeAll(async () => {
    stripe = await startFakeStripeForApp("whsec_test_secret");
    // One-time orders paid at once, as sessions from before one-time trials were (trial-capture.test.ts covers the held payments).
    stripe.captureAtOnce = true;
    database = await freshDatabase();
    await seedCatalogue(database.db);
    setDatabase(database);
    auth = await initAuth(database.db);
  });
  afterAll(async () => {
    setCheckoutProvider(undefined);
    resetAuth();
    setDatabase(undefined);
    await database?.cleanup();
    await stripe?.close();
  });
  beforeEach(() => {
    setCheckoutProvider(undefined);
  });

  it("one-time app: payment mode, the catalogue amount, order id in metadata and client_reference_id, idempotency key", async () => {
    const buyer = await newUser();
    const app = (await getApp(database.db, APP_ID))!;
    const quote = quoteApp(app, "express");
    const result = await createCheckout(database.db, buyer, { kind: "app", appId: APP_ID, tab: "express" });
    const sent = lastSessionCreate();
    expect(sent.headers["idempotency-key"]).toBe(`checkout-session-${result.orderId}`);
    expect(sent.headers.authorization).toBe("Bearer sk_test_fake_key");
    expect(sent.body).toEqual({
      mode: "payment",
      // The app's express option at its catalogue amount: a Price found or made by its lookup key.
      line_items: [
        { quantity: "1", price: priceOf(`app.${APP_ID}.express.usd.${quote.amount}.once`, { unit_amount: quote.amount }) },
      ],
      client_reference_id: result.orderId,
      metadata: { order_id: result.orderId, kind: "app" },
      // The 3-day trial of a one-time build: the card is held, captured when the trial ends.
      payment_intent_data: { metadata: { order_id: result.orderId, kind: "app" }, capture_method: "manual" },
      custom_text: {
        submit: { message: expect.stringMatching(/^Due today \$0\. 3-day free trial: .* is charged 3 days after checkout/) },
      },
      customer_email: buyer.email,
      customer_creation: "always",
      success_url: `${SITE}/payment-success?session_id={CHECKOUT_SESSION_ID}`,
      cancel_url: `${SITE}/apps?canceled=true`,
    });
    expect(result.url).toBe(`https://checkout.stripe.test/c/pay/${result.sessionId}`);
    expect(await orderById(database.db, result.orderId)).toMatchObject({
      provider: "stripe",
      providerSessionId: result.sessionId,
      status: "pending",
      amount: quote.amount,
    });
  });

  it("an app renamed in the console is sold under its new name: Stripe's product is renamed", async () => {
    const productOf = () => [...stripe.products.values()].find((p) => p.metadata?.item === `app.${APP_ID}.base`);
    const original = (await getApp(database.db, APP_ID))!.name;
    await createCheckout(database.db, await newUser(), { kind: "app", appId: APP_ID, tab: "base" });
    expect(productOf()?.name).toBe(original);
    await database.db.update(apps).set({ name: "Renamed Invoice Chaser" }).where(eq(apps.id, APP_ID));
    try {
      await createCheckout(database.db, await newUser(), { kind: "app", appId: APP_ID, tab: "base" });
      expect(productOf()?.name).toBe("Renamed Invoice Chaser");
    } finally {
      await database.db.update(apps).set({ name: original }).where(eq(apps.id, APP_ID));
    }
  });

  it("monthly app: subscription mode, recurring monthly price, 3-day trial and subscription metadata", async () => {
    const buyer = await newUser();
    const app = (await getApp(database.db, APP_ID))!;
    const quote = quoteApp(app, "monthly");
    const result = await createCheckout(database.db, buyer, { kind: "app", appId: APP_ID, tab: "monthly" });
    const sent = lastSessionCreate();
    expect(sent.body.mode).toBe("subscription");
    expect(sent.body.line_items).toEqual([
      {
        quantity: "1",
        price: priceOf(`app.${APP_ID}.monthly.usd.${quote.amount}.month`, {
          unit_amount: quote.amount,
          recurring: { interval: "month" },
        }),
      },
    ]);
    expect(stripe.products.get(`ai_app_${APP_ID}_monthly`)).toMatchObject({ name: app.name });
    expect(sent.body.subscription_data).toEqual({
      metadata: { order_id: result.orderId, kind: "app" },
      trial_period_days: "3",
    });
    expect(sent.body.client_reference_id).toBe(result.orderId);
    expect(sent.body.customer_email).toBe(buyer.email);
    // Stripe rejects customer_creation in subscription mode (it always creates a customer).
    expect(sent.body).not.toHaveProperty("customer_creation");
    expect(sent.body).not.toHaveProperty("payment_intent_data");
  });

  it("distributor: monthly fee plus the setup fee as a one-time line item, 7-day trial", async () => {
    const buyer = await newUser();
    const result = await createCheckout(database.db, buyer, {
      kind: "distributor",
      email: buyer.email,
      fullName: "Dana Distributor",
      businessName: "Dana Co",
    });
    const sent = lastSessionCreate();
    expect(sent.body.mode).toBe("subscription");
    expect(sent.body.line_items).toEqual([
      {
        quantity: "1",
        price: priceOf(`distributor.usd.${DISTRIBUTOR_PROGRAM.monthlyFee}.month`, {
          unit_amount: DISTRIBUTOR_PROGRAM.monthlyFee,
          recurring: { interval: "month" },
        }),
      },
      {
        quantity: "1",
        price: priceOf(`distributor.setup.usd.${DISTRIBUTOR_PROGRAM.setupFee}.once`, {
          unit_amount: DISTRIBUTOR_PROGRAM.setupFee,
          recurring: null,
        }),
      },
    ]);
    expect(sent.body.subscription_data).toEqual({
      metadata: { order_id: result.orderId, kind: "distributor" },
      trial_period_days: String(DISTRIBUTOR_PROGRAM.trialDays),
    });
    // During the trial Stripe charges the setup fee only.
    expect(stripe.sessions.get(result.sessionId)!.amount_total).toBe(DISTRIBUTOR_PROGRAM.setupFee);
  });

  it("a plan has no trial; a returning buyer's stored customer is reused instead of the email", async () => {
    const buyer = await newUser();
    await database.db.insert(billingCustomers).values({ userId: buyer.id, provider: "stripe", customerId: "cus_returning" });
    const result = await createCheckout(database.db, buyer, { kind: "plan", planType: "pro" });
    const sent = lastSessionCreate();
    const pro = BILLING_PLANS.find((p) => p.type === "pro")!;
    expect(sent.body).toMatchObject({
      mode: "subscription",
      customer: "cus_returning",
      subscription_data: { metadata: { order_id: result.orderId, kind: "plan" } },
      line_items: [{ price: priceOf(`plan.pro.usd.${pro.monthlyPrice}.month`, { unit_amount: pro.monthlyPrice }) }],
      success_url: `${SITE}/dashboard/billing?success=true&session_id={CHECKOUT_SESSION_ID}`,
    });
    expect(sent.body).not.toHaveProperty("customer_email");
    expect((sent.body.subscription_data as Record<string, unknown>).trial_period_days).toBeUndefined();
  });

  it("a Stripe outage fails the order and answers 503, never a half-made session", async () => {
    const buyer = await newUser();
    stripe.failNext(3);
    const error = await createCheckout(database.db, buyer, { kind: "plan", planType: "basic" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CheckoutError);
    expect(error).toMatchObject({ status: 503 });
    const rows = await database.db.select().from(orders).where(eq(orders.userId, buyer.id));
    expect(rows.map((r) => r.status)).toEqual(["failed"]);
  });

  describe("POST /api/billing/portal", () => {
    it("opens the portal for the user's own stored customer id only", async () => {
      const owner = await newUser();
      const other = await newUser();
      await database.db.insert(billingCustomers).values([
        { userId: owner.id, provider: "stripe", customerId: "cus_owner" },
        { userId: other.id, provider: "stripe", customerId: "cus_other" },
      ]);
      // A customer id in the body is not a thing the endpoint reads.
      const res = await unwrap(
        await portalAction({ request: post("/api/billing/portal", owner.cookie, { customer: "cus_other" }) }),
      );
      expect(res.status).toBe(200);
      expect(res.body.url).toMatch(/^https:\/\/billing\.stripe\.test\/p\/session\//);
      const sent = stripe.requests.filter((r) => r.path === "/v1/billing_portal/sessions").at(-1)!;
      expect(sent.body).toEqual({ customer: "cus_owner", return_url: `${SITE}/dashboard/billing` });
    });

    it("404 'No billing account yet' without a stored customer; 502 when Stripe fails", async () => {
      const buyer = await newUser();
      expect(await unwrap(await portalAction({ request: post("/api/billing/portal", buyer.cookie) }))).toEqual({
        status: 404,
        body: { error: "No billing account yet" },
      });
      await database.db.insert(billingCustomers).values({ userId: buyer.id, provider: "stripe", customerId: "cus_flaky" });
      stripe.failNext(3);
      expect(await unwrap(await portalAction({ request: post("/api/billing/portal", buyer.cookie) }))).toEqual({
        status: 502,
        body: { error: "Failed to open billing portal" },
      });
    });

    it("the local provider's portal is the site's Manage Billing page; signed out -> 401 JSON (a redirect would be followed by fetch and read as a 200)", async () => {
      const buyer = await newUser();
      setCheckoutProvider(localProvider);
      expect(await unwrap(await portalAction({ request: post("/api/billing/portal", buyer.cookie) }))).toEqual({
        status: 200,
        body: { url: "/dashboard/billing/manage" },
      });
      expect(await unwrap(await portalAction({ request: post("/api/billing/portal", null) }))).toEqual({
        status: 401,
        body: { error: "Authentication required" },
      });
    });
  });

  describe("POST /api/billing/sync", () => {
    it("fulfils the user's own paid session before the webhook, once, and answers the summary", async () => {
      const buyer = await newUser();
      const result = await createCheckout(database.db, buyer, { kind: "plan", planType: "basic" });
      // Not paid yet: nothing changes.
      let res = await unwrap(
        await syncAction({ request: post("/api/billing/sync", buyer.cookie, { sessionId: result.sessionId }) }),
      );
      expect(res.status).toBe(200);
      expect(res.body.order).toEqual({ status: "pending", kind: "plan" });
      expect(res.body.subscription).toMatchObject({ active: false });

      const paid = stripe.pay(result.sessionId);
      res = await unwrap(await syncAction({ request: post("/api/billing/sync", buyer.cookie, { sessionId: result.sessionId }) }));
      expect(res.body.order).toEqual({ status: "paid", kind: "plan" });
      expect(res.body.subscription).toMatchObject({ active: true, planName: "Basic", monthlyPrice: 9900 });
      // Again: still one payment, one subscription.
      await syncAction({ request: post("/api/billing/sync", buyer.cookie, { sessionId: result.sessionId }) });
      const payments = await database.db.select().from(paymentEvents).where(eq(paymentEvents.userId, buyer.id));
      expect(payments).toHaveLength(1);
      expect(payments[0]).toMatchObject({ providerRef: paid.invoice, amount: 9900, kind: "payment" });
      const subs = await database.db.select().from(userSubscriptions).where(eq(userSubscriptions.userId, buyer.id));
      expect(subs).toHaveLength(1);
      expect(subs[0]!.providerSubscriptionId).toBe(paid.subscription);
      // The period end is Stripe's (the session is re-read with its subscription expanded).
      const item = (stripe.subscriptions.get(String(paid.subscription))!.items as { data: { current_period_end: number }[] })
        .data[0]!;
      expect(subs[0]!.currentPeriodEnd?.getTime()).toBe(item.current_period_end * 1000);
      expect(await database.db.select().from(billingCustomers).where(eq(billingCustomers.userId, buyer.id))).toMatchObject([
        { provider: "stripe", customerId: paid.customer },
      ]);
    });

    it("another user's session -> 404 and nothing is fulfilled; a tampered amount is not fulfilled", async () => {
      const owner = await newUser();
      const intruder = await newUser();
      const result = await createCheckout(database.db, owner, { kind: "app", appId: APP_ID, tab: "base" });
      stripe.pay(result.sessionId, { amount_total: 100 });
      const res = await unwrap(
        await syncAction({ request: post("/api/billing/sync", intruder.cookie, { sessionId: result.sessionId }) }),
      );
      expect(res).toEqual({ status: 404, body: { error: "Order not found" } });
      const own = await unwrap(
        await syncAction({ request: post("/api/billing/sync", owner.cookie, { sessionId: result.sessionId }) }),
      );
      expect(own.body.order).toEqual({ status: "pending", kind: "app" });
      expect((await orderById(database.db, result.orderId)).status).toBe("pending");
    });

    it("signed out -> 401 JSON, not a redirect to the sign-in page, and nothing is fulfilled", async () => {
      const buyer = await newUser();
      const result = await createCheckout(database.db, buyer, { kind: "plan", planType: "basic" });
      stripe.pay(result.sessionId);
      expect(
        await unwrap(await syncAction({ request: post("/api/billing/sync", null, { sessionId: result.sessionId }) })),
      ).toEqual({
        status: 401,
        body: { error: "Authentication required" },
      });
      expect((await orderById(database.db, result.orderId)).status).toBe("pending");
    });

    it("strict body: unknown fields, bad ids and bad JSON are 400; an empty body answers the summary", async () => {
      const buyer = await newUser();
      expect(
        await unwrap(await syncAction({ request: post("/api/billing/sync", buyer.cookie, { sessionId: "cs_x", amount: 1 }) })),
      ).toEqual({
        status: 400,
        body: { error: "Unexpected field: amount" },
      });
      expect(
        (await unwrap(await syncAction({ request: post("/api/billing/sync", buyer.cookie, { sessionId: "../etc" }) }))).status,
      ).toBe(400);
      expect((await unwrap(await syncAction({ request: post("/api/billing/sync", buyer.cookie, "{oops") }))).status).toBe(400);
      const res = await unwrap(await syncAction({ request: post("/api/billing/sync", buyer.cookie) }));
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ order: null, subscription: { active: false, planName: "Free Trial" } });
    });
  });
});
