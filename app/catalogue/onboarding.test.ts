import { describe, expect, it } from "vitest";
import {
  buildSteps,
  formatCallCountdown,
  isOnboardingStepId,
  nextStep,
  ONBOARDING_STEPS,
  onboardingCallTime,
  onboardingProgress,
} from "./onboarding";

describe("onboarding rules", () => {
  it("has 8 ordered steps starting with account creation", () => {
    expect(ONBOARDING_STEPS.map((s) => s.order)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(ONBOARDING_STEPS.map((s) => s.title)).toEqual([
      "Create your account",
      "Schedule your onboarding call",
      "Complete the business questionnaire",
      "Choose your package",
      "Connect your tools",
      "Review your first AI draft",
      "Launch your AI app",
      "Optimise with your success manager",
    ]);
  });

  it("validates step ids", () => {
    expect(isOnboardingStepId("connect-tools")).toBe(true);
    expect(isOnboardingStepId("nope")).toBe(false);
    expect(isOnboardingStepId(3)).toBe(false);
  });

  it("progress is the completed share and the next step is the first open one", () => {
    const none = buildSteps([]);
    expect(onboardingProgress(none)).toBe(0);
    expect(nextStep(none)?.id).toBe("create-account");
    const one = buildSteps(["create-account"]);
    expect(onboardingProgress(one)).toBe(13);
    expect(nextStep(one)?.id).toBe("schedule-call");
    const gap = buildSteps(["create-account", "connect-tools", "unknown"]);
    expect(onboardingProgress(gap)).toBe(25);
    expect(nextStep(gap)?.id).toBe("schedule-call");
    const all = buildSteps(ONBOARDING_STEPS.map((s) => s.id));
    expect(onboardingProgress(all)).toBe(100);
    expect(nextStep(all)).toBeNull();
  });

  it("schedules the call two days ahead at 14:00 in the customer's zone", () => {
    // 14:00 in New York is 19:00 UTC in winter (EST) and 18:00 in summer (EDT).
    expect(onboardingCallTime(new Date("2026-11-26T15:00:00Z"), "America/New_York").toISOString()).toBe(
      "2026-11-28T19:00:00.000Z",
    );
    expect(onboardingCallTime(new Date("2026-06-10T12:00:00Z"), "America/New_York").toISOString()).toBe(
      "2026-06-12T18:00:00.000Z",
    );
    // "Two days ahead" counts from the customer's date: 22:00 on the 26th in New York is the 27th in UTC.
    expect(onboardingCallTime(new Date("2026-11-27T03:00:00Z"), "America/New_York").toISOString()).toBe(
      "2026-11-28T19:00:00.000Z",
    );
    // Across the spring change (8 March 2026 in the US): the 9th's 14:00 is EDT.
    expect(onboardingCallTime(new Date("2026-03-07T12:00:00Z"), "America/New_York").toISOString()).toBe(
      "2026-03-09T18:00:00.000Z",
    );
    expect(onboardingCallTime(new Date("2026-11-26T15:00:00Z"), "Asia/Kolkata").toISOString()).toBe("2026-11-28T08:30:00.000Z");
  });

  it("schedules the call two days ahead at 14:00 UTC", () => {
    expect(onboardingCallTime(new Date("2026-03-10T09:30:00Z")).toISOString()).toBe("2026-03-12T14:00:00.000Z");
    expect(onboardingCallTime(new Date("2026-03-10T23:59:00Z")).toISOString()).toBe("2026-03-12T14:00:00.000Z");
    // Month and year boundaries.
    expect(onboardingCallTime(new Date("2026-12-30T20:00:00Z")).toISOString()).toBe("2027-01-01T14:00:00.000Z");
  });

  it("counts down in days, hours and minutes, then says the call time has passed", () => {
    const call = new Date("2026-03-12T14:00:00Z");
    expect(formatCallCountdown(call, new Date("2026-03-10T09:30:00Z"))).toBe("2d 4h 30m");
    expect(formatCallCountdown(call, new Date("2026-03-12T13:59:30Z"))).toBe("0d 0h 0m");
    expect(formatCallCountdown(call, call)).toBe("Call time has passed");
    expect(formatCallCountdown(call, new Date("2026-03-13T00:00:00Z"))).toBe("Call time has passed");
  });
});
