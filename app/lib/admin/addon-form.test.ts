import { describe, expect, it } from "vitest";
import { parseAddonForm, parseNewAddonForm } from "./addon-form";

const NOW = new Date("2026-11-27T12:00:00Z");
const form = (changes: Record<string, string> = {}) => ({
  intent: "save",
  name: "SEO Optimizer",
  description: "Keeps every page findable.",
  category: "Marketing",
  features: "One\nTwo",
  isActive: "on",
  monthlyPrice: "29",
  effectiveAt: "",
  ...changes,
});
const priceOf = (monthlyPrice: string) => {
  const parsed = parseAddonForm(form({ monthlyPrice }), NOW);
  return parsed.ok ? parsed.value.monthlyPrice : parsed.errors.monthlyPrice;
};

describe("parseAddonForm", () => {
  it("reads dollars, with or without cents, as cents", () => {
    expect(priceOf("29")).toBe(2900);
    expect(priceOf("29.9")).toBe(2990);
    expect(priceOf("29.99")).toBe(2999);
    expect(priceOf(" 1 ")).toBe(100);
    expect(priceOf("100000")).toBe(10_000_000);
  });

  it("refuses other amounts with a field message", () => {
    expect(priceOf("29.999")).toBe("The monthly price is in dollars, like 29 or 29.99.");
    expect(priceOf("-1")).toBe("The monthly price is in dollars, like 29 or 29.99.");
    expect(priceOf("1e3")).toBe("The monthly price is in dollars, like 29 or 29.99.");
    expect(priceOf("0.99")).toBe("The monthly price is at least $1.");
    expect(priceOf("100000.01")).toBe("The monthly price is at most $100,000.");
    expect(priceOf("")).toBe("Enter the monthly price.");
  });

  it("takes only known categories, and refuses unknown fields", () => {
    expect(parseAddonForm(form({ category: "Toys" }), NOW)).toEqual({
      ok: false,
      errors: { category: "Choose a category from the list." },
    });
    expect(parseAddonForm({ ...form(), amount: "1" }, NOW)).toEqual({
      ok: false,
      errors: {},
      message: "Unknown or invalid request.",
    });
    expect(parseAddonForm(form({ effectiveAt: "2026-12-01T09:30" }), NOW)).toMatchObject({
      ok: true,
      effectiveAt: new Date("2026-12-01T09:30:00Z"),
    });
  });
});

describe("parseNewAddonForm", () => {
  const { effectiveAt: _, ...fresh } = form();

  it("reads a new add-on without an effective time: its price is its list price", () => {
    expect(parseNewAddonForm(fresh)).toEqual({
      ok: true,
      value: {
        intent: "save",
        name: "SEO Optimizer",
        description: "Keeps every page findable.",
        category: "Marketing",
        features: ["One", "Two"],
        isActive: true,
        monthlyPrice: 2900,
      },
    });
    const { isActive: _off, ...unticked } = fresh;
    expect(parseNewAddonForm(unticked)).toMatchObject({ ok: true, value: { isActive: false } });
  });

  it("answers each bad field with its message, and refuses unknown fields", () => {
    expect(parseNewAddonForm({ ...fresh, name: "!!" })).toEqual({
      ok: false,
      errors: { name: "The name needs at least one letter or digit." },
    });
    expect(parseNewAddonForm({ ...fresh, name: "", monthlyPrice: "0", category: "Toys" })).toEqual({
      ok: false,
      errors: {
        name: "Enter the name.",
        monthlyPrice: "The monthly price is at least $1.",
        category: "Choose a category from the list.",
      },
    });
    expect(parseNewAddonForm({ ...fresh, effectiveAt: "" })).toEqual({
      ok: false,
      errors: {},
      message: "Unknown or invalid request.",
    });
  });
});
