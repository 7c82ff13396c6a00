import { describe, expect, it } from "vitest";
import { funnelMultiplier, GOALS, TIMELINES } from "./goals";
import { pricePlans } from "./plan-prices";
import { BILLING_PLANS, DISTRIBUTOR_PROGRAM, QUICK_PICK_PLANS, SCALING_TIERS, TRIAL_PLANS } from "./plans";
import {
  findQuickPickPlan,
  formatCount,
  formatDollars,
  formatShortDollars,
  multiplierBadge,
  orderAmountLines,
  quoteAddons,
  quoteApp,
  quoteBillingPlan,
  quoteDistributor,
  quoteMemberPlan,
  quotePackage,
  quoteScalingTier,
  scalingTierName,
} from "./pricing";

const plan = (id: string) => {
  const p = findQuickPickPlan(id);
  if (!p) throw new Error(id);
  return p;
};

describe("funnelMultiplier", () => {
  it("multiplies goal by timeline", () => {
    expect(funnelMultiplier("add_ai", "standard")).toBe(0.8);
    expect(funnelMultiplier("redesign", "rush")).toBe(2.25);
    expect(funnelMultiplier("add_ai", "2weeks")).toBe(0.88);
    expect(funnelMultiplier("new_app", "8weeks")).toBe(0.85);
  });
  it("covers every goal x timeline pair with the spec's factors", () => {
    const goals = { new_app: 1, add_ai: 0.8, redesign: 1.5 } as Record<string, number>;
    const timelines = {
      rush: 1.5,
      "1week": 1.2,
      "2weeks": 1.1,
      standard: 1,
      "4weeks": 0.95,
      "6weeks": 0.9,
      "8weeks": 0.85,
    } as Record<string, number>;
    expect(GOALS.map((g) => g.id).sort()).toEqual(Object.keys(goals).sort());
    expect(TIMELINES.map((t) => t.id).sort()).toEqual(Object.keys(timelines).sort());
    for (const g of GOALS)
      for (const t of TIMELINES) expect(funnelMultiplier(g.id, t.id)).toBeCloseTo(goals[g.id]! * timelines[t.id]!, 10);
  });
  it("is undefined for unknown or missing ids", () => {
    expect(funnelMultiplier("nope", "standard")).toBeUndefined();
    expect(funnelMultiplier("add_ai", undefined)).toBeUndefined();
    expect(funnelMultiplier(null, null)).toBeUndefined();
  });
});

describe("multiplierBadge", () => {
  it("shows a discount below 1 and a premium above 1", () => {
    expect(multiplierBadge(0.8)).toEqual({ kind: "discount", text: "20% DISCOUNT Applied!" });
    expect(multiplierBadge(0.88)).toEqual({ kind: "discount", text: "12% DISCOUNT Applied!" });
    expect(multiplierBadge(1.5)).toEqual({ kind: "premium", text: "50% Rush Premium Applied" });
    expect(multiplierBadge(2.25)?.text).toBe("125% Rush Premium Applied");
  });
  it("rounds half a percent up whatever the binary fraction of the product", () => {
    // redesign x 8 weeks and redesign x 4 weeks: 27.5% and 42.5% (27% and 43% before).
    expect(multiplierBadge(funnelMultiplier("redesign", "8weeks"))?.text).toBe("28% Rush Premium Applied");
    expect(multiplierBadge(funnelMultiplier("redesign", "4weeks"))?.text).toBe("43% Rush Premium Applied");
    expect(multiplierBadge(funnelMultiplier("add_ai", "standard"))?.text).toBe("20% DISCOUNT Applied!");
  });
  it("shows nothing at 1 or without a multiplier", () => {
    expect(multiplierBadge(1)).toBeNull();
    expect(multiplierBadge(undefined)).toBeNull();
  });
});

