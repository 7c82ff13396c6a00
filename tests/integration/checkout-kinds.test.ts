import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GOALS, TIMELINES } from "~/catalogue/goals";
import { BILLING_PLANS, QUICK_PICK_PLANS, SCALING_TIERS } from "~/catalogue/plans";
import { quotePackage, type PaymentMode } from "~/catalogue/pricing";
import { checkoutRequestSchema } from "~/lib/checkout-request";
import { CheckoutError, DISTRIBUTOR_ALREADY_OWNED } from "~/server/billing/checkout-error.server";
import { createCheckout } from "~/server/billing/create-checkout.server";
import { fulfilOrder } from "~/server/billing/fulfil-order.server";
import { ownsDistributorProgram } from "~/server/billing/owned-items.server";
import { recordRefund } from "~/server/billing/record-payment.server";
import type { CheckoutProvider } from "~/server/billing/provider-types.server";
import { setCheckoutProvider } from "~/server/billing/provider.server";
import { cancelLocalSubscription } from "~/server/billing/subscriptions.server";
import { seedCatalogue } from "~/server/catalogue/seed.server";
import {
  affiliates,
  commissionLedger,
  orders,
  paymentEvents,
  referrals,
  userAddons,
  userSubscriptions,
} from "~/server/db/schema";
import { getSubscriptionSummary } from "~/server/billing/subscription-summary.server";
import { hasActiveSubscription } from "~/server/trial/trial.server";
import { engine, freshDatabase, insertTestAddons, orderById, userMaker } from "./support/db";

const TEST_ADDONS = [
  { id: "t-seo", name: "SEO Booster", category: "Marketing", monthlyPrice: 4900 },
  { id: "t-crm", name: "CRM Sync", category: "Sales", monthlyPrice: 7900 },
  { id: "t-bot", name: "Voice Bot", category: "AI", monthlyPrice: 12900 },
  { id: "t-sms", name: "SMS Pack", category: "Marketing", monthlyPrice: 2900 },
  { id: "t-old", name: "Retired", category: "Analytics", monthlyPrice: 1900, isActive: false },
];

