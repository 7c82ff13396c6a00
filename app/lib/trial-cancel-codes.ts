/**
 * Why cancelling a one-time build's free trial was refused: the billing page shows a text per code
 * (components/dashboard/billing/RunningTrials.tsx), never the server's wording.
 */
const TRIAL_CANCEL_CODES = [
  /** No trial of this account has that id. */
  "trial_not_found",
  /** The trial has ended: its payment is being or has been taken (or could not be). */
  "trial_ended",
  /** Canceled already (another tab, a second click). */
  "trial_already_canceled",
] as const;

export type TrialCancelCode = (typeof TRIAL_CANCEL_CODES)[number];