describe("quotePackage", () => {
  it("uses the spec's cents for each plan", () => {
    expect(QUICK_PICK_PLANS.map((p) => [p.price, p.monthlyPrice])).toEqual([
      [350000, 200000],
      [500000, 300000],
      [2500000, 500000],
    ]);
  });
  it("quotes a package at the amounts it is given: its current ones, not the list's", () => {
    const [starter] = pricePlans({
      "package-starter": { amount: 400000, originalAmount: 500000, setupFee: null, monthlyAmount: 250000 },
    }).packages;
    expect(quotePackage(starter!, { mode: "one-time", rush: false }).amount).toBe(400000);
    expect(quotePackage(starter!, { mode: "monthly", rush: false }).amount).toBe(250000);
    expect(quotePackage(starter!, { mode: "one-time", rush: true, goal: "add_ai", timeline: "standard" }).amount).toBe(480000);
  });
  it("scales one-time prices by the funnel's goal x timeline", () => {
    expect(quotePackage(plan("starter"), { mode: "one-time", rush: false, goal: "add_ai", timeline: "standard" }).amount).toBe(
      280000,
    );
    expect(quotePackage(plan("professional"), { mode: "one-time", rush: false, goal: "add_ai", timeline: "2weeks" }).amount).toBe(
      440000,
    );
    expect(quotePackage(plan("enterprise"), { mode: "one-time", rush: false }).amount).toBe(2500000);
  });
  it("ignores an unknown or half funnel, like funnelMultiplier", () => {
    expect(quotePackage(plan("starter"), { mode: "one-time", rush: false, goal: "nope", timeline: "rush" })).toMatchObject({
      amount: 350000,
      rush: false,
      multiplier: 1,
    });
    expect(quotePackage(plan("starter"), { mode: "one-time", rush: false, timeline: "rush" }).amount).toBe(350000);
  });
  it("adds 50% for rush with its 24-48 hour timeline", () => {
    const q = quotePackage(plan("starter"), { mode: "one-time", rush: true });
    expect(q).toMatchObject({
      amount: 525000,
      pricingType: "rush",
      timeline: "24-48 hours",
      isSubscription: false,
      trialDays: 3,
      rushIncluded: false,
    });
    expect(quotePackage(plan("starter"), { mode: "one-time", rush: false })).toMatchObject({
      pricingType: "standard",
      timeline: "5-7 days",
    });
  });
  it("applies the multiplier to monthly amounts too, as a subscription", () => {
    const q = quotePackage(plan("professional"), { mode: "monthly", rush: false, goal: "redesign", timeline: "standard" });
    expect(q).toMatchObject({ amount: 450000, isSubscription: true });
  });
  it("rush replaces the timeline's factor: goal x 1.5, never goal x timeline x 1.5", () => {
    // Starter $3,500, add AI (x0.8) on 8 weeks (x0.85): rush is 3500 x 0.8 x 1.5 = $4,200.
    expect(quotePackage(plan("starter"), { mode: "one-time", rush: true, goal: "add_ai", timeline: "8weeks" })).toMatchObject({
      amount: 420000,
      multiplier: 1.2,
      rush: true,
      timeline: "24-48 hours",
    });
    for (const g of GOALS)
      for (const t of TIMELINES)
        for (const p of QUICK_PICK_PLANS) {
          const q = quotePackage(p, { mode: "one-time", rush: true, goal: g.id, timeline: t.id });
          expect(q.amount).toBe(Math.round((p.price / 100) * g.multiplier * 1.5) * 100);
        }
  });
  it("a Rush funnel timeline is the rush price once: both buttons sell 24-48 hours at x1.5, never x2.25", () => {
    const standard = quotePackage(plan("starter"), { mode: "one-time", rush: false, goal: "new_app", timeline: "rush" });
    const rush = quotePackage(plan("starter"), { mode: "one-time", rush: true, goal: "new_app", timeline: "rush" });
    expect(standard).toMatchObject({
      amount: 525000,
      rush: true,
      rushIncluded: true,
      pricingType: "rush",
      timeline: "24-48 hours",
    });
    expect(rush).toEqual(standard);
    // The redesign goal is a premium build, not a second rush: x1.5 for it, x1.5 for rush.
    expect(quotePackage(plan("starter"), { mode: "one-time", rush: true, goal: "redesign", timeline: "rush" }).multiplier).toBe(
      2.25,
    );
  });
  it("rounds to whole dollars", () => {
    // 3500 x 0.85 x 1.1 (redesign is 1.5; add_ai 0.8 on 2 weeks 1.1 is 0.88): 3500 x 0.88 = 3080.
    expect(quotePackage(plan("starter"), { mode: "one-time", rush: false, goal: "add_ai", timeline: "2weeks" }).amount).toBe(
      308000,
    );
    // 2000 x 0.8 x 0.95 = 1520; 7500 x 0.8 x 0.95 = 5700; 3000 x 1.5 x 0.85 = 3825.
    expect(
      quotePackage(plan("professional"), { mode: "monthly", rush: false, goal: "redesign", timeline: "8weeks" }).amount,
    ).toBe(382500);
  });
});

describe("quoteMemberPlan", () => {
  it("Growth $3,500 and Pro $7,000 a month, the chooser's prices, without a trial", () => {
    const [growth, pro] = TRIAL_PLANS.filter((p) => p.price > 0);
    expect(quoteMemberPlan(growth!)).toEqual({ amount: 350000, setupFee: 0, isSubscription: true, trialDays: 0 });
    expect(quoteMemberPlan(pro!)).toEqual({ amount: 700000, setupFee: 0, isSubscription: true, trialDays: 0 });
  });
});

