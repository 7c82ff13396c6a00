import { describe, expect, it } from "vitest";
import {
  amountsForKind,
  amountsIn,
  amountsOfKind,
  findPricedPlan,
  LIST_PLAN_CATALOGUE,
  planAmountsText,
  planPriceKey,
  PRICED_PLANS,
  pricePlans,
  sameAmounts,
} from "./plan-prices";
import { BILLING_PLANS, DISTRIBUTOR_PROGRAM, QUICK_PICK_PLANS, SCALING_TIERS, TRIAL_PLANS } from "./plans";

describe("the plans whose prices an operator sets", () => {
  it("are the three billing plans, five tiers, the two paid member plans, the distributor program and the three packages, each once", () => {
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
      "package-starter",
      "package-professional",
      "package-enterprise",
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
      "Starter Package",
      "Professional Package",
      "Enterprise Package",
    ]);
    expect(findPricedPlan("member-starter")).toBeUndefined();
    expect(findPricedPlan("distributor")).toMatchObject({
      kind: "distributor",
      itemId: "distributor",
      list: { amount: 19900, setupFee: 99700, originalAmount: null },
    });
    expect(findPricedPlan("member-pro")?.list).toEqual({
      amount: 700000,
      originalAmount: 1000000,
      setupFee: null,
      monthlyAmount: null,
    });
    expect(findPricedPlan("package-starter")).toMatchObject({
      kind: "package",
      itemId: "starter",
      list: { amount: 350000, originalAmount: 500000, setupFee: null, monthlyAmount: 200000 },
    });
    expect(findPricedPlan("package-free")).toBeUndefined();
    expect(planPriceKey("scaling", "3")).toBe("scaling-3");
    expect(planPriceKey("package", "enterprise")).toBe("package-enterprise");
  });
});

