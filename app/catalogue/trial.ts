/** Pure trial rules (spec sections 4 'Trial' and 9 'Timers and limits'). Shared by server and UI. */
import { TRIAL_DAYS, TRIAL_PLANS, type TrialPlan, type TrialPlanId } from "./plans";

/** The floating free-preview box counts down from this many seconds before the plan chooser. */
export const FREE_PREVIEW_SECONDS = 15;
/** The dashboard trial lasts 7 days (the spec's other reading, 3 days, applies to checkouts). */
export const TRIAL_LENGTH_DAYS = TRIAL_DAYS.dashboard;
/** How often the overview's remaining-time text is refreshed. */
export const TRIAL_REFRESH_MS = 60_000;

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

export interface TrialFields {
  trialStarted: boolean;
  trialActivatedAt: Date | null;
  trialEndsAt: Date | null;
}

export function isTrialPlanId(value: unknown): value is TrialPlanId {
  return typeof value === "string" && TRIAL_PLANS.some((p) => p.id === value);
}

export function trialPlan(id: TrialPlanId): TrialPlan {
  const plan = TRIAL_PLANS.find((p) => p.id === id);
  if (!plan) throw new Error(`unknown trial plan ${id}`);
  return plan;
}

/** End of a trial started at `start`: exactly 7 days later. */
export function trialEndFrom(start: Date): Date {
  return new Date(start.getTime() + TRIAL_LENGTH_DAYS * DAY_MS);
}

/** An active trial: started and its end still in the future (the end instant itself is expired). */
export function isTrialActive(trial: TrialFields | null, now: Date): boolean {
  return !!trial?.trialStarted && !!trial.trialEndsAt && trial.trialEndsAt.getTime() > now.getTime();
}

/** The dashboard gate: an active trial or an active subscription. */
export function hasDashboardAccess(trial: TrialFields | null, hasActiveSubscription: boolean, now: Date): boolean {
  return hasActiveSubscription || isTrialActive(trial, now);
}

/**
 * What the overlay shows: nothing when access is granted, the free preview (then the chooser) for a
 * trial never started, the chooser with the trial marked as used once a started trial has ended.
 */
export type OverlayMode = "none" | "preview" | "expired";

export function overlayMode(trial: TrialFields | null, hasActiveSubscription: boolean, now: Date): OverlayMode {
  if (hasDashboardAccess(trial, hasActiveSubscription, now)) return "none";
  return trial?.trialStarted ? "expired" : "preview";
}

/** 'Nd Nh remaining' (whole days and hours, rounded down), or 'Trial expired' at or after the end. */
export function formatTrialRemaining(endsAt: Date, now: Date): string {
  const left = endsAt.getTime() - now.getTime();
  if (left <= 0) return "Trial expired";
  const days = Math.floor(left / DAY_MS);
  const hours = Math.floor((left % DAY_MS) / HOUR_MS);
  return `${days}d ${hours}h remaining`;
}

/** Elapsed share of the trial in percent, clamped to 0-100. */
export function trialProgressPercent(activatedAt: Date, endsAt: Date, now: Date): number {
  const total = endsAt.getTime() - activatedAt.getTime();
  if (total <= 0) return 100;
  const elapsed = now.getTime() - activatedAt.getTime();
  return Math.min(100, Math.max(0, (elapsed / total) * 100));
}

/** Whole-dollar display of a cents amount: 350000 -> '$3,500'. */
export { formatShortDollars as formatDollars } from "./pricing";

/** Percentage saved against the original price (30 for the member plans), 0 for the free plan. */
export function discountPercent(plan: TrialPlan): number {
  if (plan.originalPrice <= 0) return 0;
  return Math.round((1 - plan.price / plan.originalPrice) * 100);
}

export interface MemberSaving {
  percent: number;
  upTo: boolean;
  planNames: string[];
}

/** "Members save 30%", or "Members save up to 40%" when the plans save different amounts. */
export function membersSave(saving: MemberSaving): string {
  return `Members save ${saving.upTo ? "up to " : ""}${saving.percent}%`;
}

/**
 * What the paid member plans save at these prices: the largest percent off, whether some save less
 * ("up to"), and the plans that save anything; null when none does.
 */
export function memberSaving(plans: readonly TrialPlan[]): MemberSaving | null {
  const saving = plans.map((plan) => ({ name: plan.name, off: discountPercent(plan) })).filter((p) => p.off > 0);
  if (saving.length === 0) return null;
  const percent = Math.max(...saving.map((p) => p.off));
  return { percent, upTo: saving.some((p) => p.off !== percent), planNames: saving.map((p) => p.name) };
}

/** Free-preview seconds left after `elapsedSeconds` ticks, never below 0. */
export function previewSecondsLeft(elapsedSeconds: number): number {
  return Math.max(0, FREE_PREVIEW_SECONDS - elapsedSeconds);
}

/**
 * Free-preview seconds left `now`, counted from the account's first dashboard view (`startedAt`,
 * stored by the server): a reload or another device does not start it again. Whole seconds,
 * rounded up, so the box never shows 0 while time is left; the full preview before the first view.
 */
export function previewSecondsLeftAt(startedAt: Date | null, now: Date): number {
  if (!startedAt) return FREE_PREVIEW_SECONDS;
  const elapsedMs = Math.max(0, now.getTime() - startedAt.getTime());
  return Math.max(0, Math.ceil(FREE_PREVIEW_SECONDS - elapsedMs / 1000));
}
