import {
  BILLING_PLANS,
  DISTRIBUTOR_PROGRAM,
  QUICK_PICK_PLANS,
  SCALING_TIERS,
  TRIAL_PLANS,
  type BillingPlan,
  type DistributorFees,
  type QuickPickPlan,
  type ScalingTier,
  type TrialPlan,
} from "./plans";
import { formatDollars, scalingTierName } from "./pricing";
import { discountPercent } from "./trial";

/**
 * The plans whose amounts an operator changes (docs/decisions/0085-plan-prices-in-database.md, and
 * for the quick-pick packages 0089-quick-pick-package-prices-in-database.md).
 * Which plans exist, their ids, names, features and allowances are the typed lists of plans.ts;
 * only their amounts have a history (plan_prices), and the typed amounts are each plan's list price,
 * in effect until its first change. Pure and shared: the server reads the current amounts
 * (current-plan-prices.server.ts) and every page shows what its loader read.
 */

export const PLAN_PRICE_KINDS = ["plan", "scaling", "member", "distributor", "package"] as const;
export type PlanPriceKind = (typeof PLAN_PRICE_KINDS)[number];

/** What one plan sells at, in cents. */
export interface PlanAmounts {
  /**
   * A month of it: a billing plan's, a tier's, a member plan's after its discount, the distributor
   * program's fee. A package's one-time price.
   */
  amount: number;
  /**
   * What `amount` is shown against, struck through: a member plan's monthly price before the discount,
   * a package's one-time "was" price; null for every other kind.
   */
  originalAmount: number | null;
  /** The distributor program's one-time setup fee; null for every other kind. */
  setupFee: number | null;
  /** A package's monthly price (the other way to pay for it); null for every other kind. */
  monthlyAmount: number | null;
}

/** A plan whose amounts live in plan_prices. */
export interface PricedPlan {
  kind: PlanPriceKind;
  /** As orders and subscriptions name it: 'pro', the tier's index '2', 'growth', 'distributor', 'starter'. */
  itemId: string;
  /** 'plan-pro', 'scaling-2', 'member-growth', 'distributor', 'package-starter': its console address and audit subject. */
  key: string;
  /**
   * As its order names it: 'Pro Plan', 'Scale 100K', 'Growth Member Plan', 'AI Distributor Program'.
   * A package's order says 'Starter'; the console says 'Starter Package', so it is not taken for a plan.
   */
  name: string;
  /** The typed amounts: what it sells at until an operator changes them. */
  list: PlanAmounts;
}

export const planPriceKey = (kind: PlanPriceKind, itemId: string) => (kind === itemId ? kind : `${kind}-${itemId}`);

const priced = (kind: PlanPriceKind, itemId: string, name: string, list: PlanAmounts): PricedPlan => ({
  kind,
  itemId,
  key: planPriceKey(kind, itemId),
  name,
  list,
});

/** A monthly price alone: what every plan but the member plans, the distributor program and the packages has. */
const monthly = (amount: number): PlanAmounts => ({ amount, originalAmount: null, setupFee: null, monthlyAmount: null });

/** A package's three amounts. */
const packageAmounts = (p: Pick<QuickPickPlan, "price" | "originalPrice" | "monthlyPrice">): PlanAmounts => ({
  amount: p.price,
  originalAmount: p.originalPrice,
  setupFee: null,
  monthlyAmount: p.monthlyPrice,
});

/** Every plan with a price an operator sets, in the order the console lists them. The free Starter stays free. */
export const PRICED_PLANS: readonly PricedPlan[] = [
  ...BILLING_PLANS.map((p) => priced("plan", p.type, `${p.name} Plan`, monthly(p.monthlyPrice))),
  ...SCALING_TIERS.map((t, i) => priced("scaling", String(i), scalingTierName(t), monthly(t.monthlyPrice))),
  ...TRIAL_PLANS.filter((p) => p.price > 0).map((p) =>
    priced("member", p.id, `${p.name} Member Plan`, { ...monthly(p.price), originalAmount: p.originalPrice }),
  ),
  priced("distributor", "distributor", "AI Distributor Program", {
    ...monthly(DISTRIBUTOR_PROGRAM.monthlyFee),
    setupFee: DISTRIBUTOR_PROGRAM.setupFee,
  }),
  ...QUICK_PICK_PLANS.map((p) => priced("package", p.id, `${p.name} Package`, packageAmounts(p))),
];

export function findPricedPlan(key: string): PricedPlan | undefined {
  return PRICED_PLANS.find((p) => p.key === key);
}

export const KIND_LABELS: Record<PlanPriceKind, string> = {
  plan: "Billing plan",
  scaling: "Scaling tier",
  member: "Member plan",
  distributor: "Distributor program",
  package: "Quick-pick package",
};

/** The plans as they sell now: the typed lists with the current amounts in them. */
export interface PlanCatalogue {
  billingPlans: BillingPlan[];
  scalingTiers: ScalingTier[];
  /** Every plan of the trial chooser, the free Starter included. */
  trialPlans: TrialPlan[];
  distributor: DistributorFees;
  /** The quick-pick packages of /packages, the amounts the funnel's multipliers apply to. */
  packages: QuickPickPlan[];
}

/**
 * The typed lists priced with `current` (amounts by PricedPlan key, as read from plan_prices): a
 * plan without an entry sells at its list price. A stored amount a kind does not have is ignored,
 * and one it lacks is its list amount, so the result always has every amount of every plan.
 */
