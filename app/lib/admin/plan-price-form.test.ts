import { describe, expect, it } from "vitest";
import type { PlanPriceKind } from "~/catalogue/plan-prices";
import { parsePlanPriceForm } from "./plan-price-form";

const NOW = new Date("2026-11-27T12:00:00Z");
const parse = (kind: PlanPriceKind, fields: Record<string, string>, timeZone?: string) =>
  parsePlanPriceForm({ intent: "save", effectiveAt: "", ...fields }, kind, NOW, timeZone);
const amountOf = (amount: string) => {
  const parsed = parse("plan", { amount });
  return parsed.ok ? parsed.amounts.amount : parsed.errors.amount;
};

describe("parsePlanPriceForm", () => {
  it("reads dollars, with or without cents, as cents", () => {
    expect(amountOf("499")).toBe(49900);
    expect(amountOf("499.5")).toBe(49950);
    expect(amountOf("499.99")).toBe(49999);
    expect(amountOf(" 0.01 ")).toBe(1);
    expect(amountOf("1000000")).toBe(100_000_000);
    expect(parse("scaling", { amount: "199" })).toEqual({
      ok: true,
      amounts: { amount: 19900, originalAmount: null, setupFee: null, monthlyAmount: null },
      effectiveAt: null,
    });
  });

  it("refuses other amounts with the field's message: $0.01 to $1,000,000, dollars and cents only", () => {
    expect(amountOf("499.999")).toBe("The monthly price is in dollars, like 29 or 29.99.");
    expect(amountOf("$499")).toBe("The monthly price is in dollars, like 29 or 29.99.");
    expect(amountOf("1,000")).toBe("The monthly price is in dollars, like 29 or 29.99.");
    expect(amountOf("-1")).toBe("The monthly price is in dollars, like 29 or 29.99.");
    expect(amountOf("1e3")).toBe("The monthly price is in dollars, like 29 or 29.99.");
    expect(amountOf("10000000")).toBe("The monthly price is in dollars, like 29 or 29.99.");
    expect(amountOf("0")).toBe("The monthly price is at least $0.01.");
    expect(amountOf("0.00")).toBe("The monthly price is at least $0.01.");
    expect(amountOf("1000000.01")).toBe("The monthly price is at most $1,000,000.");
    expect(amountOf("")).toBe("Enter the monthly price.");
    expect(parse("plan", {})).toEqual({ ok: false, errors: { amount: "Enter the monthly price." } });
  });

  it("a member plan has the price before its discount, at least its monthly price", () => {
    expect(parse("member", { amount: "3000", originalAmount: "4500.50" })).toEqual({
      ok: true,
      amounts: { amount: 300000, originalAmount: 450050, setupFee: null, monthlyAmount: null },
      effectiveAt: null,
    });
    expect(parse("member", { amount: "4500", originalAmount: "4500" })).toMatchObject({
      ok: true,
      amounts: { amount: 450000, originalAmount: 450000 },
    });
    expect(parse("member", { amount: "4500.01", originalAmount: "4500" })).toEqual({
      ok: false,
      errors: { amount: "The monthly price is at most the price before the discount." },
    });
    expect(parse("member", { amount: "3000" })).toEqual({
      ok: false,
      errors: { originalAmount: "Enter the price before the discount." },
    });
    expect(parse("member", { amount: "3000", originalAmount: "" })).toEqual({
      ok: false,
      errors: { originalAmount: "Enter the price before the discount." },
    });
    expect(parse("member", { amount: "3000", originalAmount: "1000001" })).toEqual({
      ok: false,
      errors: { originalAmount: "The price before the discount is at most $1,000,000." },
    });
  });

  it("the distributor program has its setup fee; no other plan has either second amount", () => {
    expect(parse("distributor", { amount: "249", setupFee: "1200" })).toEqual({
      ok: true,
      amounts: { amount: 24900, originalAmount: null, setupFee: 120000, monthlyAmount: null },
      effectiveAt: null,
    });
    expect(parse("distributor", { amount: "249" })).toEqual({ ok: false, errors: { setupFee: "Enter the setup fee." } });
    expect(parse("distributor", { amount: "249", setupFee: "0" })).toEqual({
      ok: false,
      errors: { setupFee: "The setup fee is at least $0.01." },
    });
    expect(parse("plan", { amount: "499", setupFee: "10" })).toEqual({
      ok: false,
      errors: { setupFee: "Only the distributor program has a setup fee." },
    });
    expect(parse("scaling", { amount: "499", originalAmount: "600" })).toEqual({
      ok: false,
      errors: { originalAmount: "Only a member plan or a package has a price before a discount." },
    });
    expect(parse("member", { amount: "3000", originalAmount: "4500", monthlyAmount: "100" })).toEqual({
      ok: false,
      errors: { monthlyAmount: "Only a package has a monthly price beside its one-time price." },
    });
  });

  it("a package has its one-time price, the price before the saving and its monthly price", () => {
    expect(parse("package", { amount: "3600", originalAmount: "5000", monthlyAmount: "2100" })).toEqual({
      ok: true,
      amounts: { amount: 360000, originalAmount: 500000, setupFee: null, monthlyAmount: 210000 },
      effectiveAt: null,
    });
    // The same price as before the saving: no saving shown, but a valid price.
    expect(parse("package", { amount: "5000", originalAmount: "5000", monthlyAmount: "2100" })).toMatchObject({
      ok: true,
      amounts: { amount: 500000, originalAmount: 500000 },
    });
    expect(parse("package", { amount: "", originalAmount: "", monthlyAmount: "" })).toEqual({
      ok: false,
      errors: {
        amount: "Enter the one-time price.",
        originalAmount: "Enter the price before the saving.",
        monthlyAmount: "Enter the monthly price.",
      },
    });
    expect(parse("package", { amount: "3600" })).toEqual({
      ok: false,
      errors: { originalAmount: "Enter the price before the saving.", monthlyAmount: "Enter the monthly price." },
    });
    expect(parse("package", { amount: "6000", originalAmount: "5000", monthlyAmount: "2100" })).toEqual({
      ok: false,
      errors: { amount: "The one-time price is at most the price before the saving." },
    });
    expect(parse("package", { amount: "0", originalAmount: "5000", monthlyAmount: "0" })).toEqual({
      ok: false,
      errors: { amount: "The one-time price is at least $0.01.", monthlyAmount: "The monthly price is at least $0.01." },
    });
    expect(parse("package", { amount: "3600", originalAmount: "5000", monthlyAmount: "1000001" })).toEqual({
      ok: false,
      errors: { monthlyAmount: "The monthly price is at most $1,000,000." },
    });
    expect(parse("package", { amount: "3,600", originalAmount: "5000", monthlyAmount: "2100" })).toEqual({
      ok: false,
      errors: { amount: "The one-time price is in dollars, like 29 or 29.99." },
    });
    expect(parse("package", { amount: "3600", originalAmount: "5000", monthlyAmount: "2100", setupFee: "10" })).toEqual({
      ok: false,
      errors: { setupFee: "Only the distributor program has a setup fee." },
    });
  });

  it("a package's amounts are whole dollars: the packages page and its checkout round to dollars", () => {
    expect(parse("package", { amount: "3599.50", originalAmount: "5000.01", monthlyAmount: "2100.99" })).toEqual({
      ok: false,
      errors: {
        amount: "The one-time price is in whole dollars, like 3500: the packages page rounds to dollars.",
        originalAmount: "The price before the saving is in whole dollars, like 3500: the packages page rounds to dollars.",
        monthlyAmount: "The monthly price is in whole dollars, like 3500: the packages page rounds to dollars.",
      },
    });
    expect(parse("package", { amount: "3600.00", originalAmount: "5000.0", monthlyAmount: "2100" })).toMatchObject({
      ok: true,
      amounts: { amount: 360000, originalAmount: 500000, monthlyAmount: 210000 },
    });
  });

  it("a package's amounts are read into its kind alone, and a plan's form never takes a package's", () => {
    expect(parse("plan", { amount: "499", monthlyAmount: "100" })).toEqual({
      ok: false,
      errors: { monthlyAmount: "Only a package has a monthly price beside its one-time price." },
    });
    expect(parse("scaling", { amount: "499" })).toMatchObject({ ok: true, amounts: { monthlyAmount: null } });
  });

  it("from a later time in the operator's zone, not in the past and at most 366 days ahead", () => {
    expect(parse("plan", { amount: "599", effectiveAt: "2026-12-01T09:30" })).toMatchObject({
      ok: true,
      effectiveAt: new Date("2026-12-01T09:30:00Z"),
    });
    expect(parse("plan", { amount: "599", effectiveAt: "2026-12-01T09:30" }, "Pacific/Auckland")).toMatchObject({
      ok: true,
      effectiveAt: new Date("2026-11-30T20:30:00Z"),
    });
    expect(parse("plan", { amount: "599", effectiveAt: "2026-11-27T11:58" })).toMatchObject({ ok: true, effectiveAt: null });
    expect(parse("plan", { amount: "599", effectiveAt: "2026-11-27T11:00" })).toEqual({
      ok: false,
      errors: { effectiveAt: "Choose now or a later time: a price cannot change in the past." },
    });
    expect(parse("plan", { amount: "599", effectiveAt: "2027-11-29T12:00" })).toEqual({
      ok: false,
      errors: { effectiveAt: "Schedule at most 366 days ahead." },
    });
    expect(parse("plan", { amount: "599", effectiveAt: "2026-02-30T10:00" })).toMatchObject({
      ok: false,
      errors: { effectiveAt: expect.stringMatching(/^Enter a date and time/) },
    });
  });

  it("refuses unknown fields, a kind sent by the form, a wrong intent and a file", () => {
    const invalid = { ok: false, errors: {}, message: "Unknown or invalid request." };
    expect(parse("plan", { amount: "499", price: "1" })).toEqual(invalid);
    expect(parse("plan", { amount: "499", kind: "member" })).toEqual(invalid);
    expect(parse("plan", { amount: "499", intent: "delete" })).toEqual(invalid);
    expect(parsePlanPriceForm({ intent: "save", amount: new File(["1"], "a.txt") }, "plan", NOW)).toEqual({
      ok: false,
      errors: {},
      message: "The form could not be read.",
    });
  });
});
