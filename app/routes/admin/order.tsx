import { randomUUID } from "node:crypto";
import { data, Link } from "react-router";
import { AdminErrorBoundary } from "~/components/admin/AdminErrorBoundary";
import { AdminShell, Fields, MiniTable, Panel, Status } from "~/components/admin/AdminShell";
import { AuditList } from "~/components/admin/AuditList";
import { refundLeft, useRefundOrder } from "~/components/admin/RefundOrder";
import { formatMoney } from "~/components/affiliates/format";
import { LocalDateTime } from "~/components/checkout/LocalDateTime";
import { notFoundMeta } from "~/components/marketing/NotFound";
import { noControlChars } from "~/lib/text";
import { requireOperator } from "~/server/admin/admin.server";
import { consoleTimeZone } from "~/server/admin/console-time-zone.server";
import { getOrderDetail, type OrderDetail } from "~/server/admin/order-detail.server";
import { answerRefundRequest } from "~/server/admin/refund-request.server";
import { db } from "~/server/db/client.server";
import type { Route } from "./+types/order";

export const meta: Route.MetaFunction = ({ error, matches, loaderData }) =>
  error || !loaderData
    ? notFoundMeta(matches)
    : [{ title: `Order ${loaderData.order.itemName} | Operations` }, { name: "robots", content: "noindex" }];

const validId = (id: string | undefined): id is string => !!id && id.length <= 100 && noControlChars(id);

/** /admin/orders/:id — one order, its money and history, and the refund action (audited). */
export async function loader({ request, params }: Route.LoaderArgs) {
  const me = await requireOperator(request);
  const detail = validId(params.id) ? await getOrderDetail(db(), params.id) : null;
  if (!detail) throw data(null, { status: 404 });
  // The Refund form without JavaScript (?refund=<order id>) carries the key the script would make:
  // a page loaded again gets a new one, a form sent twice refunds once.
  const refundKey = new URL(request.url).searchParams.has("refund") ? randomUUID() : null;
  return { ...detail, refundKey, timeZone: await consoleTimeZone(request, me) };
}

export async function action({ request }: Route.ActionArgs) {
  const me = await requireOperator(request);
  let entries: Record<string, FormDataEntryValue>;
  try {
    entries = Object.fromEntries(await request.formData());
  } catch {
    return data({ intent: "refund-order" as const, ok: false as const, code: "invalid_input" as const }, { status: 400 });
  }
  if (entries.intent !== "refund-order")
    return data({ intent: "refund-order" as const, ok: false as const, code: "invalid_input" as const }, { status: 400 });
  return answerRefundRequest(request, me, entries);
}

export const ErrorBoundary = AdminErrorBoundary;

function Refund({ order, refundKey }: { order: OrderDetail["order"]; refundKey: string | null }) {
  const refund = useRefundOrder(order, refundKey);
  return (
    <Panel id="refund" title="Refund">
      <div className="space-y-3" data-testid="refund-panel">
        <p className="text-sm">
          {refundLeft(order) > 0 ? `${formatMoney(refundLeft(order))} can be refunded.` : "Nothing left to refund on this order."}
        </p>
        {refund.button}
        {refund.panel}
      </div>
    </Panel>
  );
}

export default function AdminOrder({ loaderData }: Route.ComponentProps) {
  const { order, lines, providerIds, payments, disputes, timeline, audit, refundKey } = loaderData;
  return (
    <AdminShell title={`Order: ${order.itemName}`} actions={<Status value={order.status} />} timeZone={loaderData.timeZone}>
      <Panel id="order" title="Order">
        <Fields
          items={[
            [
              "Customer",
              <Link
                key="c"
                to={`/admin/customers/${encodeURIComponent(order.userId)}`}
                className="text-primary underline-offset-4 hover:underline"
              >
                {order.email}
              </Link>,
            ],
            ["Item", `${order.itemName} (${order.kind}, ${order.itemId})`],
            ["Price", lines.join(" + ")],
            ["Paid", formatMoney(order.paid)],
            ["Refunded", formatMoney(order.refunded)],
            ["Status", order.status],
            [
              "Subscription",
              order.isSubscription ? `Yes${order.subscriptionStatus ? ` (${order.subscriptionStatus})` : ""}` : "No",
            ],
            ["Trial days", String(order.trialDays)],
            ["Created", <LocalDateTime key="cr" iso={order.createdAt} />],
            ["Paid at", order.paidAt ? <LocalDateTime key="pa" iso={order.paidAt} /> : "—"],
            ["Order id", <code key="id">{order.id}</code>],
          ]}
        />
        {Object.keys(order.details).length ? (
          <details className="mt-4 text-sm">
            <summary className="cursor-pointer text-muted-foreground">What was bought (details)</summary>
            <pre className="mt-1 overflow-x-auto rounded bg-muted p-2 text-xs">{JSON.stringify(order.details, null, 2)}</pre>
          </details>
        ) : null}
      </Panel>
      <Refund order={order} refundKey={refundKey} />
      <Panel id="provider" title={`Provider: ${order.provider}`}>
        <Fields
          items={[
            [
              "Checkout session",
              <code key="s" className="break-all">
                {providerIds.session}
              </code>,
            ],
            ["Customer", providerIds.customer ? <code key="c">{providerIds.customer}</code> : "—"],
            ["Subscription", providerIds.subscription ? <code key="u">{providerIds.subscription}</code> : "—"],
          ]}
        />
      </Panel>
      <Panel id="payments" title="Payments and refunds">
        <MiniTable
          caption="Payments and refunds"
          head={["When", "Kind", "Amount", "Provider reference"]}
          empty="No payment recorded."
          rows={payments.map((p) => [
            <LocalDateTime key="w" iso={p.createdAt} />,
            <Status key="k" value={p.kind} />,
            formatMoney(p.amount),
            <code key="r" className="break-all text-xs">
              {p.providerRef}
            </code>,
          ])}
        />
      </Panel>
      {disputes.length ? (
        <Panel id="disputes" title="Disputes">
          <MiniTable
            caption="Disputes"
            head={["Opened", "Status", "Amount", "Reason", "Evidence due"]}
            empty=""
            rows={disputes.map((d) => [
              <LocalDateTime key="o" iso={d.createdAt} />,
              <Status key="s" value={d.status} />,
              formatMoney(d.amount),
              d.reason ?? "—",
              d.evidenceDueBy ? <LocalDateTime key="e" iso={d.evidenceDueBy} /> : "—",
            ])}
          />
        </Panel>
      ) : null}
      <Panel id="timeline" title="Timeline">
        <ol className="space-y-2 border-l pl-4 text-sm" aria-label="Order timeline">
          {timeline.map((t, i) => (
            <li key={i}>
              <span className="font-medium">{t.what}</span>
              {t.detail ? <span className="break-all text-muted-foreground"> · {t.detail}</span> : null}
              <span className="block text-xs text-muted-foreground">
                <LocalDateTime iso={t.at} />
              </span>
            </li>
          ))}
        </ol>
      </Panel>
      <Panel id="audit" title="Operator actions">
        <AuditList entries={audit} />
      </Panel>
    </AdminShell>
  );
}
