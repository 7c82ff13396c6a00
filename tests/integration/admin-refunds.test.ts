import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { action as adminAction } from "~/routes/admin";
import { action as webhookAction } from "~/routes/api/webhooks.stripe";
import { initAuth, resetAuth, type Auth } from "~/server/auth/auth.server";
import { createCheckout } from "~/server/billing/create-checkout.server";
import { fulfilOrder } from "~/server/billing/fulfil-order.server";
import { listPurchasedAutomations } from "~/server/billing/list-orders.server";
import { localProvider, setCheckoutProvider } from "~/server/billing/provider.server";
import { seedCatalogue } from "~/server/catalogue/seed.server";
import { setDatabase } from "~/server/db/client.server";
import { affiliates, commissionLedger, paymentEvents, referrals, userRoles } from "~/server/db/schema";
import { engine, freshDatabase, orderById, signedInCustomerMaker, userMaker } from "./support/db";
import { signedEvent, startFakeStripeForApp, webhookRequest, type FakeStripe } from "../support/fake-stripe";
import { routeAnswer, routeArgs } from "./support/route";
import { consoleRows } from "./support/console";
import { enrolTwoFactor } from "./support/two-factor";

process.env.LOG_LEVEL ??= "error";

/**
 * Refunds from /admin → Orders, as React Router calls the action: operators only, a reason, at most
 * what is left, once per confirmed refund, through the provider (Stripe's refunds API, or the local
 * provider's own record), converging with the provider's refund webhook.
 */
const SITE = "http://localhost:3000";
const SECRET = "whsec_admin_refunds_secret";
const APP_ID = 7;

const post = (cookie: string, form: Record<string, string>, ip = "10.40.0.1") =>
  new Request(`${SITE}/admin`, {
    method: "POST",
    headers: { origin: SITE, "content-type": "application/x-www-form-urlencoded", cookie, "x-client-ip": ip },
    body: new URLSearchParams(form),
  });
const act = (cookie: string, form: Record<string, string>, ip?: string) =>
  routeAnswer<Record<string, unknown>>(adminAction(routeArgs(post(cookie, form, ip))));

const refundForm = (orderId: string, amount: number, extra: Record<string, string> = {}) => ({
  intent: "refund-order",
  orderId,
  amount: String(amount),
  reason: "requested_by_customer",
  note: "Asked by email",
  key: randomUUID(),
  confirm: "yes",
  ...extra,
});

