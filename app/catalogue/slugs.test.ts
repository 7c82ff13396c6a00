import { describe, expect, it } from "vitest";
import { allApps } from "./apps";
import { assignSlugs, isSlug, slugify } from "./slugs";

describe("slugify", () => {
  it("lower-cases the name and joins its words with single hyphens", () => {
    expect(slugify("MediScheduler AI")).toBe("medischeduler-ai");
    expect(slugify("  Crop Yield -- Forecaster 1 ")).toBe("crop-yield-forecaster-1");
  });

  it("spells out '&', drops accents and every other character", () => {
    expect(slugify("Café Order & Pay Bot!")).toBe("cafe-order-and-pay-bot");
    expect(slugify("OSS/BSS <Copilot>")).toBe("oss-bss-copilot");
  });

  it("is empty for a name without a letter or digit", () => {
    expect(slugify("!!! ???")).toBe("");
  });
});

describe("assignSlugs", () => {
  it("gives the lowest id the name's slug and later namesakes their id, whatever the input order", () => {
    const apps = [
      { id: 9, name: "CRM Bot" },
      { id: 3, name: "crm bot" },
      { id: 5, name: "CRM  Bot!" },
    ];
    const slugs = assignSlugs(apps);
    expect(slugs.get(3)).toBe("crm-bot");
    expect(slugs.get(5)).toBe("crm-bot-5");
    expect(slugs.get(9)).toBe("crm-bot-9");
    expect(assignSlugs(apps.toReversed())).toEqual(slugs);
  });

  it("keeps existing slugs when an app with a higher id arrives", () => {
    const before = assignSlugs([
      { id: 1, name: "Invoice Bot" },
      { id: 2, name: "Invoice Bot 3" },
    ]);
    const after = assignSlugs([
      { id: 1, name: "Invoice Bot" },
      { id: 2, name: "Invoice Bot 3" },
      { id: 3, name: "Invoice Bot" },
    ]);
    expect(after.get(1)).toBe(before.get(1));
    expect(after.get(2)).toBe(before.get(2));
    // 'invoice-bot-3' is app 2's: the newcomer goes one step further.
    expect(after.get(3)).toBe("invoice-bot-3-2");
  });

  it("names an app without letters or digits by its id", () => {
    expect(assignSlugs([{ id: 7, name: "???" }]).get(7)).toBe("app-7");
  });
});

describe("the catalogue's slugs", () => {
  const apps = allApps();

  it("are distinct, well formed and the same on every call", () => {
    const slugs = apps.map((a) => a.slug);
    expect(new Set(slugs).size).toBe(181);
    expect(slugs.filter((slug) => !isSlug(slug))).toEqual([]);
    expect(allApps().map((a) => a.slug)).toEqual(slugs);
  });

  it("come from the names", () => {
    expect(apps[0]).toMatchObject({ name: "MediScheduler AI", slug: "medischeduler-ai" });
    for (const app of apps) expect(app.slug.startsWith(slugify(app.name))).toBe(true);
  });
});

describe("isSlug", () => {
  it("accepts slugs and refuses anything else", () => {
    expect(isSlug("medischeduler-ai")).toBe(true);
    expect(["", "-a", "a-", "a--b", "A", "a b", "a/b", "%2e%2e", "x".repeat(100)].filter(isSlug)).toEqual([]);
  });
});
