import { describe, expect, it } from "vitest";
import {
  dashboardAccessOf,
  dashboardTrialOf,
  deriveEntitlements,
  type EntitlementRows,
  hadTrial,
  type OrderFields,
  orderItemOf,
  planNameOf,
  planOf,
  type SubscriptionRow,
} from "./entitlements";

const DAY = 24 * 60 * 60 * 1000;
const NOW = new Date("2026-11-26T12:00:00Z");
const daysAgo = (n: number) => new Date(NOW.getTime() - n * DAY);

const order = (values: Partial<OrderFields>): OrderFields => ({
  id: "o1",
  provider: "local",
  kind: "app",
  itemId: "7",
  itemName: "Lead Bot",
  pricingTab: "monthly",
  amount: 9900,
  isSubscription: true,
  trialDays: 3,
  setupFee: 0,
  status: "paid",
  subscriptionStatus: null,
  paidAt: daysAgo(1),
  createdAt: daysAgo(1),
  details: {},
  ...values,
});

const subscription = (values: Partial<SubscriptionRow>): SubscriptionRow => ({
  id: 1,
  planName: "Pro",
  planType: "pro",
  status: "active",
  monthlyPrice: 49900,
  currentPeriodEnd: new Date(NOW.getTime() + 20 * DAY),
  reachLimit: 100_000,
  orderId: "plan-order",
  cancelAtPeriodEnd: false,
  updatedAt: daysAgo(10),
  provider: "local",
  ...values,
});

const endedTrial = { trialStarted: true, trialActivatedAt: daysAgo(10), trialEndsAt: daysAgo(3) };
const rows = (values: Partial<EntitlementRows>): EntitlementRows => ({
  trial: null,
  subscriptions: [],
  orders: [],
  addons: [],
  ...values,
});

describe("dashboard trial state", () => {
  it("not started, active until its end, ended at its end instant", () => {
    expect(dashboardTrialOf(null, NOW)).toEqual({ state: "not-started" });
    expect(dashboardTrialOf({ trialStarted: false, trialActivatedAt: null, trialEndsAt: null }, NOW)).toEqual({
      state: "not-started",
    });
    const end = new Date(NOW.getTime() + DAY);
    expect(dashboardTrialOf({ trialStarted: true, trialActivatedAt: daysAgo(6), trialEndsAt: end }, NOW)).toEqual({
      state: "active",
      startedAt: daysAgo(6),
      endsAt: end,
    });
    expect(dashboardTrialOf({ trialStarted: true, trialActivatedAt: daysAgo(7), trialEndsAt: NOW }, NOW)).toMatchObject({
      state: "ended",
      endedAt: NOW,
    });
  });
});

describe("plan and tier rows", () => {
  it("an active row renews at its period end; cancelled, it ends there and grants nothing after", () => {
    expect(planOf(subscription({}), NOW)).toMatchObject({ kind: "plan", name: "Pro", state: "active", price: 49900 });
    expect(planOf(subscription({}), NOW)?.renewsAt).toEqual(new Date(NOW.getTime() + 20 * DAY));
    const ending = planOf(subscription({ cancelAtPeriodEnd: true }), NOW);
    expect(ending).toMatchObject({ state: "ending", renewsAt: null, endsAt: new Date(NOW.getTime() + 20 * DAY) });
    expect(planOf(subscription({ cancelAtPeriodEnd: true, currentPeriodEnd: daysAgo(1) }), NOW)).toBeNull();
    for (const status of ["canceled", "replaced", "past_due"]) expect(planOf(subscription({ status }), NOW)).toBeNull();
  });

  it("a scaling row is a tier; names fall back from plan_name to plan_type to 'Free Trial'", () => {
    expect(planOf(subscription({ planName: "Scale 500K", planType: "scaling" }), NOW)).toMatchObject({
      kind: "scaling",
      name: "Scale 500K",
    });
    expect(planNameOf({ planName: null, planType: "basic" })).toBe("Basic");
    expect(planNameOf({ planName: null, planType: "other" })).toBe("Free Trial");
    expect(planNameOf(null)).toBe("Free Trial");
  });

  it("the newest access-granting row wins", () => {
    const e = deriveEntitlements(
      rows({
        subscriptions: [
          subscription({ id: 1, updatedAt: daysAgo(5) }),
          subscription({ id: 2, planName: "Scale 500K", planType: "scaling", monthlyPrice: 99900, updatedAt: daysAgo(1) }),
        ],
      }),
      NOW,
    );
    expect(e.plan).toBeNull();
    expect(e.scalingTier).toMatchObject({ name: "Scale 500K", price: 99900 });
  });
});

