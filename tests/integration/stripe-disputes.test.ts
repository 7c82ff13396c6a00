import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { action as webhookAction } from "~/routes/api/webhooks.stripe";
import { listDisputes } from "~/server/admin/admin.server";
import { getAffiliateStats } from "~/server/affiliates/affiliates.server";
import { createCheckout } from "~/server/billing/create-checkout.server";
import { listPurchasedAutomations } from "~/server/billing/list-orders.server";
import { seedCatalogue } from "~/server/catalogue/seed.server";
import { setDatabase } from "~/server/db/client.server";
import {
  affiliates,
  commissionLedger,
  mailOutbox,
  paymentDisputes,
  paymentEvents,
  referrals,
  userAddons,
  userRoles,
} from "~/server/db/schema";
import { hasActiveSubscription } from "~/server/trial/trial.server";
import { consoleRows } from "./support/console";
import { engine, freshDatabase, insertTestAddons, orderById, userMaker } from "./support/db";
import { signedEvent, startFakeStripeForApp, webhookRequest, type FakeStripe } from "../support/fake-stripe";

/**
 * Chargebacks: a dispute holds the referrer's commission, a won one releases it, a lost one reverses
 * it, ends the order and tells the operators; any delivery order or repetition converges on Stripe's
 * state of the dispute, which every event re-reads.
 */
const SECRET = "whsec_disputes_test_secret";
const APP_ID = 7;
const DISPUTE_FEE = 1500;

const send = async (type: string, object: unknown, opts: { id?: string } = {}) => {
  const event = signedEvent(SECRET, { type, object, ...opts });
  const result = (await webhookAction({ request: webhookRequest(event.body, event.signature) })) as {
    data: Record<string, unknown>;
    init?: { status?: number } | null;
  };
  return { status: result.init?.status ?? 200, outcome: result.data.outcome };
};

