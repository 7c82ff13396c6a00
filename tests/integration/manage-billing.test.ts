import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loader as billingLoader } from "~/routes/_dashboard/billing";
import { COMPANY } from "~/catalogue/company";
import { action as manageAction, loader as manageLoader } from "~/routes/_dashboard/billing.manage";
import { action as localCheckoutAction } from "~/routes/checkout.local";
import { loader as receiptLoader } from "~/routes/receipt";
import { initAuth, resetAuth, type Auth } from "~/server/auth/auth.server";
import { createCheckout } from "~/server/billing/create-checkout.server";
import { fulfilOrder } from "~/server/billing/fulfil-order.server";
import { addMonths } from "~/server/billing/next-charge.server";
import { recordPayment, recordRefund } from "~/server/billing/record-payment.server";
import { localProvider, setCheckoutProvider } from "~/server/billing/provider.server";
import type { CheckoutProvider } from "~/server/billing/provider-types.server";
import { seedCatalogue } from "~/server/catalogue/seed.server";
import { setDatabase } from "~/server/db/client.server";
import { orders, paymentEvents, userAddons, userSubscriptions } from "~/server/db/schema";
import { hasActiveSubscription } from "~/server/trial/trial.server";
import { engine, freshDatabase, insertTestAddons, orderById, signedInCustomerMaker } from "./support/db";
import { routeAnswer } from "./support/route";

process.env.LOG_LEVEL ??= "error";

const SITE = "http://localhost:3000";
const TEST_ADDONS = [{ id: "mb-seo", name: "SEO Booster", category: "Marketing", monthlyPrice: 4900 }];

const args = (request: Request, params: Record<string, string> = {}) =>
  ({ request, url: new URL(request.url), params, context: {} }) as never;
