/**
 * Where an outgoing email stands, for the console's Emails table. The outbox row records only what
 * happened (sent, last error, failed for good); "stuck" is read from how long it has waited: a
 * delivery job takes a new email within seconds and its retries end within a day.
 */
export const EMAIL_STATUSES = ["failed", "stuck", "retrying", "waiting", "sent"] as const;
export type EmailStatus = (typeof EMAIL_STATUSES)[number];

/** An unsent email no attempt has touched for this long is stuck (no job took it). */
export const EMAIL_UNTOUCHED_STUCK_MS = 60 * 60_000;
/** An unsent email this old is stuck even if it is still being retried: the retries are over. */
export const EMAIL_RETRYING_STUCK_MS = 24 * 60 * 60_000;

export interface EmailState {
  sentAt: Date | string | null;
  failedAt: Date | string | null;
  error: string | null;
  createdAt: Date | string;
}

export function emailStatus(row: EmailState, now: Date): EmailStatus {
  if (row.sentAt) return "sent";
  if (row.failedAt) return "failed";
  const age = now.getTime() - new Date(row.createdAt).getTime();
  if (age >= EMAIL_RETRYING_STUCK_MS) return "stuck";
  if (row.error) return "retrying";
  return age >= EMAIL_UNTOUCHED_STUCK_MS ? "stuck" : "waiting";
}

/** Whether an operator may send it again: it failed or is stuck, and there is an email to send. */
export function emailRetryable(row: EmailState, now: Date, renderFailed: boolean): boolean {
  const status = emailStatus(row, now);
  return (status === "failed" || status === "stuck") && !renderFailed;
}
