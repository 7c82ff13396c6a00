import { Link } from "react-router";
import { orderAmountLines } from "~/catalogue/pricing";
import { formatCount, formatMoney } from "~/components/affiliates/format";
import { LocalDateTime } from "~/components/checkout/LocalDateTime";
import type { TableId } from "~/lib/admin/tables";
import type { AuditEntry } from "~/server/admin/audit.server";
import type { AffiliateListRow } from "~/server/admin/tables/affiliates.server";
import type { AddonListRow } from "~/server/admin/tables/addons.server";
import type { AppListRow } from "~/server/admin/tables/apps.server";
import type { CustomerRow } from "~/server/admin/tables/customers.server";
import type { EmailListRow } from "~/server/admin/tables/emails.server";
import type { LeadListRow } from "~/server/admin/tables/leads.server";
import type { OrderListRow } from "~/server/admin/tables/orders.server";
import type { TicketListRow } from "~/server/admin/tables/tickets.server";
import { AuditChange, AuditSubject } from "./AuditList";
import { Status } from "./AdminShell";
import type { ConsoleColumn } from "./DataTable";

const when = (iso: string) => (
  <span className="whitespace-nowrap">
    <LocalDateTime iso={iso} />
  </span>
);
const link = "font-medium text-primary underline-offset-4 hover:underline break-all";

const ACCESS_LABELS: Record<CustomerRow["access"], string> = {
  trial: "Open (trial)",
  paid: "Open (paid)",
  "trial-ended": "Closed (trial ended)",
  "trial-not-started": "Closed (no trial yet)",
};

const customers: ConsoleColumn<CustomerRow>[] = [
  {
    id: "email",
    header: "Email",
    cell: (c) => (
      <Link to={`/admin/customers/${encodeURIComponent(c.id)}`} className={link}>
        {c.email}
      </Link>
    ),
  },
  { id: "name", header: "Name", cell: (c) => c.name },
  { id: "createdAt", header: "Joined", cell: (c) => when(c.createdAt) },
  { id: "verified", header: "Verified", cell: (c) => (c.emailVerified ? "Yes" : "No") },
  {
    id: "trial",
    header: "Trial",
    cell: (c) => (c.trial === "not-started" ? "Not started" : c.trial === "active" ? "Active" : "Ended"),
  },
  {
    id: "plan",
    header: "Plan",
    cell: (c) =>
      c.subscription ? (
        <>
          {c.subscription.planName ?? "Plan"} <Status value={c.subscription.status} />
        </>
      ) : (
        "—"
      ),
  },
  { id: "access", header: "Dashboard", cell: (c) => ACCESS_LABELS[c.access] },
  { id: "monthly", header: "Monthly", numeric: true, cell: (c) => (c.monthlyTotal > 0 ? formatMoney(c.monthlyTotal) : "—") },
];

const orders: ConsoleColumn<OrderListRow>[] = [
  { id: "createdAt", header: "Created", cell: (o) => when(o.createdAt) },
  {
    id: "email",
    header: "Customer",
    cell: (o) => (
      <Link to={`/admin/customers/${encodeURIComponent(o.userId)}`} className={link}>
        {o.email}
      </Link>
    ),
  },
  {
    id: "itemName",
    header: "Item",
    cell: (o) => (
      <Link to={`/admin/orders/${encodeURIComponent(o.id)}`} className={link} aria-label={`Order ${o.itemName} of ${o.email}`}>
        {o.itemName}
      </Link>
    ),
  },
  { id: "kind", header: "Kind", cell: (o) => o.kind },
  { id: "status", header: "Status", cell: (o) => <Status value={o.status} /> },
  {
    id: "amount",
    header: "Amount",
    numeric: true,
    cell: (o) =>
      orderAmountLines(o, formatMoney).map((line) => (
        <span key={line} className="block whitespace-nowrap">
          {line}
        </span>
      )),
  },
  { id: "paid", header: "Paid", numeric: true, cell: (o) => (o.paid > 0 ? formatMoney(o.paid) : "—") },
  { id: "refunded", header: "Refunded", numeric: true, cell: (o) => (o.refunded > 0 ? formatMoney(o.refunded) : "—") },
  { id: "provider", header: "Provider", cell: (o) => o.provider },
];

