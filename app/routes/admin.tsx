import { useEffect, useRef, useState } from "react";
import { data, Link } from "react-router";
import { z } from "zod";
import { AdminErrorBoundary } from "~/components/admin/AdminErrorBoundary";
import { AdminShell, MiniTable, Panel, Status } from "~/components/admin/AdminShell";
import { AuditChange, AuditSubject } from "~/components/admin/AuditList";
import { OperatorsSection, type OperatorActionResult } from "~/components/admin/OperatorsSection";
import { formatCount, formatMoney } from "~/components/affiliates/format";
import { LocalDateTime } from "~/components/checkout/LocalDateTime";
import { notFoundMeta } from "~/components/marketing/NotFound";
import { LazyToaster, type Notice } from "~/components/LazyToaster";
import { INVALID_CHARACTERS, noControlChars } from "~/lib/text";
import { listDisputes, requireOperator } from "~/server/admin/admin.server";
import { getConsoleOverview } from "~/server/admin/console-counts.server";
import { consoleTimeZone } from "~/server/admin/console-time-zone.server";
import { grantOperator, listOperators, revokeOperator } from "~/server/admin/operators.server";
import { answerRefundRequest } from "~/server/admin/refund-request.server";
import { retryLeadAsOperator } from "~/server/admin/retry-lead-as-operator.server";
import { db } from "~/server/db/client.server";
import type { Route } from "./+types/admin";

export const meta: Route.MetaFunction = ({ error, matches }) =>
  // Not an operator: the site's 404, title included.
  error ? notFoundMeta(matches) : [{ title: "Operations | AI Automation Apps" }, { name: "robots", content: "noindex" }];