describe(`/admin refunds (${engine})`, () => {
  let database: Awaited<ReturnType<typeof freshDatabase>>;
  let auth: Auth;
  let stripe: FakeStripe;
  const newCustomer = signedInCustomerMaker(
    () => auth,
    () => database.db,
    "refund",
  );
  /** Buyers and affiliates need no session: only operators and the refused customer sign in. */
  const newUser = userMaker(() => database.db, "refund-buyer");
  /** An operator whose session was opened with a second factor, as /admin requires. */
  const newOperator = async () => {
    const made = await newCustomer();
    await database.db.insert(userRoles).values({ userId: made.id, role: "operator" });
    return { ...made, cookie: (await enrolTwoFactor(auth, made.cookie, "correct-horse-battery")).cookie };
  };
  let ops: Awaited<ReturnType<typeof newCustomer>>;

  beforeAll(async () => {
    stripe = await startFakeStripeForApp(SECRET);
    // One-time orders captured at checkout, so each test starts from a payment taken (a held trial's
    // capture records its payment the same way: trial-capture.test.ts).
    stripe.captureAtOnce = true;
    database = await freshDatabase();
    await seedCatalogue(database.db);
    setDatabase(database);
    auth = await initAuth(database.db);
    ops = await newOperator();
  });
  afterAll(async () => {
    setCheckoutProvider(undefined);
    resetAuth();
    setDatabase(undefined);
    await database?.cleanup();
    await stripe?.close();
  });

  const refused = async (form: Record<string, string>) => {
    const answer = await act(ops.cookie, form);
    return [answer.status, answer.body?.code];
  };
  const moneyOf = async (orderId: string) =>
    (await database.db.select().from(paymentEvents).where(eq(paymentEvents.orderId, orderId)).orderBy(paymentEvents.id)).map(
      (e) => [e.kind, e.amount] as const,
    );

  /** A referred buyer's app bought through the local provider's page. */
  const localPurchase = async () => {
    const buyer = await newUser();
    const affiliate = await newUser();
    await database.db.insert(affiliates).values({ userId: affiliate.id, username: `aff-${affiliate.id}` });
    await database.db.insert(referrals).values({ referredUserId: buyer.id, affiliateUserId: affiliate.id });
    setCheckoutProvider(localProvider);
    try {
      const checkout = await createCheckout(database.db, buyer, { kind: "app", appId: APP_ID, tab: "base" });
      await fulfilOrder(database.db, checkout.sessionId);
      return { buyer, order: await orderById(database.db, checkout.orderId) };
    } finally {
      setCheckoutProvider(undefined);
    }
  };
  const stripePurchase = async () => {
    const buyer = await newUser();
    const checkout = await createCheckout(database.db, buyer, { kind: "app", appId: APP_ID, tab: "base" });
    const session = stripe.pay(checkout.sessionId);
    const event = signedEvent(SECRET, { type: "checkout.session.completed", object: session });
    await webhookAction({ request: webhookRequest(event.body, event.signature) });
    return { buyer, session, order: await orderById(database.db, checkout.orderId) };
  };

  it("anyone who is not an operator gets the site's 404, and nothing is refunded", async () => {
    const { order } = await localPurchase();
    const customer = await newCustomer();
    expect((await act(customer.cookie, refundForm(order.id, 100))).status).toBe(404);
    expect((await act("", refundForm(order.id, 100))).status).toBe(404);
    expect(await moneyOf(order.id)).toEqual([["payment", order.amount]]);
  });

  it("refuses what is not a confirmed refund with a reason, as codes", async () => {
    const { order } = await localPurchase();
    expect(await refused(refundForm(order.id, 0))).toEqual([400, "invalid_input"]);
    expect(await refused(refundForm(order.id, 12.5))).toEqual([400, "invalid_input"]);
    expect(await refused(refundForm(order.id, 100, { reason: "" }))).toEqual([400, "invalid_input"]);
    expect(await refused(refundForm(order.id, 100, { reason: "because" }))).toEqual([400, "invalid_input"]);
    expect(await refused(refundForm(order.id, 100, { confirm: "" }))).toEqual([400, "invalid_input"]);
    expect(await refused(refundForm(order.id, 100, { key: "not-a-uuid" }))).toEqual([400, "invalid_input"]);
    expect(await refused(refundForm(order.id, 100, { reason: "other", note: "  " }))).toEqual([400, "note_required"]);
    expect(await refused(refundForm("no-such-order", 100))).toEqual([404, "not_found"]);
    expect(await refused(refundForm(order.id, order.amount + 1))).toEqual([409, "amount_too_high"]);
    expect(await moneyOf(order.id)).toEqual([["payment", order.amount]]);
  });

  it("local provider: a partial refund, once per confirmation, then the rest ends the order and nets the commission", async () => {
    const { buyer, order } = await localPurchase();
    const first = refundForm(order.id, 1000);
    expect(await act(ops.cookie, first)).toMatchObject({
      status: 200,
      body: { intent: "refund-order", ok: true, orderId: order.id, refunded: 1000, ended: false },
    });
    // The same confirmed refund submitted again (a double click, a retried request): still one.
    expect((await act(ops.cookie, first)).status).toBe(200);
    expect(await moneyOf(order.id)).toEqual([
      ["payment", order.amount],
      ["refund", 1000],
    ]);
    expect((await orderById(database.db, order.id)).status).toBe("paid");
    expect(await consoleRows(database.db, "orders", { q: order.id })).toMatchObject([{ paid: order.amount, refunded: 1000 }]);

    expect(await act(ops.cookie, refundForm(order.id, order.amount - 1000 + 1))).toMatchObject({
      status: 409,
      body: { code: "amount_too_high" },
    });
    expect(await act(ops.cookie, refundForm(order.id, order.amount - 1000, { reason: "other", note: "Goodwill" }))).toMatchObject(
      {
        status: 200,
        body: { ok: true, refunded: order.amount - 1000, ended: true },
      },
    );
    expect((await orderById(database.db, order.id)).status).toBe("refunded");
    expect(await listPurchasedAutomations(database.db, buyer.id)).toEqual([]);
    const ledger = await database.db.select().from(commissionLedger).where(eq(commissionLedger.referredUserId, buyer.id));
    expect(ledger.map((e) => e.kind).sort()).toEqual(["commission", "reversal", "reversal"]);
    expect(ledger.reduce((sum, e) => sum + e.amount, 0)).toBe(0);
    expect(await act(ops.cookie, refundForm(order.id, 1))).toMatchObject({ status: 409, body: { code: "not_refundable" } });
  });

  it("Stripe: refunds the payment intent with the reason and a key, records it, and its webhook records nothing twice", async () => {
    const { buyer, session, order } = await stripePurchase();
    const from = stripe.requests.length;
    const form = refundForm(order.id, 2500, { reason: "duplicate" });
    expect(await act(ops.cookie, form)).toMatchObject({ status: 200, body: { ok: true, refunded: 2500, ended: false } });
    const created = stripe.requests.slice(from).filter((r) => r.method === "POST" && r.path === "/v1/refunds");
    expect(created).toHaveLength(1);
    expect(created[0]!.body).toMatchObject({
      payment_intent: session.payment_intent,
      amount: "2500",
      reason: "duplicate",
      metadata: { order_id: order.id, operator_id: ops.id, reason: "duplicate", note: "Asked by email" },
    });
    expect(created[0]!.headers["idempotency-key"]).toBe(`admin-refund-${form.key}-${String(session.payment_intent)}`);
    const [chargeId, [refund]] = [...stripe.refunds].find(([, list]) =>
      list.some((r) => r.payment_intent === session.payment_intent),
    )!;
    expect(await database.db.select().from(paymentEvents).where(eq(paymentEvents.orderId, order.id))).toMatchObject([
      { kind: "payment" },
      { kind: "refund", amount: 2500, providerRef: refund!.id, provider: "stripe" },
    ]);

    // Stripe's own report of the same refund arrives later: already on record.
    const event = signedEvent(SECRET, {
      type: "charge.refunded",
      object: {
        id: chargeId,
        object: "charge",
        amount: order.amount,
        amount_refunded: 2500,
        currency: "usd",
        customer: session.customer,
        payment_intent: session.payment_intent,
        refunded: false,
      },
    });
    expect(await webhookAction({ request: webhookRequest(event.body, event.signature) })).toMatchObject({
      data: { outcome: "ignored" },
    });
    expect(await moneyOf(order.id)).toEqual([
      ["payment", order.amount],
      ["refund", 2500],
    ]);

    // The rest: the order is wholly refunded and the app no longer owned.
    expect(await act(ops.cookie, refundForm(order.id, order.amount - 2500))).toMatchObject({
      status: 200,
      body: { ok: true, ended: true },
    });
    expect((await orderById(database.db, order.id)).status).toBe("refunded");
    expect(await listPurchasedAutomations(database.db, buyer.id)).toEqual([]);
  });

  it("Stripe: a refund larger than the last invoice is split over the subscription's payments, newest first", async () => {
    const buyer = await newUser();
    const checkout = await createCheckout(database.db, buyer, { kind: "plan", planType: "basic" });
    const session = stripe.pay(checkout.sessionId);
    const completed = signedEvent(SECRET, { type: "checkout.session.completed", object: session });
    await webhookAction({ request: webhookRequest(completed.body, completed.signature) });
    const order = await orderById(database.db, checkout.orderId);
    const renewal = signedEvent(SECRET, {
      type: "invoice.paid",
      object: {
        id: "in_admin_renewal",
        object: "invoice",
        billing_reason: "subscription_cycle",
        amount_paid: order.amount,
        currency: "usd",
        parent: { type: "subscription_details", subscription_details: { subscription: session.subscription } },
      },
    });
    await webhookAction({ request: webhookRequest(renewal.body, renewal.signature) });
    for (const [invoice, pi] of [
      [String(session.invoice), "pi_admin_first"],
      ["in_admin_renewal", "pi_admin_renewal"],
    ] as const) {
      stripe.invoiceOfPaymentIntent.set(pi, invoice);
      stripe.charges.set(`ch_${pi}`, {
        id: `ch_${pi}`,
        object: "charge",
        amount: order.amount,
        amount_refunded: 0,
        currency: "usd",
        customer: session.customer,
        payment_intent: pi,
      });
    }
    const from = stripe.requests.length;
    expect(await act(ops.cookie, refundForm(order.id, order.amount + 100))).toMatchObject({
      status: 200,
      body: { ok: true, refunded: order.amount + 100, ended: false },
    });
    const created = stripe.requests.slice(from).filter((r) => r.method === "POST" && r.path === "/v1/refunds");
    expect(created.map((r) => [r.body.payment_intent, r.body.amount])).toEqual([
      ["pi_admin_renewal", String(order.amount)],
      ["pi_admin_first", "100"],
    ]);
    expect(await moneyOf(order.id)).toEqual([
      ["payment", order.amount],
      ["payment", order.amount],
      ["refund", order.amount],
      ["refund", 100],
    ]);
  });

  it("Stripe down: 502, nothing recorded; too many refunds: 429", async () => {
    const { order } = await stripePurchase();
    // Another operator: the one above has used this minute's refunds.
    const other = await newOperator();
    stripe.failNext(10);
    expect(await act(other.cookie, refundForm(order.id, 500), "10.40.5.5")).toMatchObject({
      status: 502,
      body: { ok: false, code: "provider_failed", refunded: 0 },
    });
    stripe.failNext(0);
    expect(await moneyOf(order.id)).toEqual([["payment", order.amount]]);

    const limited = await newOperator();
    const answers = [];
    for (let i = 0; i < 11; i += 1) answers.push((await act(limited.cookie, refundForm("no-such-order", 1), "10.40.9.9")).status);
    expect(answers.slice(0, 10).every((s) => s === 404)).toBe(true);
    expect(answers[10]).toBe(429);
  });
});