describe("pricePlans", () => {
  it("without changes is the typed lists at their list prices", () => {
    expect(LIST_PLAN_CATALOGUE).toEqual({
      billingPlans: BILLING_PLANS,
      scalingTiers: SCALING_TIERS,
      trialPlans: TRIAL_PLANS.map((p) => (p.price > 0 ? { ...p, features: [...p.features, "30% member discount"] } : p)),
      distributor: { setupFee: DISTRIBUTOR_PROGRAM.setupFee, monthlyFee: DISTRIBUTOR_PROGRAM.monthlyFee },
      packages: QUICK_PICK_PLANS,
    });
  });

  it("puts each current amount in its plan and leaves the rest, names and allowances alone", () => {
    const priced = pricePlans({
      "plan-pro": { amount: 59900, originalAmount: null, setupFee: null, monthlyAmount: null },
      "scaling-4": { amount: 450000, originalAmount: null, setupFee: null, monthlyAmount: null },
      "member-growth": { amount: 300000, originalAmount: 450000, setupFee: null, monthlyAmount: null },
      distributor: { amount: 24900, originalAmount: null, setupFee: 120000, monthlyAmount: null },
      "no-such-plan": { amount: 1, originalAmount: null, setupFee: null, monthlyAmount: null },
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
    expect(priced.packages).toEqual(QUICK_PICK_PLANS);
    // The typed lists are not changed by pricing them.
    expect(BILLING_PLANS[1]!.monthlyPrice).toBe(49900);
  });

  it("puts a package's three amounts in it, and leaves its name, features and the other packages alone", () => {
    const priced = pricePlans({
      "package-professional": { amount: 550000, originalAmount: 800000, setupFee: null, monthlyAmount: 320000 },
      // A package is priced by its key alone: a billing plan's amounts never reach it.
      "plan-enterprise": { amount: 120000, originalAmount: null, setupFee: null, monthlyAmount: null },
    });
    expect(priced.packages.map((p) => [p.id, p.price, p.originalPrice, p.monthlyPrice])).toEqual([
      ["starter", 350000, 500000, 200000],
      ["professional", 550000, 800000, 320000],
      ["enterprise", 2500000, 3500000, 500000],
    ]);
    expect(priced.packages[1]).toEqual({ ...QUICK_PICK_PLANS[1], price: 550000, originalPrice: 800000, monthlyPrice: 320000 });
    expect(QUICK_PICK_PLANS[1]!.price).toBe(500000);
    // An amount a stored row lacks (none can, by the table's checks) is the list amount.
    const partial = pricePlans({
      "package-starter": { amount: 360000, originalAmount: null, setupFee: null, monthlyAmount: null },
    });
    expect(partial.packages[0]).toMatchObject({ price: 360000, originalPrice: 500000, monthlyPrice: 200000 });
  });

  it("a member plan's discount line follows its two prices", () => {
    const priced = pricePlans({
      "member-growth": { amount: 300000, originalAmount: 500000, setupFee: null, monthlyAmount: null },
    });
    expect(priced.trialPlans.map((p) => p.features.at(-1))).toEqual([
      "Email support",
      "40% member discount",
      "30% member discount",
    ]);
    const none = pricePlans({ "member-pro": { amount: 700000, originalAmount: 700000, setupFee: null, monthlyAmount: null } });
    expect(none.trialPlans[2]!.features).toEqual(TRIAL_PLANS[2]!.features);
    // Pricing never adds the line to the typed list itself.
    expect(TRIAL_PLANS[1]!.features.some((f) => /discount/.test(f))).toBe(false);
  });

  it("the free Starter stays free whatever is stored for it", () => {
    const priced = pricePlans({ "member-starter": { amount: 100, originalAmount: 200, setupFee: null, monthlyAmount: null } });
    expect(priced.trialPlans[0]).toMatchObject({ id: "starter", price: 0, originalPrice: 0 });
  });

  it("amountsIn reads one plan's amounts back", () => {
    const priced = pricePlans({ "member-pro": { amount: 650000, originalAmount: 900000, setupFee: null, monthlyAmount: null } });
    expect(PRICED_PLANS.map((p) => amountsIn(priced, p).amount)).toEqual([
      9900, 49900, 99900, 19900, 49900, 99900, 249900, 499900, 350000, 650000, 19900, 350000, 500000, 2500000,
    ]);
    expect(amountsIn(priced, findPricedPlan("package-enterprise")!)).toEqual({
      amount: 2500000,
      originalAmount: 3500000,
      setupFee: null,
      monthlyAmount: 500000,
    });
    expect(() => amountsIn(priced, { kind: "package", itemId: "basic" })).toThrow(/unknown package/);
    for (const plan of PRICED_PLANS) expect(amountsIn(LIST_PLAN_CATALOGUE, plan)).toEqual(plan.list);
    expect(amountsIn(priced, findPricedPlan("member-pro")!)).toEqual({
      amount: 650000,
      originalAmount: 900000,
      setupFee: null,
      monthlyAmount: null,
    });
    expect(amountsIn(priced, findPricedPlan("distributor")!)).toEqual({
      amount: 19900,
      originalAmount: null,
      setupFee: 99700,
      monthlyAmount: null,
    });
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
      "$3,500 (was $5,000) or $2,000/mo",
      "$5,000 (was $7,500) or $3,000/mo",
      "$25,000 (was $35,000) or $5,000/mo",
    ]);
    expect(
      planAmountsText(
        { amount: 59950, originalAmount: null, setupFee: null, monthlyAmount: null },
        (c) => `$${(c / 100).toFixed(2)}`,
      ),
    ).toBe("$599.50/mo");
    expect(sameAmounts(PRICED_PLANS[0]!.list, { ...PRICED_PLANS[0]!.list })).toBe(true);
    expect(sameAmounts(PRICED_PLANS[10]!.list, { ...PRICED_PLANS[10]!.list, setupFee: 1 })).toBe(false);
  });
});

describe("the amounts of a kind", () => {
  const all = { amount: 1, originalAmount: 2, setupFee: 3, monthlyAmount: 4 };
  it("amountsForKind keeps what a kind's rows store and nulls the rest", () => {
    expect(amountsForKind("plan", all)).toEqual({ amount: 1, originalAmount: null, setupFee: null, monthlyAmount: null });
    expect(amountsForKind("member", all)).toEqual({ amount: 1, originalAmount: 2, setupFee: null, monthlyAmount: null });
    expect(amountsForKind("distributor", all)).toEqual({ amount: 1, originalAmount: null, setupFee: 3, monthlyAmount: null });
    expect(amountsForKind("package", all)).toEqual({ amount: 1, originalAmount: 2, setupFee: null, monthlyAmount: 4 });
  });

  it("amountsOfKind is what an audit entry records: only the kind's amounts", () => {
    expect(amountsOfKind("scaling", all)).toEqual({ amount: 1 });
    expect(amountsOfKind("member", all)).toEqual({ amount: 1, originalAmount: 2 });
    expect(amountsOfKind("distributor", all)).toEqual({ amount: 1, setupFee: 3 });
    expect(amountsOfKind("package", all)).toEqual({ amount: 1, originalAmount: 2, monthlyAmount: 4 });
  });

  it("sameAmounts compares a package's monthly price too", () => {
    const starter = findPricedPlan("package-starter")!.list;
    expect(sameAmounts(starter, { ...starter })).toBe(true);
    expect(sameAmounts(starter, { ...starter, monthlyAmount: 210000 })).toBe(false);
  });
});
