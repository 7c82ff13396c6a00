/** What applying one Stripe event did: the webhook answers 200 for all three. */
export type EventOutcome = "applied" | "duplicate" | "ignored";