const get = (path: string, cookie: string | null) => new Request(`${SITE}${path}`, { headers: cookie ? { cookie } : {} });
const post = (path: string, cookie: string, form: Record<string, string>) =>
  new Request(`${SITE}${path}`, {
    method: "POST",
    headers: { cookie, origin: SITE, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(form),
  });

type ReceiptData = Awaited<ReturnType<typeof receiptLoader>>;
type ManageData = Awaited<ReturnType<typeof manageLoader>>;

/**
 * Manage Billing with the local provider and receipts, through the route modules as React Router
 * calls them: the card the customer paid with is remembered (last four digits), every payment has a
 * receipt only its owner can open (a first payment with its setup fee, a renewal, a capture at the end
 * of a trial, refunds as negative lines), and a subscription is cancelled only by its owner: a plan at
 * the end of its period, a subscription order now.
 */
describe(`manage billing and receipts (${engine})`, () => {
  let database: Awaited<ReturnType<typeof freshDatabase>>;
  let auth: Auth;
  const customer = signedInCustomerMaker(
    () => auth,
    () => database.db,
    "manage",
  );
  type Customer = Awaited<ReturnType<typeof customer>>;

  const receipt = (who: Customer | null, id: string | number) =>
    routeAnswer<ReceiptData>(
      receiptLoader(args(get(`/dashboard/billing/receipts/${id}`, who?.cookie ?? null), { paymentId: String(id) })),
    );
  const manage = async (who: Customer) => {
    const answer = await routeAnswer<ManageData>(manageLoader(args(get("/dashboard/billing/manage", who.cookie))));
    expect(answer.status).toBe(200);
    return answer.body!;
  };
  const cancel = (who: Customer, form: Record<string, string>) =>
    routeAnswer(manageAction(args(post("/dashboard/billing/manage", who.cookie, form))));
  /** Pays the customer's checkout on the local test page, with `card`. */
  const payOnLocalPage = async (who: Customer, sessionId: string, card = "4242 4242 4242 4242") => {
    const answer = await routeAnswer(
      localCheckoutAction(
        args(post(`/checkout/local/${sessionId}`, who.cookie, { card, expiry: "12/40", cvc: "123" }), { sessionId }),
      ),
    );
    expect(answer.status).toBe(302);
  };
  const paymentsOf = (orderId: string) =>
    database.db.select().from(paymentEvents).where(eq(paymentEvents.orderId, orderId)).orderBy(paymentEvents.id);

  beforeAll(async () => {
    database = await freshDatabase();
    setDatabase(database);
    auth = await initAuth(database.db);
    await seedCatalogue(database.db);
    await insertTestAddons(database.db, TEST_ADDONS);
    setCheckoutProvider(localProvider);
  });
  afterAll(async () => {
    setCheckoutProvider(undefined);
    resetAuth();
    setDatabase(undefined);
    await database?.cleanup();
  });

  it("a purchase paid on the test page has a receipt with its order, line, total and test card; only for its owner", async () => {
    const owner = await customer();
    const stranger = await customer();
    const { orderId, sessionId } = await createCheckout(database.db, owner, { kind: "plan", planType: "basic" });
    await payOnLocalPage(owner, sessionId, "4242-4242-4242-4242");
    const order = await orderById(database.db, orderId);
    expect(order.status).toBe("paid");
    // Only the last four digits are kept.
    expect(order.details.paymentMethod).toEqual({ kind: "test_card", last4: "4242" });
    expect(JSON.stringify(order.details)).not.toContain("42424242");
    const [payment] = await paymentsOf(orderId);

    const { status, body } = await receipt(owner, payment!.id);
    expect(status).toBe(200);
    expect(body!.receipt).toMatchObject({
      id: payment!.id,
      number: `R-${String(payment!.id).padStart(6, "0")}`,
      paidAt: payment!.createdAt.toISOString(),
      amount: order.amount,
      refunded: 0,
      net: order.amount,
      currency: "usd",
      order: { id: orderId, itemName: order.itemName, option: "Monthly plan", kind: "plan" },
      lines: [{ item: order.itemName, option: "Monthly plan", amount: order.amount }],
      paymentMethod: { kind: "test_card", last4: "4242" },
    });
    expect(body!.customer).toMatchObject({ email: owner.email });
    expect(body!.company).toEqual({
      name: "AI Automation Apps",
      legalName: COMPANY.legalName,
      address: COMPANY.address,
      supportPath: "/dashboard/support",
      website: expect.stringMatching(/^https?:\/\//),
      support: expect.stringMatching(/\/dashboard\/support$/),
    });

    // Another account's payment, a refund's id, a made-up or malformed id: the site's 404.
    expect((await receipt(stranger, payment!.id)).status).toBe(404);
    for (const id of [payment!.id + 1000, "0", "-1", "1e3", "abc", "99999999999999999999"]) {
      expect((await receipt(owner, id)).status).toBe(404);
    }
    // Signed out: sign in first, and come back to the receipt.
    const signedOut = await receipt(null, payment!.id);
    expect(signedOut.status).toBe(302);
    expect(signedOut.location).toBe(`/auth?next=%2Fdashboard%2Fbilling%2Freceipts%2F${payment!.id}`);

    // Billing history links the order to its receipt; Manage Billing lists it with the card on file.
    const history = await routeAnswer<Awaited<ReturnType<typeof billingLoader>>>(
      billingLoader(args(get("/dashboard/billing", owner.cookie))),
    );
    expect(history.body).toMatchObject({ portal: "local", hasPayments: true });
    expect(history.body!.history.find((h) => h.id === orderId)?.receipts).toEqual([
      { id: payment!.id, number: `R-${String(payment!.id).padStart(6, "0")}` },
    ]);
    const page = await manage(owner);
    expect(page.card).toEqual({ last4: "4242" });
    expect(page.receipts.map((r) => r.id)).toEqual([payment!.id]);
    expect(page.subscriptions).toHaveLength(1);
    // The stranger has nothing: no card, no receipts, no link to someone else's.
    expect(await manage(stranger)).toEqual({ subscriptions: [], card: null, receipts: [] });
  });

  it("a subscription's first payment with its setup fee, its renewals, a refund and a capture at the end of a trial each have a receipt", async () => {
    const owner = await customer();
    // The distributor program: $997 setup fee now, the 7-day trial, then $199 a month.
    const distributor = await createCheckout(database.db, owner, {
      kind: "distributor",
      email: owner.email,
      fullName: "Ada Owner",
      businessName: "Acme",
    });
    await payOnLocalPage(owner, distributor.sessionId);
    // The first month, charged when the trial ends, and the next one (as Stripe's invoices record them).
    for (const ref of ["in_trial_end", "in_month_2"]) {
      await recordPayment(database.db, {
        userId: owner.id,
        orderId: distributor.orderId,
        amount: 19_900,
        provider: "local",
        providerRef: `${distributor.sessionId}:${ref}`,
      });
    }
    await recordRefund(database.db, {
      userId: owner.id,
      orderId: distributor.orderId,
      amount: 5_000,
      provider: "local",
      providerRef: `${distributor.sessionId}:re_1`,
    });
    const [setup, trialEnd, second] = await paymentsOf(distributor.orderId);
    const receiptOf = async (id: number) => (await receipt(owner, id)).body!.receipt;

    expect(await receiptOf(setup!.id)).toMatchObject({
      amount: 99_700,
      lines: [
        { item: "AI Distributor Program", option: "Distributor program, 7-day free trial", amount: 0 },
        { item: "Setup fee", option: "One-time", amount: 99_700 },
      ],
      refunds: [],
    });
    expect(await receiptOf(trialEnd!.id)).toMatchObject({
      amount: 19_900,
      lines: [{ item: "AI Distributor Program", option: "Distributor program, monthly charge", amount: 19_900 }],
    });
    // The refund came after the latest payment: it is that payment's, as a negative line.
    expect(await receiptOf(second!.id)).toMatchObject({
      amount: 19_900,
      refunded: 5_000,
      net: 14_900,
      lines: [
        { item: "AI Distributor Program", option: "Distributor program, monthly charge", amount: 19_900 },
        { item: "Refund", option: "", amount: -5_000 },
      ],
      refunds: [{ amount: 5_000 }],
    });
    // A refund has no receipt of its own.
    const [refund] = await database.db
      .select()
      .from(paymentEvents)
      .where(and(eq(paymentEvents.orderId, distributor.orderId), eq(paymentEvents.kind, "refund")));
    expect((await receipt(owner, refund!.id)).status).toBe(404);

    // A one-time build on a free trial: nothing is charged at checkout; the capture at the end of the
    // trial is recorded like any payment and gets its receipt.
    const pkg = await createCheckout(database.db, owner, { kind: "package", planId: "starter", mode: "one-time", rush: false });
    const trialOrder = await orderById(database.db, pkg.orderId);
    expect(trialOrder.trialDays).toBeGreaterThan(0);
    await fulfilOrder(database.db, pkg.sessionId, { paymentRef: null });
    expect(await paymentsOf(pkg.orderId)).toEqual([]);
    await recordPayment(database.db, {
      userId: owner.id,
      orderId: pkg.orderId,
      amount: trialOrder.amount,
      provider: "local",
      providerRef: `${pkg.sessionId}:capture`,
    });
    const [capture] = await paymentsOf(pkg.orderId);
    expect(await receiptOf(capture!.id)).toMatchObject({
      amount: trialOrder.amount,
      lines: [{ item: trialOrder.itemName, option: "One-time, 5-7 days", amount: trialOrder.amount }],
    });

    // Manage Billing lists every payment, newest first, with what was refunded from each.
    const page = await manage(owner);
    expect(page.receipts.map((r) => [r.id, r.refunded])).toEqual([
      [capture!.id, 0],
      [second!.id, 5_000],
      [trialEnd!.id, 0],
      [setup!.id, 0],
    ]);
  });

  it("cancel: a plan at the end of its period, a subscription order now; never another account's", async () => {
    const owner = await customer();
    const stranger = await customer();
    const plan = await createCheckout(database.db, owner, { kind: "plan", planType: "pro" });
    await payOnLocalPage(owner, plan.sessionId);
    const addon = await createCheckout(database.db, owner, { kind: "addons", addonIds: ["mb-seo"] });
    await payOnLocalPage(owner, addon.sessionId);
    const [planRow] = await database.db.select().from(userSubscriptions).where(eq(userSubscriptions.userId, owner.id));

    const before = await manage(owner);
    expect(before.card).toEqual({ last4: "4242" });
    const refs = before.subscriptions.map((s) => s.ref);
    expect(refs).toEqual([`plan:${planRow!.id}`, `order:${addon.orderId}`]);
    const [planSub, addonSub] = before.subscriptions;
    expect(planSub).toMatchObject({
      name: "Pro",
      kindName: "Billing plan",
      monthlyPrice: 49_900,
      state: "active",
      nextChargeAt: planRow!.currentPeriodEnd!.toISOString(),
      endsAt: null,
      cancelable: true,
    });
    expect(addonSub).toMatchObject({
      name: "SEO Booster",
      kindName: "Add-ons",
      monthlyPrice: 4_900,
      state: "active",
      cancelable: true,
    });
    // The add-on's first month ends a calendar month after it was paid.
    const paidAt = (await orderById(database.db, addon.orderId)).paidAt!;
    expect(addonSub!.nextChargeAt).toBe(addMonths(paidAt, 1).toISOString());

    // Someone else's subscriptions, made-up and malformed refs: not found, nothing changes.
    for (const ref of refs)
      expect(await cancel(stranger, { intent: "cancel", ref })).toMatchObject({
        status: 404,
        body: { ok: false, code: "not_found" },
      });
    for (const ref of ["plan:999999", "order:nope", "plan:abc", "addons:1", ""]) {
      expect((await cancel(owner, { intent: "cancel", ref })).status).toBe(404);
    }
    expect((await cancel(owner, { intent: "cancel" })).status).toBe(400);
    expect((await cancel(owner, { intent: "cancel", ref: refs[0]!, cancelAt: "now" })).status).toBe(400);
    expect(await manage(owner)).toEqual(before);

    // The plan: cancelled at the end of the period, active until then.
    expect(await cancel(owner, { intent: "cancel", ref: refs[0]! })).toMatchObject({
      status: 200,
      body: { ok: true, outcome: "ends_at_period_end" },
    });
    const [canceling] = await database.db.select().from(userSubscriptions).where(eq(userSubscriptions.id, planRow!.id));
    expect(canceling).toMatchObject({ status: "active", cancelAtPeriodEnd: true });
    // The add-on: ended now, no longer owned.
    expect(await cancel(owner, { intent: "cancel", ref: refs[1]! })).toMatchObject({
      status: 200,
      body: { ok: true, outcome: "ended" },
    });
    expect(await orderById(database.db, addon.orderId)).toMatchObject({ status: "canceled", subscriptionStatus: "canceled" });
    const [owned] = await database.db
      .select()
      .from(userAddons)
      .where(and(eq(userAddons.userId, owner.id), eq(userAddons.addonId, "mb-seo")));
    expect(owned!.status).toBe("canceled");
    // Ended is ended: a second cancel finds nothing to cancel.
    expect((await cancel(owner, { intent: "cancel", ref: refs[1]! })).status).toBe(404);

    const after = await manage(owner);
    expect(after.subscriptions).toEqual([
      {
        ...planSub,
        state: "canceling",
        nextChargeAt: null,
        endsAt: planRow!.currentPeriodEnd!.toISOString(),
        cancelable: false,
      },
    ]);
    // Still subscribed until the plan's period ends; its receipts stay.
    expect(await hasActiveSubscription(database.db, owner.id)).toBe(true);
    expect(after.receipts).toHaveLength(2);
    expect((await database.db.select().from(orders).where(eq(orders.userId, stranger.id))).length).toBe(0);
  });

  it("with Stripe, Manage Billing is Stripe's portal: the local page sends the customer back to billing", async () => {
    const owner = await customer();
    const stripeLike: CheckoutProvider = { ...localProvider, name: "stripe" };
    setCheckoutProvider(stripeLike);
    try {
      const answer = await routeAnswer(manageLoader(args(get("/dashboard/billing/manage", owner.cookie))));
      expect([answer.status, answer.location]).toEqual([302, "/dashboard/billing"]);
    } finally {
      setCheckoutProvider(localProvider);
    }
  });
});
