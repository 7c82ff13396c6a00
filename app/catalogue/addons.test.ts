import { describe, expect, it } from "vitest";
import { ADDONS, filterAddons } from "./addons";
import { ADDON_CATEGORIES } from "./plans";

describe("add-on marketplace", () => {
  it("has unique kebab-case ids", () => {
    const ids = ADDONS.map((a) => a.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
  });

  it("covers every category with at least 3 add-ons, and only known categories", () => {
    const thin = ADDON_CATEGORIES.filter((category) => ADDONS.filter((a) => a.category === category).length < 3);
    expect(thin).toEqual([]);
    for (const a of ADDONS) expect(ADDON_CATEGORIES).toContain(a.category);
  });

  it("prices are whole cents between $19 and $299 a month", () => {
    for (const a of ADDONS) {
      expect(Number.isInteger(a.monthlyPrice)).toBe(true);
      expect(a.monthlyPrice).toBeGreaterThan(0);
      expect(a.monthlyPrice).toBeGreaterThanOrEqual(1900);
      expect(a.monthlyPrice).toBeLessThanOrEqual(29900);
    }
  });

  it("every add-on has a name, a description and 4 to 7 distinct features", () => {
    for (const a of ADDONS) {
      expect(a.name.trim()).not.toBe("");
      expect(a.description.trim()).not.toBe("");
      expect(a.features.length).toBeGreaterThanOrEqual(4);
      expect(a.features.length).toBeLessThanOrEqual(7);
      expect(new Set(a.features).size).toBe(a.features.length);
    }
  });

  it("has one or two inactive add-ons and every category keeps an active one", () => {
    const inactive = ADDONS.filter((a) => !a.isActive);
    expect(inactive.length).toBeGreaterThanOrEqual(1);
    expect(inactive.length).toBeLessThanOrEqual(2);
    const withoutActive = ADDON_CATEGORIES.filter((category) => !ADDONS.some((a) => a.category === category && a.isActive));
    expect(withoutActive).toEqual([]);
  });
});

describe("filterAddons", () => {
  it("returns everything for an empty search in All", () => {
    expect(filterAddons(ADDONS, { q: "", category: "All" })).toHaveLength(ADDONS.length);
  });

  it("filters by category", () => {
    const result = filterAddons(ADDONS, { q: "", category: "Finance" });
    expect(result.length).toBeGreaterThan(0);
    expect(result.every((a) => a.category === "Finance")).toBe(true);
  });

  it("searches name, description and features case-insensitively, every word must match", () => {
    expect(filterAddons(ADDONS, { q: "CRM sync", category: "All" }).map((a) => a.id)).toContain("crm-sync-pro");
    expect(filterAddons(ADDONS, { q: "receipt", category: "All" }).map((a) => a.id)).toEqual(
      expect.arrayContaining(["expense-tracker", "document-processor"]),
    );
    expect(filterAddons(ADDONS, { q: "sms", category: "Marketing" })).toEqual([]);
    expect(filterAddons(ADDONS, { q: "zzzz-nothing", category: "All" })).toEqual([]);
  });
});