export function pricePlans(current: Readonly<Record<string, PlanAmounts | undefined>>): PlanCatalogue {
  const amountsOf = (kind: PlanPriceKind, itemId: string) => current[planPriceKey(kind, itemId)];
  return {
    billingPlans: BILLING_PLANS.map((p) => ({ ...p, monthlyPrice: amountsOf("plan", p.type)?.amount ?? p.monthlyPrice })),
    scalingTiers: SCALING_TIERS.map((t, i) => ({
      ...t,
      monthlyPrice: amountsOf("scaling", String(i))?.amount ?? t.monthlyPrice,
    })),
    trialPlans: TRIAL_PLANS.map((p) => {
      const now = p.price > 0 ? amountsOf("member", p.id) : undefined;
      return withDiscountFeature(now ? { ...p, price: now.amount, originalPrice: now.originalAmount ?? p.originalPrice } : p);
    }),
    distributor: {
      monthlyFee: amountsOf("distributor", "distributor")?.amount ?? DISTRIBUTOR_PROGRAM.monthlyFee,
      setupFee: amountsOf("distributor", "distributor")?.setupFee ?? DISTRIBUTOR_PROGRAM.setupFee,
    },
    packages: QUICK_PICK_PLANS.map((p) => {
      const now = amountsOf("package", p.id);
      return {
        ...p,
        price: now?.amount ?? p.price,
        originalPrice: now?.originalAmount ?? p.originalPrice,
        monthlyPrice: now?.monthlyAmount ?? p.monthlyPrice,
      };
    }),
  };
}

/** A member plan's features end with the discount its two prices make, so the line follows a price change. */
function withDiscountFeature(plan: TrialPlan): TrialPlan {
  const off = discountPercent(plan);
  return { ...plan, features: off > 0 ? [...plan.features, `${off}% member discount`] : [...plan.features] };
}

/** The plans at their list prices: what every page showed before plan prices could change. */
export const LIST_PLAN_CATALOGUE: PlanCatalogue = pricePlans({});

/** The amounts of `plan` in `catalogue`. */
export function amountsIn(catalogue: PlanCatalogue, plan: Pick<PricedPlan, "kind" | "itemId">): PlanAmounts {
  switch (plan.kind) {
    case "plan": {
      const p = catalogue.billingPlans.find((b) => b.type === plan.itemId);
      if (!p) throw new Error(`unknown billing plan ${plan.itemId}`);
      return monthly(p.monthlyPrice);
    }
    case "scaling": {
      const t = catalogue.scalingTiers[Number(plan.itemId)];
      if (!t) throw new Error(`unknown scaling tier ${plan.itemId}`);
      return monthly(t.monthlyPrice);
    }
    case "member": {
      const p = catalogue.trialPlans.find((m) => m.id === plan.itemId);
      if (!p) throw new Error(`unknown member plan ${plan.itemId}`);
      return { ...monthly(p.price), originalAmount: p.originalPrice };
    }
    case "distributor":
      return { ...monthly(catalogue.distributor.monthlyFee), setupFee: catalogue.distributor.setupFee };
    case "package": {
      const p = catalogue.packages.find((q) => q.id === plan.itemId);
      if (!p) throw new Error(`unknown package ${plan.itemId}`);
      return packageAmounts(p);
    }
  }
}

/**
 * One plan's amounts in a line: '$499/mo', '$3,500/mo (was $5,000)', '$997 setup + $199/mo', and a
 * package's '$3,500 (was $5,000) or $2,000/mo' (paid once, or monthly).
 */
export function planAmountsText(amounts: PlanAmounts, format: (cents: number) => string = formatDollars): string {
  const was = amounts.originalAmount !== null ? ` (was ${format(amounts.originalAmount)})` : "";
  if (amounts.monthlyAmount !== null) return `${format(amounts.amount)}${was} or ${format(amounts.monthlyAmount)}/mo`;
  const monthly = `${format(amounts.amount)}/mo`;
  if (amounts.setupFee !== null) return `${format(amounts.setupFee)} setup + ${monthly}`;
  return `${monthly}${was}`;
}

/** Whether two sets of amounts are the same (a save that changes nothing records nothing). */
export const sameAmounts = (a: PlanAmounts, b: PlanAmounts) =>
  a.amount === b.amount &&
  a.originalAmount === b.originalAmount &&
  a.setupFee === b.setupFee &&
  a.monthlyAmount === b.monthlyAmount;

/** Which of the amounts besides `amount` a plan of `kind` has (the rest are null in its rows). */
export const KIND_AMOUNTS: Record<PlanPriceKind, readonly ("originalAmount" | "setupFee" | "monthlyAmount")[]> = {
  plan: [],
  scaling: [],
  member: ["originalAmount"],
  distributor: ["setupFee"],
  package: ["originalAmount", "monthlyAmount"],
};

/** `amounts` with only what a plan of `kind` has: the others null, as its plan_prices row stores them. */
export function amountsForKind(kind: PlanPriceKind, amounts: PlanAmounts): PlanAmounts {
  const has = KIND_AMOUNTS[kind];
  return {
    amount: amounts.amount,
    originalAmount: has.includes("originalAmount") ? amounts.originalAmount : null,
    setupFee: has.includes("setupFee") ? amounts.setupFee : null,
    monthlyAmount: has.includes("monthlyAmount") ? amounts.monthlyAmount : null,
  };
}

/** Only the amounts a plan of `kind` has (what its audit entries record): never a null that means "none". */
export function amountsOfKind(kind: PlanPriceKind, amounts: PlanAmounts): Partial<PlanAmounts> {
  const picked: Partial<PlanAmounts> = { amount: amounts.amount };
  for (const field of KIND_AMOUNTS[kind]) picked[field] = amounts[field];
  return picked;
}
