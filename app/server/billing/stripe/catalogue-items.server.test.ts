import { describe, expect, it } from "vitest";
import { LIST_PLAN_CATALOGUE, pricePlans } from "~/catalogue/plan-prices";
import {
  catalogueLines,
  catalogueLinesOf,
  parseLookupKey,
  planLine,
  priceLookupKey,
  productIdOf,
} from "./catalogue-items.server";

const order = {
  currency: "usd",
  isSubscription: true,
  setupFee: 0,
  pricingTab: null,
  details: {},
};

describe("catalogue Prices' lookup keys", () => {
  it("name the item, currency, cents and interval, so a new amount is a new key", () => {
    expect(priceLookupKey("plan.pro", "USD", 49_900, "month")).toBe("plan.pro.usd.49900.month");
    expect(priceLookupKey("app.7.express", "usd", 1_850_000, null)).toBe("app.7.express.usd.1850000.once");
    expect(priceLookupKey("plan.pro", "usd", 59_900, "month")).not.toBe(priceLookupKey("plan.pro", "usd", 49_900, "month"));
    expect(() => priceLookupKey("plan.pro", "usd", 49.5, "month")).toThrow("not an amount in cents");
    expect(() => priceLookupKey("plan.pro", "usd", -1, "month")).toThrow("not an amount in cents");
  });

  it("parse back into their parts; other keys are not ours", () => {
    expect(parseLookupKey("scaling.2.usd.99900.month")).toEqual({
      item: "scaling.2",
      currency: "usd",
      amount: 99_900,
      interval: "month",
    });
    expect(parseLookupKey("distributor.setup.usd.99700.once")).toEqual({
      item: "distributor.setup",
      currency: "usd",
      amount: 99_700,
      interval: null,
    });
    expect(parseLookupKey("pro_monthly")).toBeNull();
    expect(parseLookupKey(null)).toBeNull();
  });

  it("products have fixed ids Stripe accepts", () => {
    expect(productIdOf("plan.pro")).toBe("ai_plan_pro");
    expect(productIdOf("addon.seo-optimizer")).toBe("ai_addon_seo-optimizer");
  });
});

describe("an order's checkout lines", () => {
  it("a plan, a tier and a member plan are one catalogue Price each", () => {
    expect(catalogueLinesOf({ ...order, kind: "plan", itemId: "pro", itemName: "Pro Plan", amount: 49_900 })).toEqual([
      planLine("plan", "pro", "Pro Plan", 49_900),
    ]);
    expect(catalogueLinesOf({ ...order, kind: "scaling", itemId: "2", itemName: "Scale 100K", amount: 99_900 })[0]).toMatchObject(
      {
        product: { id: "ai_scaling_2" },
        lookupKey: "scaling.2.usd.99900.month",
      },
    );
  });

  it("an add-on bundle is one Price per add-on; the distributor's setup fee is a one-time Price", () => {
    const addons = [
      { id: "a", name: "A", monthlyPrice: 4_900 },
      { id: "b", name: "B", monthlyPrice: 7_900 },
    ];
    const lines = catalogueLinesOf({
      ...order,
      kind: "addons",
      itemId: "a,b",
      itemName: "2 add-ons",
      amount: 12_800,
      details: { addons },
    });
    expect(lines.map((l) => l.lookupKey)).toEqual(["addon.a.usd.4900.month", "addon.b.usd.7900.month"]);
    const distributor = catalogueLinesOf({
      ...order,
      kind: "distributor",
      itemId: "distributor",
      itemName: "AI Distributor Program",
      amount: 19_900,
      setupFee: 99_700,
    });
    expect(distributor.map((l) => [l.lookupKey, l.interval])).toEqual([
      ["distributor.usd.19900.month", "month"],
      ["distributor.setup.usd.99700.once", null],
    ]);
  });

  it("a computed amount (a package through the funnel's multipliers) has no Price of its own, only its product", () => {
    const base = { ...order, kind: "package", itemId: "starter", itemName: "Starter", isSubscription: false };
    expect(catalogueLinesOf({ ...base, amount: 350_000, details: { multiplier: 1 } })[0]).toMatchObject({
      lookupKey: "package.starter.once.usd.350000.once",
    });
    expect(catalogueLinesOf({ ...base, amount: 525_000, details: { multiplier: 1.5 } })[0]).toMatchObject({
      lookupKey: null,
      unitAmount: 525_000,
      product: { id: "ai_package_starter_once" },
    });
  });

  it("the command's list covers every plan, tier, member plan and add-on once", () => {
    const keys = catalogueLines(LIST_PLAN_CATALOGUE).map((l) => l.lookupKey);
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys).toContain("plan.enterprise.usd.99900.month");
    expect(keys).toContain("scaling.4.usd.499900.month");
    expect(keys).toContain("member.growth.usd.350000.month");
    expect(keys).toContain("distributor.setup.usd.99700.once");
    expect(keys.some((k) => k?.startsWith("member.starter"))).toBe(false);
  });

  it("the command's list carries the plans' current amounts: a changed price is a new lookup key", () => {
    const plans = pricePlans({
      "plan-pro": { amount: 59900, originalAmount: null, setupFee: null, monthlyAmount: null },
      distributor: { amount: 24900, originalAmount: null, setupFee: 120000, monthlyAmount: null },
    });
    const keys = catalogueLines(plans).map((l) => l.lookupKey);
    expect(keys).toContain("plan.pro.usd.59900.month");
    expect(keys).not.toContain("plan.pro.usd.49900.month");
    expect(keys).toContain("distributor.usd.24900.month");
    expect(keys).toContain("distributor.setup.usd.120000.once");
  });

  it("the command's list carries the packages' current one-time and monthly amounts", () => {
    expect(catalogueLines(LIST_PLAN_CATALOGUE).map((l) => l.lookupKey)).toEqual(
      expect.arrayContaining(["package.starter.once.usd.350000.once", "package.starter.monthly.usd.200000.month"]),
    );
    const plans = pricePlans({
      "package-starter": { amount: 360000, originalAmount: 500000, setupFee: null, monthlyAmount: 210000 },
    });
    const keys = catalogueLines(plans).map((l) => l.lookupKey);
    expect(keys).toContain("package.starter.once.usd.360000.once");
    expect(keys).toContain("package.starter.monthly.usd.210000.month");
    expect(keys).not.toContain("package.starter.once.usd.350000.once");
    expect(keys).toContain("package.professional.once.usd.500000.once");
    // A package sold through no multiplier is the Price the list made.
    const sold = catalogueLinesOf({
      ...order,
      kind: "package",
      itemId: "starter",
      itemName: "Starter",
      isSubscription: true,
      amount: 210000,
      details: { multiplier: 1 },
    });
    expect(sold[0]!.lookupKey).toBe("package.starter.monthly.usd.210000.month");
  });
});