describe("quoteApp", () => {
  const app = { basePrice: 12000, standardPrice: 10800, expressPrice: 18000, monthlyFinancing: "600" };
  it("charges exactly what each tab shows", () => {
    expect(quoteApp(app, "base")).toMatchObject({
      amount: 1200000,
      display: "$12,000",
      delivery: "7-14 days",
      isSubscription: false,
      timeline: "standard",
    });
    expect(quoteApp(app, "standard")).toMatchObject({ amount: 1080000, display: "$10,800", delivery: "5-7 days" });
    expect(quoteApp(app, "express")).toMatchObject({
      amount: 1800000,
      display: "$18,000",
      delivery: "24-48 hours",
      timeline: "rush",
    });
    expect(quoteApp(app, "monthly")).toMatchObject({
      amount: 60000,
      display: "$600/month",
      delivery: "Standard timeline",
      isSubscription: true,
      timeline: "standard",
    });
  });
  it("falls back to 15000 and 750 when prices are missing", () => {
    const empty = { basePrice: null, standardPrice: null, expressPrice: null, monthlyFinancing: null };
    expect(quoteApp(empty, "base").display).toBe("$15,000");
    expect(quoteApp(empty, "standard").display).toBe("$15,000");
    expect(quoteApp(empty, "express").display).toBe("$15,000");
    expect(quoteApp(empty, "monthly").display).toBe("$750/month");
  });
});

describe("formatDollars", () => {
  it("formats cents with thousands separators", () => {
    expect(formatDollars(2500000)).toBe("$25,000");
    expect(formatDollars(9900)).toBe("$99");
    expect(formatDollars(12345)).toBe("$123.45");
  });
});

describe("subscription quotes (spec section 9)", () => {
  it("billing plans: Basic $99, Pro $499, Enterprise $999 a month, no trial", () => {
    expect(BILLING_PLANS.map((p) => quoteBillingPlan(p))).toEqual([
      { amount: 9900, setupFee: 0, isSubscription: true, trialDays: 0 },
      { amount: 49900, setupFee: 0, isSubscription: true, trialDays: 0 },
      { amount: 99900, setupFee: 0, isSubscription: true, trialDays: 0 },
    ]);
  });
  it("scaling tiers: $199, $499, $999, $2,499, $4,999 a month with their names", () => {
    expect(SCALING_TIERS.map((t) => quoteScalingTier(t).amount)).toEqual([19900, 49900, 99900, 249900, 499900]);
    expect(SCALING_TIERS.map(scalingTierName)).toEqual(["Scale 10K", "Scale 50K", "Scale 100K", "Scale 500K", "Scale 1M"]);
  });
  it("add-ons: the bundle costs the sum of its monthly prices", () => {
    expect(quoteAddons([{ monthlyPrice: 2900 }, { monthlyPrice: 4900 }, { monthlyPrice: 9900 }]).amount).toBe(17700);
    expect(quoteAddons([]).amount).toBe(0);
  });
  it("distributor: $997 setup plus $199 a month with a 7-day trial, or the fees it is given", () => {
    expect(quoteDistributor(DISTRIBUTOR_PROGRAM)).toEqual({ amount: 19900, setupFee: 99700, isSubscription: true, trialDays: 7 });
    expect(quoteDistributor({ setupFee: 120000, monthlyFee: 24950 })).toEqual({
      amount: 24950,
      setupFee: 120000,
      isSubscription: true,
      trialDays: 7,
    });
  });
});

describe("money and count formats", () => {
  it("formats dollars (cents only when there are some), short dollars and counts the way the pages show them", () => {
    expect(formatDollars(129_900)).toBe("$1,299");
    expect(formatDollars(1_250)).toBe("$12.50");
    expect(formatDollars(123_456)).toBe("$1,234.56");
    expect(formatShortDollars(1_250)).toBe("$12.5");
    expect(formatShortDollars(4_900)).toBe("$49");
    expect(formatCount(1_234_567)).toBe("1,234,567");
  });
});

describe("orderAmountLines", () => {
  it("the distributor's order reads as its two lines: the setup fee and the monthly amount after the trial", () => {
    expect(orderAmountLines({ ...quoteDistributor(DISTRIBUTOR_PROGRAM) })).toEqual([
      "$997 setup",
      "$199/month after the 7-day trial",
    ]);
    expect(
      orderAmountLines({ ...quoteDistributor(DISTRIBUTOR_PROGRAM), trialDays: 0 }, (c) => `$${(c / 100).toFixed(2)}`),
    ).toEqual(["$997.00 setup", "$199.00/month"]);
  });
  it("one line without a setup fee", () => {
    expect(orderAmountLines({ amount: 49900, setupFee: 0, isSubscription: true, trialDays: 0 })).toEqual(["$499/month"]);
    expect(orderAmountLines({ amount: 525000, setupFee: 0, isSubscription: false, trialDays: 3 })).toEqual(["$5,250"]);
  });
});
