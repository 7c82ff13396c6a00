import { describe, expect, it } from "vitest";
import { capturesAfterTrial, chargedAtTrialEnd, dueToday, trialCaptureAt } from "./due-today.server";

const oneTime = { amount: 1_850_000, setupFee: 0, isSubscription: false, trialDays: 3 };
const monthly = { amount: 61_700, setupFee: 0, isSubscription: true, trialDays: 3 };
const distributor = { amount: 19_900, setupFee: 99_700, isSubscription: true, trialDays: 7 };

describe("what a first payment takes today", () => {
  it("a one-time build with its trial: nothing today, the whole amount when the trial ends", () => {
    expect(capturesAfterTrial(oneTime)).toBe(true);
    expect(dueToday(oneTime)).toBe(0);
    expect(chargedAtTrialEnd(oneTime)).toBe(1_850_000);
  });

  it("a subscription's trial is Stripe's, not a held payment: its setup fee today", () => {
    expect(capturesAfterTrial(monthly)).toBe(false);
    expect(dueToday(monthly)).toBe(0);
    expect(capturesAfterTrial(distributor)).toBe(false);
    expect(dueToday(distributor)).toBe(99_700);
  });

  it("without a trial everything is due today", () => {
    expect(capturesAfterTrial({ ...oneTime, trialDays: 0 })).toBe(false);
    expect(dueToday({ ...oneTime, trialDays: 0 })).toBe(1_850_000);
    expect(dueToday({ ...monthly, trialDays: 0 })).toBe(61_700);
  });

  it("the capture is the trial's days after the authorisation", () => {
    expect(trialCaptureAt(oneTime, new Date("2026-11-26T23:30:00Z")).toISOString()).toBe("2026-11-29T23:30:00.000Z");
  });
});
