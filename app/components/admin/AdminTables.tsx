import { Loader2, RotateCcw } from "lucide-react";
import type * as React from "react";
import { Fragment } from "react";
import { Form, useNavigation } from "react-router";
import { orderAmountLines } from "~/catalogue/pricing";
import { formatCount, formatDay, formatMoney } from "~/components/affiliates/format";
import { LocalDateTime } from "~/components/checkout/LocalDateTime";
import { Button } from "~/components/ui/button";
import { useRefundOrder } from "./RefundOrder";
import type { AdminAffiliate, AdminCustomer, AdminDispute, AdminLead, AdminOrder } from "~/server/admin/admin.server";

function Section({ id, title, count, children }: { id: string; title: string; count: number; children: React.ReactNode }) {
  return (
    <section id={id} aria-labelledby={`${id}-heading`} className="scroll-mt-4 rounded-xl border bg-card p-4 shadow-sm sm:p-6">
      <h2 id={`${id}-heading`} className="mb-4 text-xl font-semibold">
        {title} <span className="text-base font-normal text-muted-foreground">({formatCount(count)})</span>
      </h2>
      {count === 0 ? (
        <p className="text-sm text-muted-foreground">Nothing yet.</p>
      ) : (
        <div className="overflow-x-auto">{children}</div>
      )}
    </section>
  );
}

/** The console's table cells, shared by every table in /admin. */
export const th = "whitespace-nowrap py-2 pr-4 text-left font-medium";
export const td = "py-2 pr-4 align-top";

function Status({ value }: { value: string }) {
  const tone =
    value === "failed" || value === "declined" || value === "lost"
      ? "bg-red-100 text-red-800"
      : value === "open" || value === "refunded"
        ? "bg-amber-100 text-amber-900"
        : value === "delivered" || value === "paid" || value === "active" || value === "won"
          ? "bg-emerald-100 text-emerald-800"
          : "bg-slate-100 text-slate-800";
  return <span className={`rounded-full px-2 py-0.5 text-xs font-medium ${tone}`}>{value}</span>;
}

function RetryButton({ leadId }: { leadId: string }) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && navigation.formData?.get("leadId") === leadId;
  return (
    <Form method="post">
      <input type="hidden" name="intent" value="retry-lead" />
      <input type="hidden" name="leadId" value={leadId} />
      <Button type="submit" size="sm" variant="outline" disabled={busy} aria-label={`Retry delivery of lead ${leadId}`}>
        {busy ? <Loader2 className="animate-spin" aria-hidden /> : <RotateCcw aria-hidden />}
        Retry
      </Button>
    </Form>
  );
}

/** Yes with the time and the words agreed to, or No (the lead is kept and called back either way). */
function MarketingConsent({ lead }: { lead: AdminLead }) {
  if (!lead.marketingConsent) return <span className="text-muted-foreground">No</span>;
  return (
    <div className="space-y-1">
      <p>
        <span className="rounded-full bg-emerald-100 px-2 py-0.5 text-xs font-medium text-emerald-800">Yes</span>{" "}
        {lead.marketingConsentAt ? (
          <span className="whitespace-nowrap text-xs">
            <LocalDateTime iso={lead.marketingConsentAt} />
          </span>
        ) : null}
      </p>
      {lead.marketingConsentText ? (
        <details className="text-xs text-muted-foreground">
          <summary className="cursor-pointer">Wording agreed to</summary>
          <p className="mt-1">{lead.marketingConsentText}</p>
        </details>
      ) : null}
    </div>
  );
}

