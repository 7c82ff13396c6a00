import { describe, expect, it } from "vitest";
import { TRIAL_PLANS, type TrialPlan } from "./plans";
import {
  discountPercent,
  formatDollars,
  formatTrialRemaining,
  hasDashboardAccess,
  isTrialActive,
  isTrialPlanId,
  memberSaving,
  overlayMode,
  previewSecondsLeft,
  previewSecondsLeftAt,
  trialEndFrom,
  trialProgressPercent,
} from "./trial";

const H = 60 * 60 * 1000;
const D = 24 * H;
const start = new Date("2026-01-10T12:00:00Z");
const end = new Date(start.getTime() + 7 * D);
const at = (ms: number) => new Date(start.getTime() + ms);
const started = { trialStarted: true, trialActivatedAt: start, trialEndsAt: end };
const notStarted = { trialStarted: false, trialActivatedAt: null, trialEndsAt: null };

describe("trial rules", () => {
  it("a trial lasts exactly 7 days", () => {
    expect(trialEndFrom(start).getTime() - start.getTime()).toBe(7 * D);
  });

  it("knows only the three trial plans", () => {
    expect(isTrialPlanId("starter")).toBe(true);
    expect(isTrialPlanId("growth")).toBe(true);
    expect(isTrialPlanId("pro")).toBe(true);
    expect(isTrialPlanId("enterprise")).toBe(false);
    expect(isTrialPlanId(undefined)).toBe(false);
  });

  it("is active only while started and before the end (the end itself is expired)", () => {
    expect(isTrialActive(started, at(0))).toBe(true);
    expect(isTrialActive(started, at(7 * D - 1))).toBe(true);
    expect(isTrialActive(started, end)).toBe(false);
    expect(isTrialActive(notStarted, at(0))).toBe(false);
    expect(isTrialActive(null, at(0))).toBe(false);
  });

  it("gate: an active subscription grants access even without a trial", () => {
    expect(hasDashboardAccess(null, true, at(0))).toBe(true);
    expect(hasDashboardAccess(started, false, at(8 * D))).toBe(false);
    expect(overlayMode(notStarted, false, at(0))).toBe("preview");
    expect(overlayMode(started, false, at(8 * D))).toBe("expired");
    expect(overlayMode(started, false, at(D))).toBe("none");
    expect(overlayMode(started, true, at(8 * D))).toBe("none");
  });

  it("formats the remaining time in days and hours", () => {
    expect(formatTrialRemaining(end, at(0))).toBe("7d 0h remaining");
    expect(formatTrialRemaining(end, at(1))).toBe("6d 23h remaining");
    expect(formatTrialRemaining(end, at(6 * D))).toBe("1d 0h remaining");
    expect(formatTrialRemaining(end, at(7 * D - 5 * H))).toBe("0d 5h remaining");
    expect(formatTrialRemaining(end, at(7 * D - 1))).toBe("0d 0h remaining");
  });

  it("says 'Trial expired' exactly at the end and after", () => {
    expect(formatTrialRemaining(end, end)).toBe("Trial expired");
    expect(formatTrialRemaining(end, at(9 * D))).toBe("Trial expired");
  });

  it("progress is the elapsed share, clamped to 0-100", () => {
    expect(trialProgressPercent(start, end, at(-D))).toBe(0);
    expect(trialProgressPercent(start, end, start)).toBe(0);
    expect(trialProgressPercent(start, end, at(3.5 * D))).toBe(50);
    expect(trialProgressPercent(start, end, end)).toBe(100);
    expect(trialProgressPercent(start, end, at(10 * D))).toBe(100);
    expect(trialProgressPercent(start, start, start)).toBe(100);
  });

  it("shows the plan prices and the 30% member discount", () => {
    const [starter, growth, pro] = TRIAL_PLANS;
    expect(formatDollars(starter!.price)).toBe("$0");
    expect(formatDollars(growth!.price)).toBe("$3,500");
    expect(formatDollars(growth!.originalPrice)).toBe("$5,000");
    expect(formatDollars(pro!.price)).toBe("$7,000");
    expect(formatDollars(pro!.originalPrice)).toBe("$10,000");
    expect(discountPercent(starter!)).toBe(0);
    expect(discountPercent(growth!)).toBe(30);
    expect(discountPercent(pro!)).toBe(30);
  });

  it("names what the member plans save: the most, 'up to' when they differ, none without a discount", () => {
    const [starter, growth, pro] = TRIAL_PLANS as [TrialPlan, TrialPlan, TrialPlan];
    expect(memberSaving(TRIAL_PLANS)).toEqual({ percent: 30, upTo: false, planNames: ["Growth", "Pro"] });
    const cheaperPro = { ...pro, price: 600000 };
    expect(memberSaving([starter, growth, cheaperPro])).toEqual({ percent: 40, upTo: true, planNames: ["Growth", "Pro"] });
    const fullGrowth = { ...growth, price: growth.originalPrice };
    expect(memberSaving([starter, fullGrowth, pro])).toEqual({ percent: 30, upTo: false, planNames: ["Pro"] });
    expect(memberSaving([starter, fullGrowth])).toBeNull();
  });

  it("counts the free preview down from 15 s to 0", () => {
    expect(previewSecondsLeft(0)).toBe(15);
    expect(previewSecondsLeft(14)).toBe(1);
    expect(previewSecondsLeft(15)).toBe(0);
    expect(previewSecondsLeft(20)).toBe(0);
  });

  it("the free preview counts from the first dashboard view, not from the page load", () => {
    const start = new Date("2026-05-01T10:00:00.000Z");
    const at = (ms: number) => new Date(start.getTime() + ms);
    expect(previewSecondsLeftAt(null, start)).toBe(15);
    expect(previewSecondsLeftAt(start, start)).toBe(15);
    expect(previewSecondsLeftAt(start, at(400))).toBe(15);
    expect(previewSecondsLeftAt(start, at(10_000))).toBe(5);
    expect(previewSecondsLeftAt(start, at(14_001))).toBe(1);
    expect(previewSecondsLeftAt(start, at(15_000))).toBe(0);
    expect(previewSecondsLeftAt(start, at(86_400_000))).toBe(0);
    // A clock behind the stored start (another instance) never gives more than the full preview.
    expect(previewSecondsLeftAt(start, at(-5_000))).toBe(15);
  });
});
