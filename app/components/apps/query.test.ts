import { describe, expect, it } from "vitest";
import { appsSearch, DEFAULT_APPS_QUERY, parseAppsQuery, sameFilters } from "./query";

const parse = (s: string) => parseAppsQuery(new URLSearchParams(s));

describe("parseAppsQuery", () => {
  it("defaults to all industries, the base tab, grid view and no dialog", () => {
    expect(parse("")).toEqual({ q: "", industry: "All", tab: "base", view: "grid", reviews: null, show: 12 });
  });
  it("reads valid values", () => {
    expect(parse("q=crm&industry=Financial+Services&tab=monthly&view=list&reviews=12&show=48")).toEqual({
      q: "crm",
      industry: "Financial Services",
      tab: "monthly",
      view: "list",
      reviews: 12,
      show: 48,
    });
  });
  it("falls back to defaults for invalid values", () => {
    expect(parse("industry=Nope&tab=gold&view=table&reviews=abc")).toEqual(DEFAULT_APPS_QUERY);
    expect(parse("reviews=-3").reviews).toBeNull();
    expect(parse("reviews=1.5").reviews).toBeNull();
    expect(parse("show=3").show).toBe(12);
    expect(parse("show=all").show).toBe(12);
    expect(parse(`q=${"x".repeat(150)}`).q).toHaveLength(100);
  });
});

describe("appsSearch", () => {
  it("leaves defaults out and round-trips through the parser", () => {
    expect(appsSearch(DEFAULT_APPS_QUERY)).toBe("");
    const q = { q: "a&b %", industry: "Retail & E-commerce", tab: "express", view: "list", reviews: 3, show: 72 } as const;
    expect(parse(appsSearch(q).slice(1))).toEqual(q);
  });
});

describe("sameFilters", () => {
  it("compares the search and the industry, nothing else", () => {
    const a = { ...DEFAULT_APPS_QUERY, q: "crm" };
    const monthly = { ...a, tab: "monthly" as const };
    expect(sameFilters(a, monthly)).toBe(true);
    expect(sameFilters(a, { ...a, industry: "Telecommunications" })).toBe(false);
  });
});