describe("paid orders", () => {
  it("a monthly subscription is trialing until paid_at + trial days, then active", () => {
    const trialing = orderItemOf(order({ paidAt: daysAgo(1) }), NOW);
    expect(trialing).toMatchObject({ state: "trialing", paysForDashboard: false });
    expect(trialing?.trialEndsAt).toEqual(new Date(daysAgo(1).getTime() + 3 * DAY));
    expect(orderItemOf(order({ paidAt: daysAgo(3) }), NOW)).toMatchObject({ state: "active", paysForDashboard: true });
    expect(orderItemOf(order({ trialDays: 0, paidAt: NOW }), NOW)).toMatchObject({ state: "active", paysForDashboard: true });
  });

  it("a lapsed subscription is listed but pays for nothing; an ended or unpaid order is nothing", () => {
    for (const subscriptionStatus of ["past_due", "unpaid", "paused", "incomplete"]) {
      expect(orderItemOf(order({ paidAt: daysAgo(30), subscriptionStatus }), NOW)).toMatchObject({
        state: "lapsed",
        providerStatus: subscriptionStatus,
        paysForDashboard: false,
      });
    }
    expect(orderItemOf(order({ subscriptionStatus: "canceled" }), NOW)).toBeNull();
    expect(orderItemOf(order({ subscriptionStatus: "incomplete_expired" }), NOW)).toBeNull();
    for (const status of ["pending", "declined", "canceled", "refunded"]) expect(orderItemOf(order({ status }), NOW)).toBeNull();
  });

  it("a one-time purchase is owned and never opens the dashboard", () => {
    expect(orderItemOf(order({ isSubscription: false, trialDays: 0 }), NOW)).toMatchObject({
      state: "owned",
      paysForDashboard: false,
    });
  });

  it("a trial that took money at checkout (the distributor's setup fee) pays", () => {
    expect(orderItemOf(order({ kind: "distributor", trialDays: 7, setupFee: 99700 }), NOW)).toMatchObject({
      state: "trialing",
      paysForDashboard: true,
    });
  });
});

describe("dashboard access", () => {
  it("the trial while it runs, then only something paid for", () => {
    expect(dashboardAccessOf({ state: "active", startedAt: null, endsAt: NOW }, false)).toEqual({
      granted: true,
      reason: "trial",
    });
    expect(dashboardAccessOf({ state: "ended", startedAt: null, endedAt: NOW }, true)).toEqual({ granted: true, reason: "paid" });
    expect(dashboardAccessOf({ state: "ended", startedAt: null, endedAt: NOW }, false)).toEqual({
      granted: false,
      reason: "trial-ended",
    });
    expect(dashboardAccessOf({ state: "not-started" }, false)).toEqual({ granted: false, reason: "trial-not-started" });
  });

  it("after the dashboard trial ended, app and package trials do not reopen it, one after another", () => {
    const appTrials = Array.from({ length: 5 }, (_, i) =>
      order({ id: `app-${i}`, itemId: String(i), paidAt: new Date(NOW.getTime() - 12 * 60 * 60 * 1000) }),
    );
    const packageTrial = order({ id: "pkg", kind: "package", itemId: "starter", paidAt: daysAgo(2) });
    const e = deriveEntitlements(rows({ trial: endedTrial, orders: [...appTrials, packageTrial] }), NOW);
    expect(e.dashboardAccess).toEqual({ granted: false, reason: "trial-ended" });
    expect(e.paying).toBe(false);
    // Each app and package is still the customer's while its own trial runs.
    expect(e.apps).toHaveLength(5);
    expect(e.apps.every((a) => a.state === "trialing")).toBe(true);
    expect(e.packages).toMatchObject([{ id: "pkg", state: "trialing" }]);
  });

  it("a monthly app past its trial, a plan, a tier or add-ons open it", () => {
    const cases: Partial<EntitlementRows>[] = [
      { orders: [order({ paidAt: daysAgo(4) })] },
      { subscriptions: [subscription({})] },
      { subscriptions: [subscription({ planType: "scaling", planName: "Scale 500K" })] },
      { orders: [order({ kind: "addons", itemId: "a,b", trialDays: 0 })] },
    ];
    for (const c of cases) {
      expect(deriveEntitlements(rows({ trial: endedTrial, ...c }), NOW).dashboardAccess).toEqual({
        granted: true,
        reason: "paid",
      });
    }
  });
});