const leads: ConsoleColumn<LeadListRow>[] = [
  { id: "createdAt", header: "Created", cell: (l) => when(l.createdAt) },
  {
    id: "email",
    header: "Email",
    cell: (l) => (
      <Link to={`/admin/leads/${encodeURIComponent(l.id)}`} className={link}>
        {l.email}
      </Link>
    ),
  },
  { id: "name", header: "Name", cell: (l) => l.name },
  { id: "company", header: "Company", cell: (l) => l.company || "—" },
  { id: "source", header: "Source", cell: (l) => l.source },
  { id: "consent", header: "Consent", cell: (l) => (l.marketingConsent ? "Yes" : "No") },
  { id: "delivery", header: "Delivery", cell: (l) => <Status value={l.deliveryStatus} /> },
  { id: "attempts", header: "Attempts", numeric: true, cell: (l) => formatCount(l.attempts) },
  {
    id: "lastError",
    header: "Last error",
    cell: (l) => <span className="line-clamp-2 max-w-64 break-words text-muted-foreground">{l.lastError ?? "—"}</span>,
  },
];

const affiliates: ConsoleColumn<AffiliateListRow>[] = [
  { id: "username", header: "Username", cell: (a) => a.username },
  {
    id: "email",
    header: "Email",
    cell: (a) => (
      <Link to={`/admin/customers/${encodeURIComponent(a.userId)}`} className={link}>
        {a.email}
      </Link>
    ),
  },
  { id: "business", header: "Business", cell: (a) => a.businessName ?? "—" },
  { id: "payouts", header: "Payouts", cell: (a) => <Status value={a.stripeConnectStatus} /> },
  { id: "createdAt", header: "Joined", cell: (a) => when(a.createdAt) },
  { id: "clicks", header: "Clicks", numeric: true, cell: (a) => formatCount(a.clicks) },
  { id: "signups", header: "Sign-ups", numeric: true, cell: (a) => formatCount(a.signups) },
  { id: "pending", header: "Pending", numeric: true, cell: (a) => formatMoney(a.pending) },
  { id: "paid", header: "Paid", numeric: true, cell: (a) => formatMoney(a.paid) },
];

const tickets: ConsoleColumn<TicketListRow>[] = [
  { id: "createdAt", header: "Opened", cell: (t) => when(t.createdAt) },
  {
    id: "subject",
    header: "Subject",
    cell: (t) => (
      <Link to={`/admin/tickets/${t.id}`} className={link}>
        #{t.id} {t.subject}
      </Link>
    ),
  },
  {
    id: "email",
    header: "Customer",
    cell: (t) => (
      <Link to={`/admin/customers/${encodeURIComponent(t.userId)}`} className={link}>
        {t.email}
      </Link>
    ),
  },
  { id: "category", header: "Category", cell: (t) => t.category },
  { id: "status", header: "Status", cell: (t) => <Status value={t.status} /> },
  { id: "answers", header: "Answers", numeric: true, cell: (t) => formatCount(t.answers) },
  { id: "updatedAt", header: "Updated", cell: (t) => when(t.updatedAt) },
];

const emails: ConsoleColumn<EmailListRow>[] = [
  { id: "createdAt", header: "Created", cell: (m) => when(m.createdAt) },
  {
    id: "to",
    header: "Recipient",
    cell: (m) => (
      <Link to={`/admin/emails/${m.id}`} className={link}>
        {m.to}
      </Link>
    ),
  },
  { id: "kind", header: "Template", cell: (m) => m.kind ?? "—" },
  { id: "subject", header: "Subject", cell: (m) => <span className="line-clamp-2 max-w-64 break-words">{m.subject}</span> },
  { id: "status", header: "Status", cell: (m) => <Status value={m.status} /> },
  { id: "attempts", header: "Attempts", numeric: true, cell: (m) => formatCount(m.attempts) },
  {
    id: "lastError",
    header: "Last error",
    cell: (m) => <span className="line-clamp-2 max-w-64 break-words text-muted-foreground">{m.lastError ?? "—"}</span>,
  },
  { id: "sentAt", header: "Sent", cell: (m) => (m.sentAt ? when(m.sentAt) : "—") },
];

