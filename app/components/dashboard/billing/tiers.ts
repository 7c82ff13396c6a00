import { planIncludesContacts } from "~/catalogue/plans";

export type TierRelation = "current" | "included" | "upgrade" | "downgrade";

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
 * plan (a Pro subscriber buying the 10K tier drops from 100,000 contacts to 10,000). Only more
 * contacts is an upgrade and only fewer a downgrade. A tier with the contacts the plan has today is
 * neither (planIncludesContacts, which the checkout also refuses): 'current' for the scaling
 * subscription bought as that tier, 'included' for a billing plan with the same contacts (Pro's
 * 100,000 and the 100K tier). Every tier below an unlimited plan (Enterprise) is a downgrade.
 */
export function tierRelation(contacts: number, current: TierSubscription): TierRelation {
  if (!current.active) return "upgrade";
  if (planIncludesContacts(current, contacts)) return current.planType === "scaling" ? "current" : "included";
  if (current.reachLimit === null) return current.planType === "scaling" || current.planType === null ? "upgrade" : "downgrade";
  return contacts < current.reachLimit ? "downgrade" : "upgrade";
}
