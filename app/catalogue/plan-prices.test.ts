import { describe, expect, it } from "vitest";
import {
  amountsIn,
  findPricedPlan,
  LIST_PLAN_CATALOGUE,
  planAmountsText,
  planPriceKey,
  PRICED_PLANS,
  pricePlans,
  sameAmounts,
} from "./plan-prices";
import { BILLING_PLANS, DISTRIBUTOR_PROGRAM, SCALING_TIERS, TRIAL_PLANS } from "./plans";

describe("the plans whose prices an operator sets", () => {
  it("are the three billing plans, five tiers, the two paid member plans and the distributor program, each once", () => {
    expect(PRICED_PLANS.map((p) => p.key)).toEqual([
      "plan-basic",
      "plan-pro",
      "plan-enterprise",
      "scaling-0",
      "scaling-1",
      "scaling-2",
      "scaling-3",
      "scaling-4",
      "member-growth",
      "member-pro",
      "distributor",
    ]);
    expect(PRICED_PLANS.map((p) => p.name)).toEqual([
      "Basic Plan",
      "Pro Plan",
      "Enterprise Plan",
      "Scale 10K",
      "Scale 50K",
      "Scale 100K",
      "Scale 500K",
      "Scale 1M",
      "Growth Member Plan",
      "Pro Member Plan",
      "AI Distributor Program",
    ]);
    expect(findPricedPlan("member-starter")).toBeUndefined();
    expect(findPricedPlan("distributor")).toMatchObject({
      kind: "distributor",
      itemId: "distributor",
      list: { amount: 19900, setupFee: 99700, originalAmount: null },
    });
    expect(findPricedPlan("member-pro")?.list).toEqual({ amount: 700000, originalAmount: 1000000, setupFee: null });
    expect(planPriceKey("scaling", "3")).toBe("scaling-3");
  });
});

describe("pricePlans", () => {
  it("without changes is the typed lists at their list prices", () => {
    expect(LIST_PLAN_CATALOGUE).toEqual({
      billingPlans: BILLING_PLANS,
      scalingTiers: SCALING_TIERS,
      trialPlans: TRIAL_PLANS.map((p) => (p.price > 0 ? { ...p, features: [...p.features, "30% member discount"] } : p)),
      distributor: { setupFee: DISTRIBUTOR_PROGRAM.setupFee, monthlyFee: DISTRIBUTOR_PROGRAM.monthlyFee },
    });
  });

  it("puts each current amount in its plan and leaves the rest, names and allowances alone", () => {
    const priced = pricePlans({
      "plan-pro": { amount: 59900, originalAmount: null, setupFee: null },
      "scaling-4": { amount: 450000, originalAmount: null, setupFee: null },
      "member-growth": { amount: 300000, originalAmount: 450000, setupFee: null },
      distributor: { amount: 24900, originalAmount: null, setupFee: 120000 },
      "no-such-plan": { amount: 1, originalAmount: null, setupFee: null },
    });
    expect(priced.billingPlans.map((p) => p.monthlyPrice)).toEqual([9900, 59900, 99900]);
    expect(priced.billingPlans[1]).toEqual({ ...BILLING_PLANS[1], monthlyPrice: 59900 });
    expect(priced.scalingTiers.map((t) => t.monthlyPrice)).toEqual([19900, 49900, 99900, 249900, 450000]);
    expect(priced.scalingTiers[4]).toMatchObject({ contacts: 1_000_000, sms: 50_000 });
    expect(priced.trialPlans.map((p) => [p.id, p.price, p.originalPrice])).toEqual([
      ["starter", 0, 0],
      ["growth", 300000, 450000],
      ["pro", 700000, 1000000],
    ]);
    expect(priced.distributor).toEqual({ setupFee: 120000, monthlyFee: 24900 });
    // The typed lists are not changed by pricing them.
    expect(BILLING_PLANS[1]!.monthlyPrice).toBe(49900);
  });

  it("a member plan's discount line follows its two prices", () => {
    const priced = pricePlans({ "member-growth": { amount: 300000, originalAmount: 500000, setupFee: null } });
    expect(priced.trialPlans.map((p) => p.features.at(-1))).toEqual([
      "Email support",
      "40% member discount",
      "30% member discount",
    ]);
    const none = pricePlans({ "member-pro": { amount: 700000, originalAmount: 700000, setupFee: null } });
    expect(none.trialPlans[2]!.features).toEqual(TRIAL_PLANS[2]!.features);
    // Pricing never adds the line to the typed list itself.
    expect(TRIAL_PLANS[1]!.features.some((f) => /discount/.test(f))).toBe(false);
  });

  it("the free Starter stays free whatever is stored for it", () => {
    const priced = pricePlans({ "member-starter": { amount: 100, originalAmount: 200, setupFee: null } });
    expect(priced.trialPlans[0]).toMatchObject({ id: "starter", price: 0, originalPrice: 0 });
  });

  it("amountsIn reads one plan's amounts back", () => {
    const priced = pricePlans({ "member-pro": { amount: 650000, originalAmount: 900000, setupFee: null } });
    expect(PRICED_PLANS.map((p) => amountsIn(priced, p).amount)).toEqual([
      9900, 49900, 99900, 19900, 49900, 99900, 249900, 499900, 350000, 650000, 19900,
    ]);
    expect(amountsIn(priced, findPricedPlan("member-pro")!)).toEqual({ amount: 650000, originalAmount: 900000, setupFee: null });
    expect(amountsIn(priced, findPricedPlan("distributor")!)).toEqual({ amount: 19900, originalAmount: null, setupFee: 99700 });
    expect(() => amountsIn(priced, { kind: "scaling", itemId: "9" })).toThrow(/unknown scaling tier/);
  });
});

describe("planAmountsText", () => {
  it("says each kind's amounts in a line", () => {
    expect(PRICED_PLANS.map((p) => planAmountsText(p.list))).toEqual([
      "$99/mo",
      "$499/mo",
      "$999/mo",
      "$199/mo",
      "$499/mo",
      "$999/mo",
      "$2,499/mo",
      "$4,999/mo",
      "$3,500/mo (was $5,000)",
      "$7,000/mo (was $10,000)",
      "$997 setup + $199/mo",
    ]);
    expect(planAmountsText({ amount: 59950, originalAmount: null, setupFee: null }, (c) => `$${(c / 100).toFixed(2)}`)).toBe(
      "$599.50/mo",
    );
    expect(sameAmounts(PRICED_PLANS[0]!.list, { ...PRICED_PLANS[0]!.list })).toBe(true);
    expect(sameAmounts(PRICED_PLANS[10]!.list, { ...PRICED_PLANS[10]!.list, setupFee: 1 })).toBe(false);
  });
});