describe("monthly total and lists", () => {
  it("sums the plan or tier and every running subscription, not lapsed or one-time ones", () => {
    const e = deriveEntitlements(
      rows({
        subscriptions: [subscription({ planName: "Scale 500K", planType: "scaling", monthlyPrice: 99900 })],
        orders: [
          order({ id: "addons", kind: "addons", itemId: "a,b", amount: 12800, trialDays: 0, paidAt: daysAgo(2) }),
          order({ id: "app-trial", amount: 9900, paidAt: daysAgo(1), createdAt: daysAgo(1) }),
          order({ id: "app-lapsed", amount: 5000, subscriptionStatus: "past_due", paidAt: daysAgo(40) }),
          order({ id: "app-once", amount: 150000, isSubscription: false, trialDays: 0, paidAt: daysAgo(3) }),
        ],
        addons: [
          { addonId: "b", name: "CRM Sync", monthlyPrice: 7900, orderId: "addons" },
          { addonId: "a", name: "SEO Booster", monthlyPrice: 4900, orderId: "addons" },
        ],
      }),
      NOW,
    );
    expect(e.monthlyTotal).toBe(99900 + 12800 + 9900);
    expect(e.addons.map((a) => a.name)).toEqual(["SEO Booster", "CRM Sync"]);
    expect(e.apps.map((a) => a.id)).toEqual(["app-trial", "app-once", "app-lapsed"]);
    expect(e.otherSubscriptions.map((s) => s.id)).toEqual(["app-trial", "addons", "app-lapsed"]);
    expect(e.distributor).toBeNull();
  });

  it("order rows of a plan, tier or member plan are ignored (their user_subscriptions row is the plan)", () => {
    const e = deriveEntitlements(
      rows({ orders: [order({ kind: "plan", trialDays: 0 }), order({ kind: "scaling", trialDays: 0 })] }),
      NOW,
    );
    expect(e).toMatchObject({ plan: null, scalingTier: null, apps: [], otherSubscriptions: [], monthlyTotal: 0, paying: false });
  });
});

describe("one free trial per item", () => {
  it("an item's trial stays used after its order is refunded or its subscription canceled", () => {
    const e = deriveEntitlements(
      rows({
        orders: [
          order({ id: "refunded", itemId: "7", status: "refunded" }),
          order({ id: "canceled", kind: "package", itemId: "starter", subscriptionStatus: "canceled" }),
        ],
      }),
      NOW,
    );
    expect(e.apps).toEqual([]);
    expect(hadTrial(e, "app", "7")).toBe(true);
    expect(hadTrial(e, "package", "starter")).toBe(true);
    // Another item, or the same id of another kind, still has its own trial.
    expect(hadTrial(e, "app", "8")).toBe(false);
    expect(hadTrial(e, "package", "7")).toBe(false);
  });

  it("counts only fulfilled subscription orders that had a trial", () => {
    const e = deriveEntitlements(
      rows({
        orders: [
          order({ id: "unpaid", itemId: "1", status: "pending", paidAt: null }),
          order({ id: "no-trial", itemId: "2", trialDays: 0 }),
          order({ id: "one-time", itemId: "3", isSubscription: false, pricingTab: "onetime" }),
          order({ id: "member", kind: "member", itemId: "pro", paidAt: daysAgo(30) }),
        ],
      }),
      NOW,
    );
    expect(e.trialsUsed).toEqual([{ kind: "member", itemId: "pro", orderId: "member" }]);
    expect(["1", "2", "3"].some((id) => hadTrial(e, "app", id))).toBe(false);
  });

  it("the order being fulfilled is not its own earlier trial", () => {
    const e = deriveEntitlements(rows({ orders: [order({ id: "this" })] }), NOW);
    expect(hadTrial(e, "app", "7", "this")).toBe(false);
    expect(hadTrial(e, "app", "7", "other")).toBe(true);
  });
});