export function LeadsTable({ leads }: { leads: AdminLead[] }) {
  return (
    <Section id="leads" title="Leads" count={leads.length}>
      <table className="w-full min-w-[64rem] text-sm">
        <thead>
          <tr className="border-b">
            <th scope="col" className={th}>
              Name
            </th>
            <th scope="col" className={th}>
              Email
            </th>
            <th scope="col" className={th}>
              Source
            </th>
            <th scope="col" className={th}>
              Created
            </th>
            <th scope="col" className={th}>
              Marketing consent
            </th>
            <th scope="col" className={th}>
              Delivery
            </th>
            <th scope="col" className={th}>
              Attempts
            </th>
            <th scope="col" className={th}>
              Last error
            </th>
            <th scope="col" className={th}>
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {leads.map((l) => (
            <tr key={l.id} className="border-b last:border-0">
              <td className={td}>{l.name}</td>
              <td className={`${td} break-all`}>{l.email}</td>
              <td className={td}>{l.source}</td>
              <td className={`${td} whitespace-nowrap`}>{formatDay(l.createdAt)}</td>
              <td className={`${td} max-w-64`} data-testid="lead-consent">
                <MarketingConsent lead={l} />
              </td>
              <td className={td}>
                <Status value={l.deliveryStatus} />
              </td>
              <td className={td}>{l.attempts}</td>
              <td className={`${td} max-w-64 break-words text-muted-foreground`}>{l.lastError ?? "—"}</td>
              <td className={td}>{l.deliveryStatus === "failed" ? <RetryButton leadId={l.id} /> : null}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </Section>
  );
}

const ORDER_COLUMNS = 8;

function OrderRow({ order: o, refundKey }: { order: AdminOrder; refundKey: string | null }) {
  const refund = useRefundOrder(o, ORDER_COLUMNS, refundKey);
  return (
    <Fragment>
      <tr className="border-b last:border-0" data-order-id={o.id}>
        <td className={`${td} whitespace-nowrap`}>{formatDay(o.createdAt)}</td>
        <td className={`${td} break-all`}>{o.email}</td>
        <td className={td}>{o.itemName}</td>
        <td className={td}>{o.kind}</td>
        <td className={td}>
          <Status value={o.status} />
        </td>
        <td className={`${td} text-right`} data-testid="admin-order-amount">
          {orderAmountLines(o, formatMoney).map((line) => (
            <span key={line} className="block whitespace-nowrap">
              {line}
            </span>
          ))}
        </td>
        <td className={`${td} text-right`}>{o.refunded > 0 ? formatMoney(o.refunded) : "—"}</td>
        <td className={td}>{refund.button}</td>
      </tr>
      {refund.panel}
    </Fragment>
  );
}

/** `refundKey`: the key of the Refund form without JavaScript, when the page was asked for one. */
export function OrdersTable({ orders, refundKey = null }: { orders: AdminOrder[]; refundKey?: string | null }) {
  return (
    <Section id="orders" title="Orders (newest 100)" count={orders.length}>
      <table className="w-full min-w-[56rem] text-sm">
        <thead>
          <tr className="border-b">
            <th scope="col" className={th}>
              Created
            </th>
            <th scope="col" className={th}>
              Customer
            </th>
            <th scope="col" className={th}>
              Item
            </th>
            <th scope="col" className={th}>
              Kind
            </th>
            <th scope="col" className={th}>
              Status
            </th>
            <th scope="col" className={`${th} text-right`}>
              Amount
            </th>
            <th scope="col" className={`${th} text-right`}>
              Refunded
            </th>
            <th scope="col" className={th}>
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {orders.map((o) => (
            <OrderRow key={o.id} order={o} refundKey={refundKey} />
          ))}
        </tbody>
      </table>
    </Section>
  );
}

/** Chargebacks: an open one needs evidence in the Stripe dashboard before its deadline. */
export function DisputesTable({ disputes }: { disputes: AdminDispute[] }) {
  return (
    <Section id="disputes" title="Disputes" count={disputes.length}>
      <table className="w-full min-w-[56rem] text-sm">
        <thead>
          <tr className="border-b">
            <th scope="col" className={th}>
              Opened
            </th>
            <th scope="col" className={th}>
              Customer
            </th>
            <th scope="col" className={th}>
              Item
            </th>
            <th scope="col" className={th}>
              Reason
            </th>
            <th scope="col" className={th}>
              Status
            </th>
            <th scope="col" className={th}>
              Evidence due
            </th>
            <th scope="col" className={`${th} text-right`}>
              Amount
            </th>
            <th scope="col" className={`${th} text-right`}>
              Stripe fee
            </th>
          </tr>
        </thead>
        <tbody>
          {disputes.map((d) => (
            <tr key={d.id} className="border-b last:border-0">
              <td className={`${td} whitespace-nowrap`}>{formatDay(d.createdAt)}</td>
              <td className={`${td} break-all`}>{d.email}</td>
              <td className={td}>{d.itemName ?? "—"}</td>
              <td className={td}>{d.reason ?? "—"}</td>
              <td className={td}>
                <Status value={d.status} /> <span className="text-xs text-muted-foreground">{d.providerStatus}</span>
              </td>
              <td className={`${td} whitespace-nowrap`}>
                {d.status === "open" && d.evidenceDueBy ? formatDay(d.evidenceDueBy) : "—"}
              </td>
              <td className={`${td} text-right`}>{formatMoney(d.amount)}</td>
              <td className={`${td} text-right`} data-testid="dispute-fee">
                {d.fee !== 0 ? formatMoney(d.fee) : "—"}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </Section>
  );
}

const ACCESS_LABELS: Record<AdminCustomer["access"], string> = {
  trial: "Open (trial)",
  paid: "Open (paid)",
  "trial-ended": "Closed (trial ended)",
  "trial-not-started": "Closed (no trial yet)",
};

export function CustomersTable({ customers }: { customers: AdminCustomer[] }) {
  return (
    <Section id="customers" title="Customers (newest 100)" count={customers.length}>
      <table className="w-full min-w-[48rem] text-sm">
        <thead>
          <tr className="border-b">
            <th scope="col" className={th}>
              Email
            </th>
            <th scope="col" className={th}>
              Name
            </th>
            <th scope="col" className={th}>
              Joined
            </th>
            <th scope="col" className={th}>
              Verified
            </th>
            <th scope="col" className={th}>
              Trial
            </th>
            <th scope="col" className={th}>
              Subscription
            </th>
            <th scope="col" className={th}>
              Dashboard
            </th>
            <th scope="col" className={`${th} text-right`}>
              Monthly
            </th>
          </tr>
        </thead>
        <tbody>
          {customers.map((c) => (
            <tr key={c.id} className="border-b last:border-0">
              <td className={`${td} break-all`}>{c.email}</td>
              <td className={td}>{c.name}</td>
              <td className={`${td} whitespace-nowrap`}>{formatDay(c.createdAt)}</td>
              <td className={td}>{c.emailVerified ? "Yes" : "No"}</td>
              <td className={td}>
                {c.trialStarted ? (c.trialEndsAt ? `Ends ${formatDay(c.trialEndsAt)}` : "Started") : "Not started"}
              </td>
              <td className={td}>
                {c.subscription ? (
                  <>
                    {c.subscription.planName ?? "Plan"} <Status value={c.subscription.status} />
                  </>
                ) : (
                  "—"
                )}
              </td>
              <td className={td}>{ACCESS_LABELS[c.access]}</td>
              <td className={`${td} text-right tabular-nums`}>{c.monthlyTotal > 0 ? formatMoney(c.monthlyTotal) : "—"}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </Section>
  );
}

export function AffiliatesTable({ affiliates }: { affiliates: AdminAffiliate[] }) {
  return (
    <Section id="affiliates" title="Affiliates" count={affiliates.length}>
      <table className="w-full min-w-[48rem] text-sm">
        <thead>
          <tr className="border-b">
            <th scope="col" className={th}>
              Username
            </th>
            <th scope="col" className={th}>
              Email
            </th>
            <th scope="col" className={th}>
              Business
            </th>
            <th scope="col" className={th}>
              Payouts
            </th>
            <th scope="col" className={`${th} text-right`}>
              Clicks
            </th>
            <th scope="col" className={`${th} text-right`}>
              Sign-ups
            </th>
            <th scope="col" className={`${th} text-right`}>
              Pending
            </th>
            <th scope="col" className={`${th} text-right`}>
              Paid
            </th>
          </tr>
        </thead>
        <tbody>
          {affiliates.map((a) => (
            <tr key={a.userId} className="border-b last:border-0">
              <td className={td}>{a.username}</td>
              <td className={`${td} break-all`}>{a.email}</td>
              <td className={td}>{a.businessName ?? "—"}</td>
              <td className={td}>{a.stripeConnectStatus}</td>
              <td className={`${td} text-right`}>{formatCount(a.clicks)}</td>
              <td className={`${td} text-right`}>{formatCount(a.signups)}</td>
              <td className={`${td} text-right`}>{formatMoney(a.pending)}</td>
              <td className={`${td} text-right`}>{formatMoney(a.paid)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </Section>
  );
}
