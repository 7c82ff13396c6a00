/**
 * What a plan change costs in the middle of a billing period, the way Stripe prorates it
 * (proration_behavior 'always_invoice'): the unused rest of the period on the old price is credited,
 * the same rest on the new price is charged, each rounded to the cent on its own (Stripe rounds
 * each proration line), and the difference is due now (an upgrade) or credited (a downgrade). The
 * local provider uses this so its confirmation shows the figures Stripe's preview would.
 */

export interface ProrationInput {
  /** Cents per period of the current plan. */
  oldAmount: number;
  /** Cents per period of the new plan. */
  newAmount: number;
  periodStart: Date;
  periodEnd: Date;
  /** The moment of the change (Stripe's proration_date). */
  at: Date;
}

export interface Proration {
  /** Seconds of the period left after `at` (0 after the end, the whole period before the start). */
  remainingSeconds: number;
  periodSeconds: number;
  /** Cents credited for the unused time on the old plan. */
  credit: number;
  /** Cents charged for the same time on the new plan. */
  charge: number;
  /** charge - credit: positive is due now, negative is a credit toward the next invoices. */
  net: number;
}

const seconds = (d: Date) => Math.floor(d.getTime() / 1000);

export function prorate(input: ProrationInput): Proration {
  const periodSeconds = Math.max(1, seconds(input.periodEnd) - seconds(input.periodStart));
  const remainingSeconds = Math.min(periodSeconds, Math.max(0, seconds(input.periodEnd) - seconds(input.at)));
  const credit = Math.round((input.oldAmount * remainingSeconds) / periodSeconds);
  const charge = Math.round((input.newAmount * remainingSeconds) / periodSeconds);
  return { remainingSeconds, periodSeconds, credit, charge, net: charge - credit };
}

/** What the confirmation says is due now: never below zero (a credit is not a refund). */
export const dueNow = (net: number) => Math.max(0, net);

/** What the confirmation says is credited: the part of a downgrade's net below zero. */
export const creditNow = (net: number) => Math.max(0, -net);
