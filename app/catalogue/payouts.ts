/**
 * Affiliate payout rules (docs/decisions/0067-affiliate-payouts.md), plain functions shared by the
 * server and the pages.
 *
 * A ledger entry (a commission, or the negative reversal of a refund or a lost dispute) is:
 * - pending while its hold runs (the hold period, counted from the sale, covers refunds and disputes);
 * - held while its payment is disputed (the bank decides; a win makes it pending again);
 * - payable once the hold is over, or at once for an entry without a hold (a reversal of a commission
 *   already paid: a negative balance carried into the next run);
 * - in a payout while an open run holds it, then paid once the operator confirms the run.
 * A reversal of a commission not yet paid shares that commission's hold, so the two become payable
 * together and net out: a refund before payout voids the commission.
 */
export type EntryState = "pending" | "held" | "payable" | "in_payout" | "paid";

export const ENTRY_STATE_LABELS: Record<EntryState, string> = {
  pending: "Pending (hold period)",
  held: "On hold (disputed)",
  payable: "Payable",
  in_payout: "In a payout",
  paid: "Paid",
};

export interface LedgerEntryFacts {
  /** Signed cents. */
  amount: number;
  /** The stored status: 'pending' | 'held' | 'paid'. */
  status: string;
  /** When the hold starts; null: no hold. */
  holdFrom: Date | null;
  /** The payout the entry is locked into or was paid by. */
  payoutId: number | null;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** When an entry held from `holdFrom` becomes payable; null when it has no hold. */
export function payableAt(holdFrom: Date | null, holdDays: number): Date | null {
  return holdFrom ? new Date(holdFrom.getTime() + holdDays * DAY_MS) : null;
}

export function entryState(entry: LedgerEntryFacts, now: Date, holdDays: number): EntryState {
  if (entry.status === "paid") return "paid";
  if (entry.payoutId !== null) return "in_payout";
  if (entry.status === "held") return "held";
  const at = payableAt(entry.holdFrom, holdDays);
  return at === null || at.getTime() <= now.getTime() ? "payable" : "pending";
}

/** Cents per state (negative entries included: a state's balance can be below zero). */
export function balancesByState(entries: readonly LedgerEntryFacts[], now: Date, holdDays: number): Record<EntryState, number> {
  const totals: Record<EntryState, number> = { pending: 0, held: 0, payable: 0, in_payout: 0, paid: 0 };
  for (const e of entries) totals[entryState(e, now, holdDays)] += e.amount;
  return totals;
}

/**
 * The hold of a new reversal, from the commission entries of the payment it reverses: while none of
 * them is paid or in a payout, the earliest one's (the reversal nets them out when they mature);
 * otherwise none (the money already left: the reversal is a negative balance at once).
 */
export function reversalHoldFrom(
  commissions: readonly Pick<LedgerEntryFacts, "status" | "payoutId" | "holdFrom">[],
): Date | null {
  if (commissions.length === 0) return null;
  if (commissions.some((c) => c.status === "paid" || c.payoutId !== null)) return null;
  const starts = commissions.map((c) => c.holdFrom).filter((d): d is Date => d !== null);
  if (starts.length === 0) return null;
  return new Date(Math.min(...starts.map((d) => d.getTime())));
}

export interface AffiliatePayable {
  affiliateUserId: string;
  username: string;
  payoutEmail: string | null;
  /** Net cents of the affiliate's payable entries. */
  payable: number;
}

export type PayoutDecision = "pay" | "blocked" | "below_minimum" | "negative";

export const PAYOUT_DECISION_LABELS: Record<PayoutDecision, string> = {
  pay: "Paid in this run",
  blocked: "Blocked: no payout email",
  below_minimum: "Below the minimum: carried to the next run",
  negative: "Negative balance: carried to the next run",
};

/**
 * Who a run pays: every affiliate whose net payable balance reaches the minimum and who has a payout
 * email. An affiliate without an email is listed as blocked (never skipped without a word); a balance
 * under the minimum or below zero is carried.
 */
export function decidePayout(a: AffiliatePayable, minimumCents: number): PayoutDecision {
  if (a.payable < 0) return "negative";
  if (a.payable < minimumCents || a.payable === 0) return "below_minimum";
  if (!a.payoutEmail) return "blocked";
  return "pay";
}

export function planPayoutRun(affiliates: readonly AffiliatePayable[], minimumCents: number) {
  return affiliates
    .filter((a) => a.payable !== 0)
    .map((a) => ({ ...a, decision: decidePayout(a, minimumCents) }))
    .sort((x, y) =>
      x.decision === y.decision ? y.payable - x.payable : x.decision === "pay" ? -1 : y.decision === "pay" ? 1 : 0,
    );
}

/** Cents as the amount a payment file carries: 1234 -> "12.34". */
export function centsToAmount(cents: number): string {
  const sign = cents < 0 ? "-" : "";
  const abs = Math.abs(Math.trunc(cents));
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, "0")}`;
}

/**
 * A payout email as the payment provider takes it. Refused: anything that is not an address, and an
 * address starting with a character a spreadsheet reads as a formula (the file is opened in one).
 */
const PAYOUT_EMAIL_MAX = 254;
const EMAIL = /^[^\s@,;"'<>()]+@[^\s@,;"'<>()]+\.[^\s@,;"'<>()]+$/;
export function payoutEmailProblem(value: string): string | null {
  if (!value) return "Enter the email address of your PayPal account.";
  if (value.length > PAYOUT_EMAIL_MAX) return "Email is too long.";
  if (/^[=+\-@\t\r]/.test(value) || !EMAIL.test(value)) return "Enter a valid email address.";
  return null;
}

/**
 * One CSV cell: quoted when it holds a comma, quote or line break; a leading =, +, -, @, tab or
 * carriage return is neutralised with an apostrophe (OWASP's CSV injection advice), so a spreadsheet
 * never runs it as a formula.
 */
export function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

export interface PayoutFileLine {
  payoutId: number;
  email: string;
  amount: number;
}

/**
 * The run's payment file in PayPal Payouts' bulk upload format: no header; recipient email, amount,
 * currency, customer id (our payout's id, 30 characters at most, no spaces), note to the recipient,
 * wallet. One currency per file.
 */
export function payoutCsv(runId: number, lines: readonly PayoutFileLine[], currency = "USD"): string {
  const note = `AI Automation Apps affiliate commissions (payout run ${runId})`;
  return lines
    .map((l) => [l.email, centsToAmount(l.amount), currency, `PAYOUT-${l.payoutId}`, note, "PAYPAL"].map(csvCell).join(","))
    .map((row) => `${row}\r\n`)
    .join("");
}