/**
 * The operator console's overview (docs/decisions/0068-operator-console.md): counts that link to
 * their tables, disputes that need evidence, the latest operator actions, and the operators.
 * Operators only; anyone else, signed in or not, gets the same 404 as an unknown address.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const me = await requireOperator(request);
  const [overview, disputes, operators, timeZone] = await Promise.all([
    getConsoleOverview(db()),
    listDisputes(db(), 25),
    listOperators(db()),
    consoleTimeZone(request, me),
  ]);
  return { ...overview, disputes, operators, me: me.id, timeZone };
}

const rowId = z.string().min(1).max(100).refine(noControlChars, INVALID_CHARACTERS);
const actionSchema = z.discriminatedUnion("intent", [
  z.strictObject({ intent: z.literal("retry-lead"), leadId: rowId }),
  z.strictObject({
    intent: z.literal("grant-operator"),
    email: z
      .string({ error: "Enter the email address of an existing account." })
      .trim()
      .min(1, "Enter the email address of an existing account.")
      .max(254, "Email is too long.")
      .pipe(z.email("Enter a valid email address.")),
  }),
  z.strictObject({ intent: z.literal("revoke-operator"), userId: rowId }),
]);

const answer = (result: OperatorActionResult, status = 200) => data(result, { status });

export async function action({ request }: Route.ActionArgs) {
  const me = await requireOperator(request);
  const operator = { id: me.id, email: me.email };
  let entries: Record<string, FormDataEntryValue>;
  try {
    entries = Object.fromEntries(await request.formData());
  } catch {
    return answer({ ok: false, message: "The form could not be read." }, 400);
  }
  // Refunds live on the order's page; a form from an older page still works here.
  if (entries.intent === "refund-order") return answerRefundRequest(request, me, entries);
  const parsed = actionSchema.safeParse(entries);
  if (!parsed.success) {
    const emailIssue = entries.intent === "grant-operator" ? parsed.error.issues.find((i) => i.path[0] === "email") : undefined;
    return emailIssue
      ? answer({ ok: false, intent: "grant-operator", message: emailIssue.message }, 400)
      : answer({ ok: false, message: "Unknown or invalid request." }, 400);
  }
  const form = parsed.data;
  if (form.intent === "grant-operator") {
    const email = form.email.toLowerCase();
    const intent = form.intent;
    switch (await grantOperator(db(), email, operator)) {
      case "granted":
        return answer({ ok: true, intent, message: `${email} is now an operator.` });
      case "already":
        return answer({ ok: true, intent, message: `${email} is already an operator.` });
      case "unverified":
        return answer(
          {
            ok: false,
            intent,
            email,
            message: `${email} has not verified its email address yet. Ask them to open the verification email first.`,
          },
          400,
        );
      case "no_user":
        return answer(
          { ok: false, intent, email, message: `No account uses ${email}. Ask them to sign up first, then grant the role.` },
          400,
        );
    }
  }
  if (form.intent === "revoke-operator") {
    const intent = form.intent;
    switch (await revokeOperator(db(), operator, form.userId)) {
      case "revoked":
        return answer({ ok: true, intent, message: "Operator role revoked." });
      case "self":
        return answer({ ok: false, intent, message: "You cannot revoke your own operator role: ask another operator." }, 400);
      case "not_granted":
        return answer({ ok: false, intent, message: "That account has no operator role to revoke." }, 409);
    }
  }
  const retried = await retryLeadAsOperator(db(), operator, form.leadId);
  return retried
    ? answer({ ok: true, message: "Lead queued for another delivery attempt." })
    : answer({ ok: false, message: "This lead cannot be retried: it is not failed, or no mailing list is configured." }, 409);
}

export const ErrorBoundary = AdminErrorBoundary;

function Count({ to, label, value, note }: { to: string; label: string; value: number; note?: string }) {
  return (
    <li>
      <Link
        to={to}
        className="block h-full rounded-xl border bg-card p-4 shadow-sm hover:border-primary focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
      >
        <span className="block text-sm text-muted-foreground">{label}</span>
        <span className="block text-2xl font-bold tabular-nums">{formatCount(value)}</span>
        {note ? <span className="block text-xs text-muted-foreground">{note}</span> : null}
      </Link>
    </li>
  );
}

export default function Admin({ loaderData, actionData }: Route.ComponentProps) {
  const [notice, setNotice] = useState<Notice | null>(null);
  const id = useRef(0);
  useEffect(() => {
    // The Operators form answers beside itself; only the lead retry has a toast.
    if (!actionData || "intent" in actionData) return;
    id.current += 1;
    setNotice({ id: id.current, kind: actionData.ok ? "success" : "error", title: actionData.message });
  }, [actionData]);
  const { counts, disputes, recentAudit } = loaderData;
  const operatorResult =
    actionData && "intent" in actionData && (actionData.intent === "grant-operator" || actionData.intent === "revoke-operator")
      ? (actionData as OperatorActionResult)
      : undefined;

  return (
    <AdminShell title="Admin" timeZone={loaderData.timeZone}>
      <section aria-labelledby="overview-heading">
        <h2 id="overview-heading" className="sr-only">
          Overview
        </h2>
        <ul className="grid grid-cols-2 gap-3 md:grid-cols-4">
          <Count to="/admin/customers" label="Customers" value={counts.customers} />
          <Count
            to="/admin/orders?status=paid"
            label="Paid orders"
            value={counts.paidOrders}
            note={`${formatCount(counts.orders)} in all`}
          />
          <Count
            to="/admin/leads?delivery=failed"
            label="Failed leads"
            value={counts.failedLeads}
            note={`${formatCount(counts.leads)} leads in all`}
          />
          <Count
            to="/admin/tickets?status=open"
            label="Open tickets"
            value={counts.openTickets}
            note={`${formatCount(counts.tickets)} in all`}
          />
          <Count to="/admin/affiliates" label="Affiliates" value={counts.affiliates} />
          <Count to="/admin/emails?status=failed" label="Failed emails" value={counts.failedEmails} />
        </ul>
      </section>
      <Panel id="disputes" title="Disputes">
        <MiniTable
          caption="Disputes, newest first"
          head={["Opened", "Customer", "Item", "Reason", "Status", "Evidence due", "Amount", "Stripe fee"]}
          empty="No disputes."
          rows={disputes.map((d) => [
            <LocalDateTime key="o" iso={d.createdAt} />,
            <span key="e" className="break-all">
              {d.email}
            </span>,
            d.orderId ? (
              <Link
                key="i"
                to={`/admin/orders/${encodeURIComponent(d.orderId)}`}
                className="text-primary underline-offset-4 hover:underline"
              >
                {d.itemName ?? "Order"}
              </Link>
            ) : (
              (d.itemName ?? "—")
            ),
            d.reason ?? "—",
            <span key="s">
              <Status value={d.status} /> <span className="text-xs text-muted-foreground">{d.providerStatus}</span>
            </span>,
            d.status === "open" && d.evidenceDueBy ? <LocalDateTime key="d" iso={d.evidenceDueBy} /> : "—",
            formatMoney(d.amount),
            <span key="f" data-testid="dispute-fee">
              {d.fee !== 0 ? formatMoney(d.fee) : "—"}
            </span>,
          ])}
        />
      </Panel>
      <Panel id="recent-audit" title="Latest operator actions">
        <MiniTable
          caption="Latest operator actions"
          head={["When", "Operator", "Action", "Subject", "Change"]}
          empty="No operator action yet."
          rows={recentAudit.map((e) => [
            <LocalDateTime key="w" iso={e.at} />,
            <span key="o" className="break-all">
              {e.operatorEmail}
            </span>,
            e.action,
            <AuditSubject key="s" entry={e} />,
            <AuditChange key="c" entry={e} />,
          ])}
        />
        <Link to="/admin/audit" className="mt-3 inline-block text-sm font-medium text-primary underline-offset-4 hover:underline">
          The whole audit log
        </Link>
      </Panel>
      <OperatorsSection operators={loaderData.operators} me={loaderData.me} result={operatorResult} />
      <LazyToaster notice={notice} />
    </AdminShell>
  );
}
