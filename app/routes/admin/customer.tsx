import { data, Link } from "react-router";
import { AdminErrorBoundary } from "~/components/admin/AdminErrorBoundary";
import { AdminShell, Fields, MiniTable, Panel, Status } from "~/components/admin/AdminShell";
import { AuditList } from "~/components/admin/AuditList";
import { formatMoney } from "~/components/affiliates/format";
import { LocalDateTime } from "~/components/checkout/LocalDateTime";
import { notFoundMeta } from "~/components/marketing/NotFound";
import { noControlChars } from "~/lib/text";
import { requireOperator } from "~/server/admin/admin.server";
import { consoleTimeZone } from "~/server/admin/console-time-zone.server";
import { getCustomerDetail } from "~/server/admin/customer-detail.server";
import { db } from "~/server/db/client.server";
import type { Route } from "./+types/customer";

export const meta: Route.MetaFunction = ({ error, matches, loaderData }) =>
  error || !loaderData
    ? notFoundMeta(matches)
    : [{ title: `${loaderData.account.email} | Operations` }, { name: "robots", content: "noindex" }];

/** /admin/customers/:id — one account: trial, entitlements, orders, receipts, sessions, tickets, referral. */
export async function loader({ request, params }: Route.LoaderArgs) {
  const me = await requireOperator(request);
  const id = params.id;
  const detail = id && id.length <= 100 && noControlChars(id) ? await getCustomerDetail(db(), id) : null;
  if (!detail) throw data(null, { status: 404 });
  return { ...detail, timeZone: await consoleTimeZone(request, me) };
}

export const ErrorBoundary = AdminErrorBoundary;

const link = "font-medium text-primary underline-offset-4 hover:underline";
const ACCESS: Record<string, string> = {
  trial: "Open (trial)",
  paid: "Open (paid)",
  "trial-ended": "Closed (trial ended)",
  "trial-not-started": "Closed (no trial yet)",
};

export default function AdminCustomer({ loaderData: c }: Route.ComponentProps) {
  const { account, trial, entitlements } = c;
  return (
    <AdminShell title={account.email} timeZone={c.timeZone}>
      <Panel id="account" title="Account">
        <Fields
          items={[
            ["Name", account.name],
            ["Company", account.companyName ?? "—"],
            ["Email verified", account.emailVerified ? "Yes" : "No"],
            ["Joined", <LocalDateTime key="j" iso={account.createdAt} />],
            ["Operator", account.operator ? "Yes" : "No"],
            ["Account id", <code key="id">{account.id}</code>],
          ]}
        />
      </Panel>
      <Panel id="trial" title="Trial and entitlements">
        <Fields
          items={[
            ["Dashboard", ACCESS[entitlements.access] ?? entitlements.access],
            [
              "Trial",
              trial?.started ? (
                trial.endsAt ? (
                  <>
                    Ends <LocalDateTime iso={trial.endsAt} />
                  </>
                ) : (
                  "Started"
                )
              ) : (
                "Not started"
              ),
            ],
            ["Selected plan", trial?.selectedPlan ?? "—"],
            ["Dashboard visits", String(trial?.dashboardVisits ?? 0)],
            ["Monthly total", entitlements.monthlyTotal > 0 ? formatMoney(entitlements.monthlyTotal) : "—"],
            ["Add-ons", entitlements.addons.length ? entitlements.addons.map((a) => a.name).join(", ") : "—"],
          ]}
        />
        <div className="mt-4">
          <MiniTable
            caption="Entitlements"
            head={["Item", "Kind", "State", "Price"]}
            empty="Nothing owned or subscribed."
            rows={entitlements.items.map((i) => [
              i.orderId.startsWith("subscription-") ? (
                i.name
              ) : (
                <Link key="o" to={`/admin/orders/${encodeURIComponent(i.orderId)}`} className={link}>
                  {i.name}
                </Link>
              ),
              i.kind,
              <Status key="s" value={i.state} />,
              `${formatMoney(i.price)}${i.isSubscription ? "/month" : ""}`,
            ])}
          />
        </div>
      </Panel>
      <Panel id="orders" title="Orders">
        <MiniTable
          caption="Orders"
          head={["Created", "Item", "Status", "Amount", "Paid", "Refunded"]}
          empty="No orders."
          rows={c.orders.map((o) => [
            <LocalDateTime key="c" iso={o.createdAt} />,
            <Link key="i" to={`/admin/orders/${encodeURIComponent(o.id)}`} className={link}>
              {o.itemName}
            </Link>,
            <Status key="s" value={o.status} />,
            `${formatMoney(o.amount)}${o.isSubscription ? "/month" : ""}`,
            o.paid ? formatMoney(o.paid) : "—",
            o.refunded ? formatMoney(o.refunded) : "—",
          ])}
        />
      </Panel>
      <Panel id="receipts" title="Receipts">
        <MiniTable
          caption="Receipts"
          head={["When", "Kind", "Amount", "Provider reference"]}
          empty="No payments."
          rows={c.receipts.map((p) => [
            <LocalDateTime key="w" iso={p.createdAt} />,
            <Status key="k" value={p.kind} />,
            formatMoney(p.amount),
            <code key="r" className="break-all text-xs">
              {p.providerRef}
            </code>,
          ])}
        />
      </Panel>
      <Panel id="sessions" title="Signed-in sessions">
        <MiniTable
          caption="Sessions"
          head={["Signed in", "Last seen", "Expires", "Address", "Browser"]}
          empty="No live session."
          rows={c.sessions.map((s) => [
            <LocalDateTime key="c" iso={s.createdAt} />,
            <LocalDateTime key="l" iso={s.lastSeenAt} />,
            <LocalDateTime key="e" iso={s.expiresAt} />,
            s.ipAddress ?? "—",
            <span key="u" className="line-clamp-2 max-w-72 break-words text-xs">
              {s.userAgent ?? "—"}
            </span>,
          ])}
        />
      </Panel>
      <Panel id="tickets" title="Support tickets">
        <MiniTable
          caption="Support tickets"
          head={["Opened", "Subject", "Category", "Status"]}
          empty="No tickets."
          rows={c.tickets.map((t) => [
            <LocalDateTime key="o" iso={t.createdAt} />,
            <Link key="s" to={`/admin/tickets/${t.id}`} className={link}>
              #{t.id} {t.subject}
            </Link>,
            t.category,
            <Status key="st" value={t.status} />,
          ])}
        />
      </Panel>
      <Panel id="referral" title="Referral">
        <Fields
          items={[
            [
              "Referred by",
              c.referral ? (
                <Link key="ref" to={`/admin/customers/${encodeURIComponent(c.referral.affiliateUserId)}`} className={link}>
                  {c.referral.username}
                </Link>
              ) : (
                "Nobody"
              ),
            ],
            ["Referred on", c.referral ? <LocalDateTime key="r" iso={c.referral.at} /> : "—"],
            ["Is an affiliate", c.affiliate ? `Yes: ${c.affiliate.username} (payouts ${c.affiliate.payouts})` : "No"],
          ]}
        />
      </Panel>
      <Panel id="audit" title="Operator actions">
        <AuditList entries={c.audit} />
      </Panel>
    </AdminShell>
  );
}
