import { describe, expect, it } from "vitest";
import { mulberry32, randomInt } from "~/lib/random";
import { allApps, derivedPrices } from "./apps";
import { INDUSTRIES } from "./industries";

const apps = allApps();
const handWritten = apps.filter((a) => a.id <= 34);
const generated = apps.filter((a) => a.id >= 35);

describe("allApps", () => {
  it("has 181 apps with unique ids 1..181 in order", () => {
    expect(apps).toHaveLength(181);
    expect(apps.map((a) => a.id)).toEqual(Array.from({ length: 181 }, (_, i) => i + 1));
  });

  it("is deterministic: two calls are deep-equal and do not share arrays", () => {
    const again = allApps();
    expect(again).toEqual(apps);
    expect(again).not.toBe(apps);
    expect(again[0]!.features).not.toBe(apps[0]!.features);
  });

  it("puts ids 1-34 only in the first four industries, each of them used", () => {
    expect(handWritten).toHaveLength(34);
    expect(new Set(handWritten.map((a) => a.industry))).toEqual(new Set(INDUSTRIES.slice(0, 4)));
  });

  it("spreads ids 35-181 over exactly the 17 industries after Retail & E-commerce", () => {
    expect(generated).toHaveLength(147);
    expect(new Set(generated.map((a) => a.industry))).toEqual(new Set(INDUSTRIES.slice(4)));
    const perIndustry = INDUSTRIES.slice(4).map((i) => generated.filter((a) => a.industry === i).length);
    expect(Math.max(...perIndustry) - Math.min(...perIndustry)).toBeLessThanOrEqual(1);
    expect(Math.max(...perIndustry)).toBeLessThanOrEqual(9);
  });

  it("keeps the spec's price relations for every app", () => {
    for (const a of apps) {
      expect(Number.isInteger(a.basePrice)).toBe(true);
      expect(a.basePrice).toBeGreaterThanOrEqual(8000);
      expect(a.basePrice).toBeLessThanOrEqual(33000);
      expect(a.expressPrice).toBe(Math.floor(a.basePrice * 1.5));
      expect(a.standardPrice).toBe(Math.floor(a.basePrice * 0.9));
      expect(a.monthlyFinancing).toBe(String(Math.floor(a.basePrice / 20)));
    }
  });

  it("has rating 5, 10-109 reviews, four distinct features and a day-range delivery time", () => {
    for (const a of apps) {
      expect(a.rating).toBe(5);
      expect(Number.isInteger(a.reviews)).toBe(true);
      expect(a.reviews).toBeGreaterThanOrEqual(10);
      expect(a.reviews).toBeLessThanOrEqual(109);
      expect(a.features).toHaveLength(4);
      expect(new Set(a.features).size).toBe(4);
      expect(a.deliveryTime).toMatch(/^(\d+)-(\d+) days$/);
      const [, from, to] = /^(\d+)-(\d+) days$/.exec(a.deliveryTime)!;
      expect(Number(from)).toBeLessThan(Number(to));
      expect(a.name.trim()).not.toBe("");
      expect(a.description).toMatch(/^[A-Z].*\.$/);
    }
  });

  it("has unique names and only a few popular apps", () => {
    expect(new Set(apps.map((a) => a.name)).size).toBe(181);
    const popular = apps.filter((a) => a.isPopular).length;
    expect(popular).toBeGreaterThan(0);
    expect(popular).toBeLessThan(30);
    expect(handWritten.some((a) => a.isPopular)).toBe(true);
  });

  it("names generated apps from nine base names per industry with a running number", () => {
    for (const industry of INDUSTRIES.slice(4)) {
      const names = generated.filter((a) => a.industry === industry).map((a) => a.name);
      names.forEach((name, i) => expect(name).toMatch(new RegExp(` ${i + 1}$`)));
      expect(new Set(names.map((n) => n.replace(/ \d+$/, ""))).size).toBe(names.length);
    }
  });
});

describe("helpers", () => {
  it("derivedPrices rounds down", () => {
    expect(derivedPrices(12345)).toEqual({
      basePrice: 12345,
      expressPrice: 18517,
      standardPrice: 11110,
      monthlyFinancing: "617",
    });
  });
  it("mulberry32 repeats for a seed and randomInt stays in range", () => {
    const a = mulberry32(7);
    const b = mulberry32(7);
    const seqA = Array.from({ length: 50 }, () => randomInt(a, 3, 5));
    expect(Array.from({ length: 50 }, () => randomInt(b, 3, 5))).toEqual(seqA);
    expect(new Set(seqA)).toEqual(new Set([3, 4, 5]));
  });
});
