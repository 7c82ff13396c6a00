import { describe, expect, it } from "vitest";
import { EFFECTIVE_GRACE_MS, parseAppForm, parseEffectiveAt } from "./app-form";

const NOW = new Date("2026-11-27T12:00:00Z");
const form = (changes: Record<string, string> = {}) => ({
  intent: "save",
  name: "Helper Bot",
  description: "Answers the phone when nobody can.",
  industry: "Financial Services",
  features: "One\nTwo",
  deliveryTime: "7-10 days",
  isActive: "on",
  basePrice: "1000",
  expressPrice: "1500",
  standardPrice: "900",
  monthlyFinancing: "50",
  effectiveAt: "",
  ...changes,
});

const errorsOf = (changes: Record<string, string>) => {
  const parsed = parseAppForm(form(changes), NOW);
  return parsed.ok ? null : parsed.errors;
};

describe("parseEffectiveAt", () => {
  it("empty, or a time within the grace before now, is now (null)", () => {
    expect(parseEffectiveAt("", NOW)).toEqual({ ok: true, at: null });
    expect(parseEffectiveAt("2026-11-27T11:58", NOW)).toEqual({ ok: true, at: null });
    expect(parseEffectiveAt("2026-11-27T12:00", NOW)).toEqual({ ok: true, at: null });
  });

  it("a later time is read as UTC", () => {
    expect(parseEffectiveAt("2026-12-01T09:30", NOW)).toEqual({ ok: true, at: new Date("2026-12-01T09:30:00Z") });
    expect(parseEffectiveAt("2026-12-01T09:30:15", NOW)).toEqual({ ok: true, at: new Date("2026-12-01T09:30:15Z") });
  });

  it("reads the time in the operator's zone, across a daylight-saving change too", () => {
    // Auckland is 13 hours ahead of UTC in its summer.
    expect(parseEffectiveAt("2026-12-01T09:30", NOW, "Pacific/Auckland")).toEqual({
      ok: true,
      at: new Date("2026-11-30T20:30:00Z"),
    });
    // New York: 5 hours behind in December, 4 in July.
    expect(parseEffectiveAt("2026-12-01T09:30", NOW, "America/New_York")).toEqual({
      ok: true,
      at: new Date("2026-12-01T14:30:00Z"),
    });
    expect(parseEffectiveAt("2027-07-01T09:30", NOW, "America/New_York")).toEqual({
      ok: true,
      at: new Date("2027-07-01T13:30:00Z"),
    });
    expect(parseEffectiveAt("tomorrow", NOW, "Europe/Paris")).toMatchObject({
      ok: false,
      message: expect.stringMatching(/\(Europe\/Paris\)/),
    });
  });

  it("refuses the past, far futures and what is not a time", () => {
    const past = new Date(NOW.getTime() - EFFECTIVE_GRACE_MS - 60_000).toISOString().slice(0, 16);
    expect(parseEffectiveAt(past, NOW)).toMatchObject({ ok: false, message: expect.stringMatching(/past/) });
    expect(parseEffectiveAt("2028-01-01T00:00", NOW)).toMatchObject({ ok: false, message: expect.stringMatching(/366 days/) });
    for (const bad of [
      "tomorrow",
      "2026-02-30T10:00",
      "2026-12-01",
      "2026-12-01T25:00",
      "2026-12-01T10:00Z",
      "2026-12-01T10:00:75",
      " ",
    ]) {
      expect({ bad, ...parseEffectiveAt(bad, NOW) }).toMatchObject({ bad, ok: false });
    }
  });
});

describe("parseAppForm", () => {
  it("reads a good form: trimmed text, features one per line, checkboxes, whole-dollar prices", () => {
    const parsed = parseAppForm(form({ name: "  Helper Bot ", features: " One \n\n Two\r\n" }), NOW);
    expect(parsed).toEqual({
      ok: true,
      effectiveAt: null,
      value: {
        intent: "save",
        name: "Helper Bot",
        description: "Answers the phone when nobody can.",
        industry: "Financial Services",
        features: ["One", "Two"],
        deliveryTime: "7-10 days",
        isActive: true,
        isPopular: false,
        basePrice: 1000,
        expressPrice: 1500,
        standardPrice: 900,
        monthlyFinancing: 50,
        effectiveAt: "",
      },
    });
  });

  it("answers each bad field with its message", () => {
    expect(errorsOf({ basePrice: "1e3" })).toEqual({ basePrice: "The base price is a whole number of dollars, digits only." });
    expect(errorsOf({ basePrice: "-5" })).toMatchObject({ basePrice: expect.stringMatching(/whole number/) });
    expect(errorsOf({ monthlyFinancing: "99999999" })).toEqual({
      monthlyFinancing: "The monthly financing is at most $1,000,000.",
    });
    expect(errorsOf({ standardPrice: "1001" })).toEqual({ standardPrice: "The standard price is at most the base price." });
    expect(errorsOf({ features: Array.from({ length: 9 }, (_, i) => `F${i}`).join("\n") })).toEqual({
      features: "At most 8 features, one per line.",
    });
    expect(errorsOf({ features: "x".repeat(121) })).toEqual({ features: "Each feature is at most 120 characters." });
    expect(errorsOf({ isActive: "yes" })).toMatchObject({ isActive: expect.any(String) });
    expect(errorsOf({ effectiveAt: "2020-01-01T00:00" })).toEqual({
      effectiveAt: "Choose now or a later time: a price cannot change in the past.",
    });
  });

  it("refuses unknown fields, a missing intent and files without a field message", () => {
    expect(parseAppForm({ ...form(), amount: "1" }, NOW)).toMatchObject({ ok: false, message: "Unknown or invalid request." });
    const { intent: _intent, ...noIntent } = form();
    expect(parseAppForm(noIntent, NOW)).toMatchObject({ ok: false, message: "Unknown or invalid request." });
    expect(parseAppForm({ ...form(), name: new File(["x"], "x") }, NOW)).toMatchObject({ ok: false });
  });
});
