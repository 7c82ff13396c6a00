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
 * A scaling tier against the account's subscription, by contacts, since buying a tier replaces the
 * plan (a Pro subscriber buying the 10K tier drops from 100,000 contacts to 10,000). A tier is
 * current only for a scaling subscription with its contacts: a billing plan with the same contacts
 * (Basic's 10,000 against the $199 10K tier) is another product at another price, offered as an
 * upgrade. Tiers below the plan's contacts are downgrades, every tier below an unlimited plan
 * (Enterprise) too.
 */
export function tierRelation(contacts: number, current: TierSubscription): TierRelation {
  if (!current.active) return "upgrade";
  if (current.reachLimit === null) return current.planType === "scaling" || current.planType === null ? "upgrade" : "downgrade";
  if (contacts < current.reachLimit) return "downgrade";
  return contacts === current.reachLimit && current.planType === "scaling" ? "current" : "upgrade";
}
