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
