import { Receipt } from "lucide-react";
import { orderAmountLines } from "~/catalogue/pricing";
import { Link } from "react-router";
import { formatDollars } from "~/components/dashboard/pages/common";
import { Badge } from "~/components/ui/badge";
import { LocalDate } from "./LocalDate";

export interface HistoryEntry {
  id: string;
  createdAt: string;
  itemName: string;
  kind: string;
  /** Cents: the monthly amount of a subscription. */
  amount: number;
  /** Cents charged once with the first payment (the distributor's setup fee). */
  setupFee: number;
  trialDays: number;
  isSubscription: boolean;
  /** A package's delivery as sold ('rush delivery (24-48 hours)'); null for other kinds. */
  delivery: string | null;
  status: string;
  /** The order's payments, oldest first: each has a receipt. */
  receipts: { id: number; number: string }[];
  /** What the amount column says instead of the order's amount (a plan change: '$250 prorated'). */
  amountText?: string;
}

/** The order's amount: one line, or the setup fee and the monthly amount as two (orderAmountLines). */
function Amount({ entry }: { entry: HistoryEntry }) {
  const lines = entry.amountText ? [entry.amountText] : orderAmountLines(entry, formatDollars);
  return (
    <span className="flex flex-col items-end" data-testid="history-amount">
      {lines.map((line, i) => (
        <span key={line} className={i > 0 ? "text-xs text-muted-foreground" : undefined}>
          {line}
        </span>
      ))}
    </span>
  );
}

/** What kind of order, with a package's delivery. */
const kindLabel = (e: HistoryEntry) => `${KIND[e.kind] ?? e.kind}${e.delivery ? `, ${e.delivery}` : ""}`;

const STATUS: Record<string, { label: string; variant: "success" | "warning" | "destructive" | "secondary" }> = {
  paid: { label: "Paid", variant: "success" },
  pending: { label: "Not completed", variant: "secondary" },
  declined: { label: "Declined", variant: "destructive" },
  failed: { label: "Failed", variant: "destructive" },
  canceled: { label: "Canceled", variant: "secondary" },
  refunded: { label: "Refunded", variant: "warning" },
  // A one-time build's free trial: held, then charged, or canceled (nothing charged), or refused.
  authorized: { label: "Free trial", variant: "secondary" },
  capturing: { label: "Charging", variant: "secondary" },
  trial_canceled: { label: "Trial canceled, not charged", variant: "secondary" },
  capture_failed: { label: "Payment failed, not charged", variant: "destructive" },
};

const KIND: Record<string, string> = {
  app: "App",
  package: "Package",
  plan: "Plan",
  addons: "Add-ons",
  scaling: "Scaling",
  distributor: "Distributor",
  member: "Member plan",
  "plan-change": "Plan change",
};

/** Links to the receipts of an order's payments (none for an order never paid). */
function ReceiptLinks({ entry }: { entry: HistoryEntry }) {
  if (entry.receipts.length === 0) return null;
  return (
    <span className="flex flex-wrap gap-x-3 gap-y-1">
      {entry.receipts.map((r) => (
        <Link
          key={r.id}
          to={`/dashboard/billing/receipts/${r.id}`}
          className="text-sm font-medium underline underline-offset-4"
          aria-label={`Receipt ${r.number} for ${entry.itemName}`}
        >
          Receipt {r.number}
        </Link>
      ))}
    </span>
  );
}

/** The user's orders, newest first (billing history); each payment's receipt is linked. */
export function BillingHistory({ entries }: { entries: HistoryEntry[] }) {
  return (
    <section aria-labelledby="history-heading" className="mt-10">
      <h2 id="history-heading" className="mb-1 text-xl font-semibold">
        Billing history
      </h2>
      <p className="mb-4 text-sm text-muted-foreground">Every checkout you started, newest first.</p>
      {entries.length === 0 ? (
        <div className="flex items-center gap-3 rounded-xl border border-dashed p-6 text-sm text-muted-foreground">
          <Receipt className="size-5 shrink-0" aria-hidden="true" />
          <p>No payments yet. Plans, add-ons and scaling tiers you buy will appear here.</p>
        </div>
      ) : (
        <>
          {/* Phones: one card per order. */}
          <ul className="grid gap-3 sm:hidden" aria-label="Billing history" data-testid="billing-history-list">
            {entries.map((e) => {
              const status = STATUS[e.status] ?? { label: e.status, variant: "secondary" as const };
              return (
                <li key={e.id} className="grid gap-1 rounded-xl border bg-card p-4 text-sm">
                  <div className="flex items-start justify-between gap-2">
                    <span className="font-medium">{e.itemName}</span>
                    <Badge variant={status.variant}>{status.label}</Badge>
                  </div>
                  <div className="flex justify-between gap-2 text-muted-foreground">
                    <span>
                      <LocalDate iso={e.createdAt} /> · {kindLabel(e)}
                    </span>
                    <span className="tabular-nums text-foreground">
                      <Amount entry={e} />
                    </span>
                  </div>
                  <ReceiptLinks entry={e} />
                </li>
              );
            })}
          </ul>
          <div className="hidden overflow-x-auto rounded-xl border bg-card sm:block">
            <table className="w-full text-left text-sm" data-testid="billing-history">
              <caption className="sr-only">Billing history</caption>
              <thead className="border-b bg-muted/50 text-muted-foreground">
                <tr>
                  <th scope="col" className="px-4 py-3 font-medium">
                    Date
                  </th>
                  <th scope="col" className="px-4 py-3 font-medium">
                    Item
                  </th>
                  <th scope="col" className="px-4 py-3 text-right font-medium">
                    Amount
                  </th>
                  <th scope="col" className="px-4 py-3 font-medium">
                    Status
                  </th>
                  <th scope="col" className="px-4 py-3 font-medium">
                    Receipt
                  </th>
                </tr>
              </thead>
              <tbody>
                {entries.map((e) => {
                  const status = STATUS[e.status] ?? { label: e.status, variant: "secondary" as const };
                  return (
                    <tr key={e.id} className="border-b last:border-0">
                      <td className="whitespace-nowrap px-4 py-3">
                        <LocalDate iso={e.createdAt} />
                      </td>
                      <td className="px-4 py-3">
                        <span className="font-medium">{e.itemName}</span>
                        <span className="block text-xs text-muted-foreground">{kindLabel(e)}</span>
                      </td>
                      <td className="whitespace-nowrap px-4 py-3 text-right tabular-nums">
                        <Amount entry={e} />
                      </td>
                      <td className="px-4 py-3">
                        <Badge variant={status.variant}>{status.label}</Badge>
                      </td>
                      <td className="px-4 py-3">
                        <ReceiptLinks entry={e} />
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        </>
      )}
    </section>
  );
}
