import { FALLBACK_TIME_ZONE, instantOfWallTime, wallTimeIn } from "~/lib/time-zone";

/** The onboarding tracker's steps and pure rules (spec sections 2, 3 'Onboarding step', 4 'Onboarding'). */

const ONBOARDING_STEP_IDS = [
  "create-account",
  "schedule-call",
  "business-questionnaire",
  "choose-package",
  "connect-tools",
  "review-draft",
  "launch-app",
  "optimise",
] as const;
export type OnboardingStepId = (typeof ONBOARDING_STEP_IDS)[number];

export interface OnboardingStepDef {
  id: OnboardingStepId;
  order: number;
  title: string;
  description: string;
}

export interface OnboardingStep extends OnboardingStepDef {
  completed: boolean;
}

/** Step 1 is completed at sign-up; the server records it on the first visit if it is missing. */
export const SIGNUP_STEP_ID: OnboardingStepId = "create-account";
export const SCHEDULE_CALL_STEP_ID: OnboardingStepId = "schedule-call";

export const ONBOARDING_STEPS: readonly OnboardingStepDef[] = [
  { id: "create-account", order: 1, title: "Create your account", description: "Sign up and verify your email address." },
  {
    id: "schedule-call",
    order: 2,
    title: "Schedule your onboarding call",
    description: "Book a kickoff call with our team to plan your AI automation.",
  },
  {
    id: "business-questionnaire",
    order: 3,
    title: "Complete the business questionnaire",
    description: "Tell us about your business, customers and the tasks you want to automate.",
  },
  {
    id: "choose-package",
    order: 4,
    title: "Choose your package",
    description: "Pick the package and add-ons that fit your goals and budget.",
  },
  {
    id: "connect-tools",
    order: 5,
    title: "Connect your tools",
    description: "Link your website, CRM, calendar and messaging channels.",
  },
  {
    id: "review-draft",
    order: 6,
    title: "Review your first AI draft",
    description: "Test the first version of your AI app and send us your feedback.",
  },
  { id: "launch-app", order: 7, title: "Launch your AI app", description: "Go live and start automating conversations." },
  {
    id: "optimise",
    order: 8,
    title: "Optimise with your success manager",
    description: "Review results together and tune your app for more conversions.",
  },
];

export function isOnboardingStepId(value: unknown): value is OnboardingStepId {
  return typeof value === "string" && (ONBOARDING_STEP_IDS as readonly string[]).includes(value);
}

/** The ordered steps with their completion flags. */
export function buildSteps(completed: Iterable<string>): OnboardingStep[] {
  const done = new Set(completed);
  return [...ONBOARDING_STEPS].sort((a, b) => a.order - b.order).map((s) => ({ ...s, completed: done.has(s.id) }));
}

/** Completed share in whole percent (0-100). */
export function onboardingProgress(steps: readonly OnboardingStep[]): number {
  if (steps.length === 0) return 0;
  return Math.round((steps.filter((s) => s.completed).length / steps.length) * 100);
}

/** The first step not yet completed, in order; null when all are done. */
export function nextStep(steps: readonly OnboardingStep[]): OnboardingStep | null {
  return steps.find((s) => !s.completed) ?? null;
}

/**
 * The onboarding call time: two calendar days after `now` at 14:00, both read in the customer's time
 * zone (a customer in New York gets 14:00 New York time, whatever zone the server runs in).
 */
export function onboardingCallTime(now: Date, timeZone = FALLBACK_TIME_ZONE): Date {
  const today = wallTimeIn(now, timeZone);
  const day = new Date(Date.UTC(today.year, today.month - 1, today.day + 2));
  return instantOfWallTime(
    { year: day.getUTCFullYear(), month: day.getUTCMonth() + 1, day: day.getUTCDate(), hour: 14, minute: 0 },
    timeZone,
  );
}

/** Countdown to the call in days, hours and minutes, or 'Call time has passed' at or after it. */
export function formatCallCountdown(callAt: Date, now: Date): string {
  const left = callAt.getTime() - now.getTime();
  if (left <= 0) return "Call time has passed";
  const minutes = Math.floor(left / 60_000);
  const days = Math.floor(minutes / (24 * 60));
  const hours = Math.floor((minutes % (24 * 60)) / 60);
  return `${days}d ${hours}h ${minutes % 60}m`;
}
