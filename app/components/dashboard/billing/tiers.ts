export type TierRelation = "current" | "upgrade" | "downgrade";

/** What of the account's active subscription decides a tier's label (the scaling page's loader). */
export interface TierSubscription {
  active: boolean;
  /** 'basic', 'pro', 'enterprise' (billing plans) or 'scaling' (a tier bought on the scaling page). */
  planType: string | null;
  /** Contacts per month of the active row; null = none, or unlimited (Enterprise). */
  reachLimit: number | null;
}

/**
 * A scaling tier against the account's subscription. Only a scaling subscription is on a tier: a
 * billing plan with the same contacts (Basic's 10,000 against the $199 10K tier) is another product
 * at another price, and an unlimited plan is above no tier in particular. So a tier is current only
 * for a scaling subscription with its contacts, lower tiers are downgrades only relative to such a
 * tier, and against anything else every tier is offered as an upgrade.
 */
export function tierRelation(contacts: number, current: TierSubscription): TierRelation {
  if (!current.active || current.planType !== "scaling" || current.reachLimit === null) return "upgrade";
  if (contacts === current.reachLimit) return "current";
  return contacts < current.reachLimit ? "downgrade" : "upgrade";
}
