import { findGoal, findTimeline } from "./goals";
import {
  DISTRIBUTOR_PROGRAM,
  QUICK_PICK_PLANS,
  type BillingPlan,
  type DistributorFees,
  type QuickPickPlan,
  type QuickPickPlanId,
  type ScalingTier,
  type TrialPlan,
} from "./plans";

/**
 * Pure price rules. The server charges exactly what these return and the pages display exactly
 * what these return, so displayed and charged amounts cannot drift apart.
 * (The spec's original charged 20% more than it showed on /apps and doubled the monthly amount:
 * see docs/decisions/0003-prices-shown-equal-prices-charged.md.)
 */

const RUSH_MULTIPLIER = 1.5;

// Constructing a formatter per call costs about a millisecond; a catalogue page formats hundreds.
const wholeDollars = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });
const centsDollars = new Intl.NumberFormat("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const upToCentsDollars = new Intl.NumberFormat("en-US", { maximumFractionDigits: 2 });
const grouped = new Intl.NumberFormat("en-US");

/** "$12.5", "$1,234" (cents only when there are some, without a trailing zero). */
export function formatShortDollars(cents: number): string {
  return `$${upToCentsDollars.format(cents / 100)}`;
}

/** "12,345". */
export function formatCount(n: number): string {
  return grouped.format(n);
}

/** "$1,299", "$12.50": cents only when there are some, so a charge is shown exactly as charged. */
export function formatDollars(cents: number): string {
  const dollars = cents / 100;
  return `$${(Number.isInteger(dollars) ? wholeDollars : centsDollars).format(dollars)}`;
}

/**
 * An order's money as every list shows it: one line, or, with a setup fee, the fee and the
 * recurring amount as two lines ('$997 setup', '$199/month after the 7-day trial'), so the fee paid
 * today is never shown as the monthly price alone. `format` is the list's own dollar format.
 */
export function orderAmountLines(
  order: { amount: number; setupFee: number; isSubscription: boolean; trialDays: number },
  format: (cents: number) => string = formatDollars,
): string[] {
  const recurring = `${format(order.amount)}${order.isSubscription ? "/month" : ""}`;
  if (order.setupFee <= 0) return [recurring];
  const after = order.isSubscription && order.trialDays > 0 ? ` after the ${order.trialDays}-day trial` : "";
  return [`${format(order.setupFee)} setup`, `${recurring}${after}`];
}

// ---- Packages page (quick pick) -------------------------------------------------------------

export type PaymentMode = "one-time" | "monthly";

export interface PackageQuote {
  planId: QuickPickPlanId;
  mode: PaymentMode;
  /** Delivered in 24-48 hours: the Rush button, or the funnel's Rush timeline. */
  rush: boolean;
  /** The funnel's timeline was Rush: its price already is the rush price, there is no second one. */
  rushIncluded: boolean;
  /** The one factor applied to the plan's price: goal x (rush ? 1.5 : timeline), 1 without a funnel. */
  multiplier: number;
  /** Amount charged (and shown) in cents. */
  amount: number;
  isSubscription: boolean;
  /** 'rush' or 'standard' (spec: pricingType of the packages checkout). */
  pricingType: "rush" | "standard";
  /** '24-48 hours' or '5-7 days': the delivery the order is sold with. */
  timeline: "24-48 hours" | "5-7 days";
  trialDays: 3;
}

/**
 * The packages page's amount for one plan, as it sells now (its current amounts: a loader's or the
 * checkout's, app/catalogue/plan-prices.ts): the plan's one-time or monthly cents times one factor,
 * rounded to whole dollars. The factor is the funnel's goal multiplier times either its timeline
 * multiplier or, for rush delivery, 1.5: rush replaces the timeline's factor and never stacks on it
 * (a Rush timeline is already rush, so its Rush button sells the same thing at the same price).
 * Funnel ids count only as a known pair, like funnelMultiplier.
 */
export function quotePackage(
  plan: QuickPickPlan,
  opts: { mode: PaymentMode; rush: boolean; goal?: string | null; timeline?: string | null },
): PackageQuote {
  const goal = findGoal(opts.goal);
  const timeline = findTimeline(opts.timeline);
  const funnel = goal && timeline ? { goal, timeline } : null;
  const rushIncluded = funnel?.timeline.id === "rush";
  const rush = opts.rush || rushIncluded;
  const timeFactor = rush ? RUSH_MULTIPLIER : (funnel?.timeline.multiplier ?? 1);
  // Rounded to 4 places like funnelMultiplier, so 0.8 x 1.1 is 0.88.
  const multiplier = Math.round((funnel?.goal.multiplier ?? 1) * timeFactor * 10_000) / 10_000;
  const base = opts.mode === "monthly" ? plan.monthlyPrice : plan.price;
  const amount = Math.round((base / 100) * multiplier) * 100;
  return {
    planId: plan.id,
    mode: opts.mode,
    rush,
    rushIncluded,
    multiplier,
    amount,
    isSubscription: opts.mode === "monthly",
    pricingType: rush ? "rush" : "standard",
    timeline: rush ? "24-48 hours" : "5-7 days",
    trialDays: 3,
  };
}

/** A quick-pick package at its list price; what it sells at now is in PlanCatalogue.packages. */
export function findQuickPickPlan(id: string): QuickPickPlan | undefined {
  return QUICK_PICK_PLANS.find((p) => p.id === id);
}

/**
 * A multiplier's distance from 1 in whole percent, halves rounded up. The product of two of the
 * funnel's multipliers is a binary fraction just off its decimal value (1.5 x 0.85 is
 * 1.2749999999999999): rounded as it is, 27.5% showed as 27% while 42.5% showed as 43%.
 */
function percentOff1(multiplier: number): number {
  return Math.round(Number((Math.abs(multiplier - 1) * 100).toFixed(9)));
}

/** '{n}% DISCOUNT Applied!' below 1, '{n}% Rush Premium Applied' above 1, nothing at 1. */
export function multiplierBadge(multiplier: number | undefined): { kind: "discount" | "premium"; text: string } | null {
  if (multiplier === undefined || multiplier === 1) return null;
  if (multiplier < 1) return { kind: "discount", text: `${percentOff1(multiplier)}% DISCOUNT Applied!` };
  return { kind: "premium", text: `${percentOff1(multiplier)}% Rush Premium Applied` };
}

// ---- Apps page ------------------------------------------------------------------------------

export const APP_PRICING_TABS = ["base", "standard", "express", "monthly"] as const;
export type AppPricingTab = (typeof APP_PRICING_TABS)[number];

export function isAppPricingTab(value: string | null | undefined): value is AppPricingTab {
  return (APP_PRICING_TABS as readonly string[]).includes(value ?? "");
}

export const APP_TAB_INFO: Record<AppPricingTab, { label: string; sentence: string; delivery: string }> = {
  base: {
    label: "Standard",
    sentence: "Our standard build: a complete, ready-made app customised to your brand.",
    delivery: "7-14 days",
  },
  standard: {
    label: "Professional",
    sentence: "Professional tier at a 10% saving, delivered on a fixed 5-7 day schedule.",
    delivery: "5-7 days",
  },
  express: {
    label: "Rush Delivery",
    sentence: "Rush delivery: a dedicated team ships your app in 24-48 hours.",
    delivery: "24-48 hours",
  },
  monthly: {
    label: "Monthly",
    sentence: "Spread the cost: a monthly subscription instead of one payment.",
    delivery: "Standard timeline",
  },
};

export interface AppPriceFields {
  basePrice: number | null;
  standardPrice: number | null;
  expressPrice: number | null;
  monthlyFinancing: string | null;
}

const DEFAULT_APP_BASE_PRICE = 15000;
const DEFAULT_APP_MONTHLY = 750;

export interface AppQuote {
  tab: AppPricingTab;
  /** Cents charged and shown. */
  amount: number;
  isSubscription: boolean;
  timeline: "rush" | "standard";
  /** What the card shows: '$12,345' or '$617/month'. */
  display: string;
  delivery: string;
  trialDays: 3;
}

function positiveOr(value: number | null | undefined, fallback: number): number {
  return typeof value === "number" && Number.isFinite(value) && value > 0 ? value : fallback;
}

/** Per-tab price of one app (whole dollars in the catalogue, cents out). */
export function quoteApp(app: AppPriceFields, tab: AppPricingTab): AppQuote {
  const base = positiveOr(app.basePrice, DEFAULT_APP_BASE_PRICE);
  const delivery = APP_TAB_INFO[tab].delivery;
  if (tab === "monthly") {
    const monthly = positiveOr(Number.parseFloat(app.monthlyFinancing ?? ""), DEFAULT_APP_MONTHLY);
    const amount = Math.round(monthly * 100);
    return {
      tab,
      amount,
      isSubscription: true,
      timeline: "standard",
      display: `${formatDollars(amount)}/month`,
      delivery,
      trialDays: 3,
    };
  }
  const dollars =
    tab === "express" ? positiveOr(app.expressPrice, base) : tab === "standard" ? positiveOr(app.standardPrice, base) : base;
  const amount = Math.round(dollars * 100);
  return {
    tab,
    amount,
    isSubscription: false,
    timeline: tab === "express" ? "rush" : "standard",
    display: formatDollars(amount),
    delivery,
    trialDays: 3,
  };
}

// ---- Subscriptions: billing plans, scaling tiers, add-ons, distributor ------------------------
// Each takes the plan as it sells now (app/catalogue/plan-prices.ts): its amounts are the current ones.

export interface SubscriptionQuote {
  /** Cents per month, charged and shown. */
  amount: number;
  /** One-time fee added to the first payment, cents. */
  setupFee: number;
  isSubscription: true;
  trialDays: number;
}

export function quoteBillingPlan(plan: BillingPlan): SubscriptionQuote {
  return { amount: plan.monthlyPrice, setupFee: 0, isSubscription: true, trialDays: 0 };
}

export function quoteScalingTier(tier: ScalingTier): SubscriptionQuote {
  return { amount: tier.monthlyPrice, setupFee: 0, isSubscription: true, trialDays: 0 };
}

/** A bundle of add-ons is one monthly subscription: the sum of their monthly prices. */
export function quoteAddons(addons: readonly { monthlyPrice: number }[]): SubscriptionQuote {
  return { amount: addons.reduce((sum, a) => sum + a.monthlyPrice, 0), setupFee: 0, isSubscription: true, trialDays: 0 };
}

/** A member plan of the trial chooser (Growth, Pro): its discounted monthly price, no trial (it is the upgrade from one). */
export function quoteMemberPlan(plan: TrialPlan): SubscriptionQuote {
  return { amount: plan.price, setupFee: 0, isSubscription: true, trialDays: 0 };
}

/** The distributor program at `fees` (its current amounts): the setup fee today, the monthly fee after the trial. */
export function quoteDistributor(fees: DistributorFees): SubscriptionQuote {
  return {
    amount: fees.monthlyFee,
    setupFee: fees.setupFee,
    isSubscription: true,
    trialDays: DISTRIBUTOR_PROGRAM.trialDays,
  };
}

/** A tier's plan name: 'Scale 100K', 'Scale 1M'. */
export function scalingTierName(tier: ScalingTier): string {
  const n = tier.contacts >= 1_000_000 ? `${tier.contacts / 1_000_000}M` : `${tier.contacts / 1000}K`;
  return `Scale ${n}`;
}