describe(`stripe disputes (${engine})`, () => {
  let database: Awaited<ReturnType<typeof freshDatabase>>;
  let stripe: FakeStripe;
  let operatorEmail: string;
  let n = 0;
  const newUser = userMaker(() => database.db, "disp");

  beforeAll(async () => {
    stripe = await startFakeStripeForApp(SECRET);
    // One-time orders captured at checkout, so each test starts from a payment taken (a held trial's
    // capture records its payment the same way: trial-capture.test.ts).
    stripe.captureAtOnce = true;
    database = await freshDatabase();
    await seedCatalogue(database.db);
    await insertTestAddons(database.db, [{ id: "d-crm", name: "CRM Sync", category: "Sales", monthlyPrice: 7900 }]);
    setDatabase(database);
    const operator = await newUser();
    operatorEmail = operator.email;
    await database.db.insert(userRoles).values({ userId: operator.id, role: "operator" });
  });
  afterAll(async () => {
    setDatabase(undefined);
    await database?.cleanup();
    await stripe?.close();
  });

  /** A referred buyer's paid app and its charge at Stripe; the affiliate earned 30% of it. */
  const referredPurchase = async (req: Parameters<typeof createCheckout>[2] = { kind: "app", appId: APP_ID, tab: "base" }) => {
    n += 1;
    const affiliate = await newUser();
    await database.db.insert(affiliates).values({ userId: affiliate.id, username: `disp-aff-${n}` });
    const buyer = await newUser();
    await database.db.insert(referrals).values({ referredUserId: buyer.id, affiliateUserId: affiliate.id });
    const checkout = await createCheckout(database.db, buyer, req);
    const session = stripe.pay(checkout.sessionId);
    expect((await send("checkout.session.completed", session)).outcome).toBe("applied");
    const order = await orderById(database.db, checkout.orderId);
    const chargeId = `ch_disp_${n}`;
    const paymentIntent = session.payment_intent ?? `pi_disp_${n}`;
    if (!session.payment_intent) stripe.invoiceOfPaymentIntent.set(String(paymentIntent), String(session.invoice));
    stripe.charges.set(chargeId, {
      id: chargeId,
      object: "charge",
      amount: order.amount,
      currency: "usd",
      customer: session.customer,
      payment_intent: paymentIntent,
    });
    const disputeId = `dp_disp_${n}`;
    const dispute = {
      id: disputeId,
      object: "dispute",
      amount: order.amount,
      currency: "usd",
      charge: chargeId,
      payment_intent: paymentIntent,
      reason: "fraudulent",
      status: "needs_response",
      evidence_details: { due_by: Math.floor(Date.now() / 1000) + 7 * 86_400 },
      // The withdrawal of the disputed amount, with Stripe's dispute fee (test mode: $15.00).
      balance_transactions: [
        { id: `txn_disp_${n}`, object: "balance_transaction", amount: -order.amount, fee: DISPUTE_FEE, currency: "usd" },
      ],
    };
    stripe.disputes.set(disputeId, { ...dispute });
    return { affiliate, buyer, order, dispute, disputeId };
  };
  const atStripe = (id: string, status: string) => {
    stripe.disputes.get(id)!.status = status;
  };
  const disputeRow = async (id: string) =>
    (await database.db.select().from(paymentDisputes).where(eq(paymentDisputes.id, id)))[0];
  const ledger = async (buyerId: string) =>
    database.db
      .select({ kind: commissionLedger.kind, amount: commissionLedger.amount, status: commissionLedger.status })
      .from(commissionLedger)
      .where(eq(commissionLedger.referredUserId, buyerId))
      .orderBy(commissionLedger.id);
  const operatorMail = async (subject: string) =>
    (await database.db.select().from(mailOutbox).where(eq(mailOutbox.to, operatorEmail))).filter((m) => m.subject === subject);

  it("a dispute holds the commission and tells the operators; a won one releases it and keeps the purchase", async () => {
    const { affiliate, buyer, order, dispute, disputeId } = await referredPurchase();
    const earned = Math.round(order.amount * 0.3);
    expect(await getAffiliateStats(database.db, affiliate.id)).toMatchObject({ pending: earned });

    expect(await send("charge.dispute.created", dispute)).toEqual({ status: 200, outcome: "applied" });
    expect(await disputeRow(disputeId)).toMatchObject({
      status: "open",
      providerStatus: "needs_response",
      orderId: order.id,
      userId: buyer.id,
      amount: order.amount,
      fee: DISPUTE_FEE,
      reason: "fraudulent",
    });
    expect(await ledger(buyer.id)).toEqual([{ kind: "commission", amount: earned, status: "held" }]);
    expect(await getAffiliateStats(database.db, affiliate.id)).toMatchObject({ pending: 0 });
    const opened = await operatorMail("A payment was disputed: respond in Stripe");
    expect(opened.filter((m) => m.text.includes(disputeId))).toHaveLength(1);

    // Evidence submitted, then the bank decides for us.
    atStripe(disputeId, "under_review");
    expect((await send("charge.dispute.updated", { ...dispute, status: "under_review" })).outcome).toBe("applied");
    atStripe(disputeId, "won");
    expect((await send("charge.dispute.closed", { ...dispute, status: "won" })).outcome).toBe("applied");
    expect(await disputeRow(disputeId)).toMatchObject({ status: "won", providerStatus: "won" });
    expect(await ledger(buyer.id)).toEqual([{ kind: "commission", amount: earned, status: "pending" }]);
    expect(await getAffiliateStats(database.db, affiliate.id)).toMatchObject({ pending: earned });
    expect((await orderById(database.db, order.id)).status).toBe("paid");
    expect(await listPurchasedAutomations(database.db, buyer.id)).toHaveLength(1);
    // A late snapshot of the open dispute re-reads 'won' from Stripe: nothing is held again.
    expect((await send("charge.dispute.updated", dispute)).outcome).toBe("ignored");
    expect(await ledger(buyer.id)).toEqual([{ kind: "commission", amount: earned, status: "pending" }]);
    expect(opened).toHaveLength((await operatorMail("A payment was disputed: respond in Stripe")).length);
  });

  it("a lost dispute reverses the commission, ends the purchase and tells the operators, once", async () => {
    const { affiliate, buyer, order, dispute, disputeId } = await referredPurchase();
    await send("charge.dispute.created", dispute);
    atStripe(disputeId, "lost");
    const closed = signedEvent(SECRET, { type: "charge.dispute.closed", object: { ...dispute, status: "lost" } });
    const deliver = () => webhookAction({ request: webhookRequest(closed.body, closed.signature) });
    expect(await deliver()).toMatchObject({ data: { outcome: "applied" } });
    expect(await deliver()).toMatchObject({ data: { outcome: "duplicate" } });

    expect(await disputeRow(disputeId)).toMatchObject({ status: "lost", closedAt: expect.any(Date) });
    expect((await orderById(database.db, order.id)).status).toBe("refunded");
    expect(await listPurchasedAutomations(database.db, buyer.id)).toEqual([]);
    const money = await database.db.select().from(paymentEvents).where(eq(paymentEvents.orderId, order.id));
    expect(money.map((m) => [m.kind, m.providerRef, m.amount])).toEqual([
      ["payment", expect.any(String), order.amount],
      ["refund", disputeId, order.amount],
    ]);
    const entries = await ledger(buyer.id);
    expect(entries.map((e) => [e.kind, e.status])).toEqual([
      ["commission", "pending"],
      ["reversal", "pending"],
    ]);
    expect(entries.reduce((sum, e) => sum + e.amount, 0)).toBe(0);
    expect(await getAffiliateStats(database.db, affiliate.id)).toMatchObject({ pending: 0 });
    const lost = (await operatorMail("A payment dispute was lost")).filter((m) => m.text.includes(disputeId));
    expect(lost).toHaveLength(1);
    expect(lost[0]!.text).toContain(`Order ${order.id} is now refunded`);
    // The operator's record on /admin.
    expect((await listDisputes(database.db)).find((d) => d.id === disputeId)).toMatchObject({
      status: "lost",
      providerStatus: "lost",
      email: buyer.email,
      itemName: order.itemName,
      amount: order.amount,
      fee: DISPUTE_FEE,
    });
    expect(await consoleRows(database.db, "orders", { q: order.id })).toMatchObject([
      { status: "refunded", paid: order.amount, refunded: order.amount },
    ]);

    // Another event of the same closed dispute (funds withdrawn) changes nothing and mails nobody.
    expect((await send("charge.dispute.funds_withdrawn", { ...dispute, status: "lost" })).outcome).toBe("ignored");
    expect(await database.db.select().from(paymentEvents).where(eq(paymentEvents.orderId, order.id))).toHaveLength(2);
    expect((await operatorMail("A payment dispute was lost")).filter((m) => m.text.includes(disputeId))).toHaveLength(1);
  });

  it("Stripe's dispute fee reported later is recorded, also once the dispute is closed", async () => {
    const { order, dispute, disputeId } = await referredPurchase();
    const atStripeNow = stripe.disputes.get(disputeId)!;
    const withdrawal = dispute.balance_transactions;
    atStripeNow.balance_transactions = [];
    expect((await send("charge.dispute.created", dispute)).outcome).toBe("applied");
    expect(await disputeRow(disputeId)).toMatchObject({ status: "open", fee: 0 });
    atStripeNow.balance_transactions = withdrawal;
    expect((await send("charge.dispute.funds_withdrawn", dispute)).outcome).toBe("applied");
    expect(await disputeRow(disputeId)).toMatchObject({ status: "open", fee: DISPUTE_FEE });

    // Won, then the funds come back with the fee returned (where Stripe returns it).
    atStripe(disputeId, "won");
    expect((await send("charge.dispute.closed", { ...dispute, status: "won" })).outcome).toBe("applied");
    atStripeNow.balance_transactions = [
      ...withdrawal,
      { id: `${disputeId}_back`, object: "balance_transaction", amount: order.amount, fee: -DISPUTE_FEE, currency: "usd" },
    ];
    expect((await send("charge.dispute.funds_reinstated", { ...dispute, status: "won" })).outcome).toBe("applied");
    expect(await disputeRow(disputeId)).toMatchObject({ status: "won", fee: 0 });
    expect((await send("charge.dispute.funds_reinstated", { ...dispute, status: "won" })).outcome).toBe("ignored");
  });

  it("out of order: the closed event first, the created one last, converge on the lost dispute", async () => {
    const { buyer, order, dispute, disputeId } = await referredPurchase();
    atStripe(disputeId, "lost");
    expect((await send("charge.dispute.closed", { ...dispute, status: "lost" })).outcome).toBe("applied");
    expect((await send("charge.dispute.created", dispute)).outcome).toBe("ignored");
    expect(await disputeRow(disputeId)).toMatchObject({ status: "lost" });
    expect((await orderById(database.db, order.id)).status).toBe("refunded");
    // Never held after the reversal: commission and reversal are both payable and net to zero.
    const entries = await ledger(buyer.id);
    expect(entries.map((e) => e.status)).toEqual(["pending", "pending"]);
    expect(entries.reduce((sum, e) => sum + e.amount, 0)).toBe(0);
  });

  it("concurrent events of one dispute apply its end once", async () => {
    const { buyer, order, dispute, disputeId } = await referredPurchase();
    atStripe(disputeId, "lost");
    const results = await Promise.all([
      send("charge.dispute.created", dispute),
      send("charge.dispute.funds_withdrawn", { ...dispute, status: "lost" }),
      send("charge.dispute.closed", { ...dispute, status: "lost" }),
    ]);
    expect(results.every((r) => r.status === 200)).toBe(true);
    expect(results.filter((r) => r.outcome === "applied")).toHaveLength(1);
    expect(
      (await database.db.select().from(paymentEvents).where(eq(paymentEvents.orderId, order.id))).map((m) => m.kind),
    ).toEqual(["payment", "refund"]);
    expect((await ledger(buyer.id)).reduce((sum, e) => sum + e.amount, 0)).toBe(0);
    expect((await operatorMail("A payment dispute was lost")).filter((m) => m.text.includes(disputeId))).toHaveLength(1);
  });

  it("a lost dispute of a subscription's invoice ends that order's add-ons and access", async () => {
    const { buyer, order, dispute, disputeId } = await referredPurchase({ kind: "addons", addonIds: ["d-crm"] });
    expect(await hasActiveSubscription(database.db, buyer.id)).toBe(true);
    atStripe(disputeId, "lost");
    expect((await send("charge.dispute.closed", { ...dispute, status: "lost" })).outcome).toBe("applied");
    expect(await disputeRow(disputeId)).toMatchObject({ orderId: order.id, status: "lost" });
    expect((await orderById(database.db, order.id)).status).toBe("refunded");
    expect((await database.db.select().from(userAddons).where(eq(userAddons.userId, buyer.id)))[0]).toMatchObject({
      status: "canceled",
    });
    expect(await hasActiveSubscription(database.db, buyer.id)).toBe(false);
  });

  it("a dispute of a charge that is not ours, or that Stripe no longer knows, is acknowledged and changes nothing", async () => {
    stripe.charges.set("ch_foreign", { id: "ch_foreign", object: "charge", amount: 500, customer: null, payment_intent: null });
    stripe.disputes.set("dp_foreign", {
      id: "dp_foreign",
      object: "dispute",
      amount: 500,
      currency: "usd",
      charge: "ch_foreign",
      reason: "general",
      status: "needs_response",
    });
    expect((await send("charge.dispute.created", stripe.disputes.get("dp_foreign"))).outcome).toBe("ignored");
    expect((await send("charge.dispute.created", { id: "dp_gone", object: "dispute", charge: "ch_x" })).outcome).toBe("ignored");
    expect(await disputeRow("dp_foreign")).toBeUndefined();
  });
});