describe(`checkout of every kind (${engine})`, () => {
  let database: Awaited<ReturnType<typeof freshDatabase>>;
  const newUser = userMaker(() => database.db, "kinds");
  const paymentsOf = (userId: string) => database.db.select().from(paymentEvents).where(eq(paymentEvents.userId, userId));

  beforeAll(async () => {
    database = await freshDatabase();
    await seedCatalogue(database.db);
    await insertTestAddons(database.db, TEST_ADDONS, ["a", "b", "c", "d"]);
  });
  afterAll(async () => {
    setCheckoutProvider(undefined);
    await database.cleanup();
  });

  it("packages: every plan, mode, rush and funnel multiplier charges quotePackage's amount", async () => {
    const buyer = await newUser();
    const combos: { goal?: string; timeline?: string }[] = [
      {},
      ...GOALS.flatMap((g) => TIMELINES.map((t) => ({ goal: g.id, timeline: t.id }))),
      { goal: "nope", timeline: "standard" },
    ];
    for (const plan of QUICK_PICK_PLANS) {
      for (const mode of ["one-time", "monthly"] as PaymentMode[]) {
        for (const rush of [false, true]) {
          for (const funnel of combos.slice(0, 6)) {
            const { orderId } = await createCheckout(database.db, buyer, {
              kind: "package",
              planId: plan.id,
              mode,
              rush,
              ...funnel,
            });
            const q = quotePackage(plan, { mode, rush, ...funnel });
            expect(await orderById(database.db, orderId)).toMatchObject({
              kind: "package",
              itemId: plan.id,
              amount: q.amount,
              isSubscription: mode === "monthly",
              trialDays: 3,
              pricingTab: q.pricingType,
              details: expect.objectContaining({ mode, rush: q.rush, multiplier: q.multiplier, timeline: q.timeline }),
            });
          }
        }
      }
    }
    // Spot checks against spec section 9 numbers: Professional one-time, add_ai (0.8) x standard, rush x1.5.
    const { orderId } = await createCheckout(database.db, buyer, {
      kind: "package",
      planId: "professional",
      mode: "one-time",
      rush: true,
      goal: "add_ai",
      timeline: "standard",
    });
    expect((await orderById(database.db, orderId)).amount).toBe(600000);
  });

  it("packages: one rush multiplier per purchase, and the order records the delivery it was sold with", async () => {
    const buyer = await newUser();
    const order = async (rush: boolean, goal: string, timeline: string) =>
      orderById(
        database.db,
        (await createCheckout(database.db, buyer, { kind: "package", planId: "starter", mode: "one-time", rush, goal, timeline }))
          .orderId,
      );
    // The funnel's Rush timeline, either button: $3,500 x 1.5 = $5,250, rush delivery (not x2.25 = $7,875).
    for (const rush of [false, true])
      expect(await order(rush, "new_app", "rush")).toMatchObject({
        amount: 525000,
        pricingTab: "rush",
        details: expect.objectContaining({ rush: true, multiplier: 1.5, timeline: "24-48 hours", funnelTimeline: "rush" }),
      });
    // The Rush button on an 8-week timeline: rush replaces the 15% off, $3,500 x 1.5.
    expect(await order(true, "new_app", "8weeks")).toMatchObject({
      amount: 525000,
      pricingTab: "rush",
      details: expect.objectContaining({ rush: true, multiplier: 1.5, timeline: "24-48 hours" }),
    });
    expect(await order(false, "new_app", "8weeks")).toMatchObject({
      amount: 297500,
      pricingTab: "standard",
      details: expect.objectContaining({ rush: false, multiplier: 0.85, timeline: "5-7 days" }),
    });
  });

  it("billing plans and scaling tiers charge their monthly price as subscriptions", async () => {
    const buyer = await newUser();
    for (const plan of BILLING_PLANS) {
      const { orderId } = await createCheckout(database.db, buyer, { kind: "plan", planType: plan.type });
      expect(await orderById(database.db, orderId)).toMatchObject({
        kind: "plan",
        amount: plan.monthlyPrice,
        isSubscription: true,
        trialDays: 0,
      });
    }
    for (const [tierIndex, tier] of SCALING_TIERS.entries()) {
      const { orderId } = await createCheckout(database.db, buyer, { kind: "scaling", tierIndex });
      expect(await orderById(database.db, orderId)).toMatchObject({
        kind: "scaling",
        amount: tier.monthlyPrice,
        isSubscription: true,
      });
    }
  });

  it("the distributor: $199/month with a $997 setup fee and a 7-day trial, for the buyer's own details", async () => {
    const buyer = await newUser();
    const { orderId, url } = await createCheckout(database.db, buyer, {
      kind: "distributor",
      email: "Owner@Acme.example",
      fullName: "Ada Owner",
      businessName: "Acme Automation",
    });
    expect(url).toMatch(/^\/checkout\/local\/cs_local_/);
    expect(await orderById(database.db, orderId)).toMatchObject({
      kind: "distributor",
      amount: 19900,
      setupFee: 99700,
      trialDays: 7,
      isSubscription: true,
      details: { email: "owner@acme.example", fullName: "Ada Owner", businessName: "Acme Automation" },
      cancelPath: "/distributors?canceled=true",
    });
  });

  it("the distributor program is bought once: a paid membership refuses a second checkout with 409 until it ends", async () => {
    const buyer = await newUser();
    const join = () =>
      createCheckout(database.db, buyer, { kind: "distributor", email: buyer.email, fullName: "Ada", businessName: "Ada Ltd" });
    const countOrders = async () => (await database.db.select().from(orders).where(eq(orders.userId, buyer.id))).length;
    // Open, declined or abandoned checkouts are not a membership.
    const first = await join();
    const second = await join();
    await database.db.update(orders).set({ status: "declined" }).where(eq(orders.id, second.orderId));
    expect(await ownsDistributorProgram(database.db, buyer.id)).toBe(false);
    await fulfilOrder(database.db, first.sessionId);
    expect(await ownsDistributorProgram(database.db, buyer.id)).toBe(true);
    const before = await countOrders();
    await expect(join()).rejects.toMatchObject({
      code: "already_owned",
      status: 409,
      message: DISTRIBUTOR_ALREADY_OWNED,
    });
    expect(await countOrders()).toBe(before);
    // A past-due membership is still held (fixed by paying, not by joining again) ...
    await database.db.update(orders).set({ subscriptionStatus: "past_due" }).where(eq(orders.id, first.orderId));
    await expect(join()).rejects.toMatchObject({ code: "already_owned", status: 409 });
    // ... an ended one is not: the subscription's end, or the order canceled with it.
    await database.db.update(orders).set({ subscriptionStatus: "canceled" }).where(eq(orders.id, first.orderId));
    expect(await ownsDistributorProgram(database.db, buyer.id)).toBe(false);
    await database.db.update(orders).set({ subscriptionStatus: null, status: "canceled" }).where(eq(orders.id, first.orderId));
    const again = await join();
    expect(await orderById(database.db, again.orderId)).toMatchObject({ kind: "distributor", status: "pending" });
    // Another account is never affected by this one's membership.
    const other = await newUser();
    await fulfilOrder(database.db, again.sessionId);
    expect(await ownsDistributorProgram(database.db, other.id)).toBe(false);
  });

  it("add-ons: the bundle charges the sum of catalogue prices; unknown, inactive, duplicate or owned ones are refused", async () => {
    const buyer = await newUser();
    const { orderId, sessionId } = await createCheckout(database.db, buyer, {
      kind: "addons",
      addonIds: ["t-seo", "t-crm", "t-bot"],
    });
    expect(await orderById(database.db, orderId)).toMatchObject({ amount: 4900 + 7900 + 12900, isSubscription: true });
    await expect(createCheckout(database.db, buyer, { kind: "addons", addonIds: ["t-old"] })).rejects.toThrow(CheckoutError);
    await expect(createCheckout(database.db, buyer, { kind: "addons", addonIds: ["nope"] })).rejects.toThrow(
      "Unknown or unavailable add-on",
    );
    await expect(createCheckout(database.db, buyer, { kind: "addons", addonIds: ["t-seo", "t-seo"] })).rejects.toThrow(
      "Each add-on can be in the cart once",
    );
    await fulfilOrder(database.db, sessionId);
    const owned = await database.db.select().from(userAddons).where(eq(userAddons.userId, buyer.id));
    expect(owned.map((o) => [o.addonId, o.status]).sort()).toEqual([
      ["t-bot", "active"],
      ["t-crm", "active"],
      ["t-seo", "active"],
    ]);
    await expect(createCheckout(database.db, buyer, { kind: "addons", addonIds: ["t-sms", "t-crm"] })).rejects.toThrow(
      "You already own one of these add-ons",
    );
  });

  it("a paid plan makes the account active; a new tier replaces it; a local cancel keeps it until the period ends", async () => {
    const buyer = await newUser();
    expect(await hasActiveSubscription(database.db, buyer.id)).toBe(false);
    const pro = await createCheckout(database.db, buyer, { kind: "plan", planType: "pro" });
    expect(await hasActiveSubscription(database.db, buyer.id)).toBe(false);
    await fulfilOrder(database.db, pro.sessionId);
    expect(await hasActiveSubscription(database.db, buyer.id)).toBe(true);
    expect(await getSubscriptionSummary(database.db, buyer.id)).toMatchObject({
      active: true,
      planName: "Pro",
      planType: "pro",
      monthlyPrice: 49900,
      reachLimit: 100_000,
    });

    const tier = await createCheckout(database.db, buyer, { kind: "scaling", tierIndex: 3 });
    await fulfilOrder(database.db, tier.sessionId);
    const rows = await database.db.select().from(userSubscriptions).where(eq(userSubscriptions.userId, buyer.id));
    expect(rows.map((r) => [r.planName, r.status]).sort()).toEqual([
      ["Pro", "replaced"],
      ["Scale 500K", "active"],
    ]);
    expect(await getSubscriptionSummary(database.db, buyer.id)).toMatchObject({ planName: "Scale 500K", reachLimit: 500_000 });

    expect(await cancelLocalSubscription(database.db, buyer.id)).toBe(true);
    expect(await hasActiveSubscription(database.db, buyer.id)).toBe(true);
    await database.db
      .update(userSubscriptions)
      .set({ currentPeriodEnd: new Date(Date.now() - 1000) })
      .where(eq(userSubscriptions.userId, buyer.id));
    expect(await hasActiveSubscription(database.db, buyer.id)).toBe(false);
    expect(await cancelLocalSubscription(database.db, (await newUser()).id)).toBe(false);
  });

  it("each fulfilment records one payment event of the amount due today; a trial subscription records its setup fee only", async () => {
    const buyer = await newUser();
    const app = await createCheckout(database.db, buyer, { kind: "app", appId: 7, tab: "base" });
    const distributor = await createCheckout(database.db, buyer, {
      kind: "distributor",
      email: buyer.email,
      fullName: "B",
      businessName: "B Ltd",
    });
    const monthlyApp = await createCheckout(database.db, buyer, { kind: "app", appId: 7, tab: "monthly" });
    await Promise.all(
      [app, distributor, monthlyApp].flatMap((c) => [
        fulfilOrder(database.db, c.sessionId),
        fulfilOrder(database.db, c.sessionId),
      ]),
    );
    const events = await paymentsOf(buyer.id);
    const byOrder = new Map(events.map((e) => [e.orderId, e]));
    expect(events).toHaveLength(2);
    expect(byOrder.get(app.orderId)).toMatchObject({
      kind: "payment",
      amount: (await orderById(database.db, app.orderId)).amount,
    });
    expect(byOrder.get(distributor.orderId)).toMatchObject({ kind: "payment", amount: 99700 });
    // A monthly app with a 3-day trial charges nothing today; its first invoice is a later event.
    expect(byOrder.has(monthlyApp.orderId)).toBe(false);
  });

  it("an attributed customer's payment accrues 30% once; a refund reverses it", async () => {
    const affiliate = await newUser();
    const customer = await newUser();
    await database.db.insert(affiliates).values({ userId: affiliate.id, username: `aff-${affiliate.id}` });
    await database.db.insert(referrals).values({ referredUserId: customer.id, affiliateUserId: affiliate.id });
    const order = await createCheckout(database.db, customer, { kind: "plan", planType: "enterprise" });
    await Promise.all(Array.from({ length: 4 }, () => fulfilOrder(database.db, order.sessionId)));
    const ledger = () => database.db.select().from(commissionLedger).where(eq(commissionLedger.affiliateUserId, affiliate.id));
    expect((await ledger()).map((l) => [l.kind, l.amount])).toEqual([["commission", 29970]]);

    const refund = {
      userId: customer.id,
      orderId: order.orderId,
      amount: 99900,
      provider: "local",
      providerRef: `refund-${order.sessionId}`,
    };
    expect(await recordRefund(database.db, refund)).toBe(true);
    expect(await recordRefund(database.db, refund)).toBe(false);
    expect((await ledger()).map((l) => [l.kind, l.amount]).sort()).toEqual([
      ["commission", 29970],
      ["reversal", -29970],
    ]);
  });

  it("a provider failure leaves a failed order and answers 'Payment system is currently unavailable'", async () => {
    const broken: CheckoutProvider = {
      name: "local",
      createSession: () => Promise.reject(new Error("Invalid API Key provided: sk_test_***")),
    };
    setCheckoutProvider(broken);
    const buyer = await newUser();
    try {
      await expect(createCheckout(database.db, buyer, { kind: "plan", planType: "basic" })).rejects.toMatchObject({
        code: "provider_unavailable",
        status: 503,
        message: "Payment system is currently unavailable. Please try again later.",
      });
    } finally {
      setCheckoutProvider(undefined);
    }
    const rows = await database.db.select().from(orders).where(eq(orders.userId, buyer.id));
    expect(rows.map((r) => r.status)).toEqual(["failed"]);
  });

  it("the request schema refuses amounts, prices, discounts and unknown kinds", () => {
    const bad = [
      { kind: "plan", planType: "pro", amount: 1 },
      { kind: "package", planId: "starter", mode: "one-time", rush: false, multiplier: 0.01 },
      { kind: "scaling", tierIndex: 5 },
      { kind: "scaling", tierIndex: -1 },
      { kind: "addons", addonIds: [] },
      { kind: "distributor", email: "not-an-email", fullName: "A", businessName: "B" },
      { kind: "distributor", email: "a@b.example", fullName: " ", businessName: "B" },
      { kind: "coupon", code: "FREE" },
      { kind: "app", appId: 7, tab: "base", price: 0 },
    ];
    const accepted = bad.filter((body) => checkoutRequestSchema.safeParse(body).success);
    expect(accepted).toEqual([]);
  });
});