const audit: ConsoleColumn<AuditEntry>[] = [
  { id: "at", header: "When", cell: (e) => when(e.at) },
  { id: "operator", header: "Operator", cell: (e) => <span className="break-all">{e.operatorEmail}</span> },
  { id: "action", header: "Action", cell: (e) => <span className="font-medium">{e.action}</span> },
  { id: "subject", header: "Subject", cell: (e) => <AuditSubject entry={e} /> },
  { id: "change", header: "Change", cell: (e) => <AuditChange entry={e} /> },
];

const dollars = (n: number) => `$${n.toLocaleString("en-US")}`;

const apps: ConsoleColumn<AppListRow>[] = [
  { id: "id", header: "Id", numeric: true, cell: (a) => a.id },
  { id: "position", header: "Position", numeric: true, cell: (a) => a.position },
  {
    id: "name",
    header: "Name",
    cell: (a) => (
      <div className="min-w-44">
        <Link
          to={`/admin/apps/${a.id}`}
          className="font-medium text-primary underline-offset-4 hover:underline"
          aria-label={`Edit ${a.name}`}
        >
          {a.name}
        </Link>
        <span className="block break-all text-xs text-muted-foreground">/apps/{a.slug}</span>
      </div>
    ),
  },
  { id: "industry", header: "Industry", cell: (a) => <span className="block min-w-32">{a.industry}</span> },
  { id: "basePrice", header: "Base", numeric: true, cell: (a) => dollars(a.basePrice) },
  { id: "expressPrice", header: "Express", numeric: true, cell: (a) => dollars(a.expressPrice) },
  { id: "standardPrice", header: "Standard", numeric: true, cell: (a) => dollars(a.standardPrice) },
  { id: "monthly", header: "Monthly", numeric: true, cell: (a) => `${dollars(Number(a.monthlyFinancing))}/mo` },
  {
    id: "published",
    header: "Published",
    cell: (a) => (
      <>
        {a.published ? "Yes" : "No"}
        {a.isPopular ? " · popular" : ""}
      </>
    ),
  },
  { id: "nextPriceAt", header: "Scheduled price", cell: (a) => (a.nextPriceAt ? when(a.nextPriceAt) : "—") },
  { id: "updatedAt", header: "Updated", cell: (a) => when(a.updatedAt) },
];

const addons: ConsoleColumn<AddonListRow>[] = [
  { id: "position", header: "Position", numeric: true, cell: (a) => a.position },
  {
    id: "name",
    header: "Name",
    cell: (a) => (
      <div className="min-w-44">
        <Link
          to={`/admin/addons/${encodeURIComponent(a.id)}`}
          className="font-medium text-primary underline-offset-4 hover:underline"
          aria-label={`Edit ${a.name}`}
        >
          {a.name}
        </Link>
        <span className="block break-all text-xs text-muted-foreground">{a.id}</span>
      </div>
    ),
  },
  { id: "category", header: "Category", cell: (a) => a.category },
  { id: "monthlyPrice", header: "Monthly", numeric: true, cell: (a) => `${formatMoney(a.monthlyPrice)}/mo` },
  { id: "published", header: "On sale", cell: (a) => (a.published ? "Yes" : "No") },
  { id: "nextPriceAt", header: "Scheduled price", cell: (a) => (a.nextPriceAt ? when(a.nextPriceAt) : "—") },
  { id: "updatedAt", header: "Updated", cell: (a) => when(a.updatedAt) },
];

/** The page's columns of each console table (the server's half: app/server/admin/tables/). */
export const TABLE_COLUMNS = { customers, orders, leads, affiliates, tickets, emails, audit, apps, addons } satisfies Record<
  TableId,
  unknown
>;

/** The row key of each table. */
export const ROW_KEYS: Record<TableId, (row: never) => string> = {
  customers: (r: CustomerRow) => r.id,
  orders: (r: OrderListRow) => r.id,
  leads: (r: LeadListRow) => r.id,
  affiliates: (r: AffiliateListRow) => r.userId,
  tickets: (r: TicketListRow) => String(r.id),
  emails: (r: EmailListRow) => String(r.id),
  audit: (r: AuditEntry) => String(r.id),
  apps: (r: AppListRow) => String(r.id),
  addons: (r: AddonListRow) => r.id,
};
