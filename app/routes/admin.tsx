import { randomUUID } from "node:crypto";
import { ShieldCheck } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { data, isRouteErrorResponse, Link, useRouteError } from "react-router";
import { z } from "zod";
import { AffiliatesTable, CustomersTable, DisputesTable, LeadsTable, OrdersTable } from "~/components/admin/AdminTables";
import { OperatorsSection, type OperatorActionResult } from "~/components/admin/OperatorsSection";
import { MarketingShell } from "~/components/marketing/MarketingShell";
import { NotFoundContent, notFoundMeta } from "~/components/marketing/NotFound";
import { LazyToaster, type Notice } from "~/components/LazyToaster";
import { getAdminOverview, requireOperator, retryLeadDelivery } from "~/server/admin/admin.server";
import { grantOperator, listOperators, revokeOperator } from "~/server/admin/operators.server";
import { db } from "~/server/db/client.server";
import { refundOrder } from "~/server/billing/refund-order.server";
import { stripeClient } from "~/server/billing/stripe/client.server";
import { takeRequestAttempt } from "~/server/http/request-limit.server";
import { RATE_LIMITS } from "~/server/limits/rate-limits.server";
import { dollarsToCents, REFUND_REASONS, type RefundResult } from "~/lib/refund-codes";
import { INVALID_CHARACTERS, noControlChars } from "~/lib/text";
import type { Route } from "./+types/admin";

export const meta: Route.MetaFunction = ({ error, matches }) =>
  // Not an operator: the site's 404, title included.
  error ? notFoundMeta(matches) : [{ title: "Operations | AI Automation Apps" }, { name: "robots", content: "noindex" }];

/** Operators only; anyone else, signed in or not, gets the same 404 as an unknown address (pages and .data). */
export async function loader({ request }: Route.LoaderArgs) {
  const me = await requireOperator(request);
  const [overview, operators] = await Promise.all([getAdminOverview(db()), listOperators(db())]);
  // The Refund form without JavaScript (/admin?refund=<order id>) carries the key the script would
  // make: a page loaded again gets a new one, a form sent twice refunds once.
  const refundKey = new URL(request.url).searchParams.has("refund") ? randomUUID() : null;
  return { ...overview, operators, me: me.id, refundKey };
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
  z.strictObject({
    intent: z.literal("refund-order"),
    orderId: rowId,
    /** Cents, as the form converts the dollars typed. */
    amount: z.coerce.number().int().min(1).max(100_000_000),
    reason: z.enum(REFUND_REASONS),
    note: z.string().trim().max(500).refine(noControlChars, INVALID_CHARACTERS).default(""),
    key: z.uuid(),
    confirm: z.literal("yes"),
  }),
]);

const answer = (result: OperatorActionResult, status = 200) => data(result, { status });
const refundAnswer = (result: RefundResult, status = 200) => data(result, { status });

export async function action({ request }: Route.ActionArgs) {
  const me = await requireOperator(request);
  let entries: Record<string, FormDataEntryValue>;
  try {
    entries = Object.fromEntries(await request.formData());
  } catch {
    return answer({ ok: false, message: "The form could not be read." }, 400);
  }
  // The Refund form without JavaScript sends the dollars as typed and its confirmation as a checkbox.
  if (entries.intent === "refund-order" && entries.amount === undefined && typeof entries.dollars === "string") {
    if (entries.confirm !== "yes")
      return refundAnswer(
        { intent: "refund-order", ok: false, orderId: String(entries.orderId ?? ""), code: "confirm_required" },
        400,
      );
    const { dollars, ...rest } = entries;
    entries = { ...rest, amount: String(dollarsToCents(dollars) ?? "") };
  }
  const parsed = actionSchema.safeParse(entries);
  if (!parsed.success) {
    if (entries.intent === "refund-order")
      return refundAnswer(
        { intent: "refund-order", ok: false, orderId: String(entries.orderId ?? ""), code: "invalid_input" },
        400,
      );
    const emailIssue = entries.intent === "grant-operator" ? parsed.error.issues.find((i) => i.path[0] === "email") : undefined;
    return emailIssue
      ? answer({ ok: false, intent: "grant-operator", message: emailIssue.message }, 400)
      : answer({ ok: false, message: "Unknown or invalid request." }, 400);
  }
  const form = parsed.data;
  if (form.intent === "refund-order") {
    const base = { intent: form.intent, orderId: form.orderId } as const;
    if (form.reason === "other" && !form.note) return refundAnswer({ ...base, ok: false, code: "note_required" }, 400);
    const allowed = await takeRequestAttempt(request, RATE_LIMITS.adminRefund, me.id);
    if (!allowed.allowed)
      return refundAnswer({ ...base, ok: false, code: "rate_limited", retryAfterSeconds: allowed.retryAfterSeconds }, 429);
    const result = await refundOrder(
      db(),
      { orderId: form.orderId, amount: form.amount, reason: form.reason, note: form.note, key: form.key, operatorId: me.id },
      stripeClient,
    );
    if (result.ok) return refundAnswer({ ...base, ...result });
    const status = { not_found: 404, not_refundable: 409, amount_too_high: 409, partial: 409, provider_failed: 502 }[result.code];
    return refundAnswer({ ...base, ...result }, status);
  }
  if (form.intent === "grant-operator") {
    const email = form.email.toLowerCase();
    const intent = form.intent;
    switch (await grantOperator(db(), email)) {
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
    switch (await revokeOperator(db(), me.id, form.userId)) {
      case "revoked":
        return answer({ ok: true, intent, message: "Operator role revoked." });
      case "self":
        return answer({ ok: false, intent, message: "You cannot revoke your own operator role: ask another operator." }, 400);
      case "not_granted":
        return answer({ ok: false, intent, message: "That account has no operator role to revoke." }, 409);
    }
  }
  const retried = await retryLeadDelivery(db(), form.leadId);
  return retried
    ? answer({ ok: true, message: "Lead queued for another delivery attempt." })
    : answer({ ok: false, message: "This lead cannot be retried: it is not failed, or no mailing list is configured." }, 409);
}

/** Not an operator (the loader's 404): the site's own 404 page, as for any unknown address. */
export function ErrorBoundary() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) {
    return (
      <MarketingShell>
        <NotFoundContent />
      </MarketingShell>
    );
  }
  // Never the error's text or stack: the server logged it.
  return (
    <main className="mx-auto flex min-h-screen max-w-xl flex-col items-center justify-center gap-4 p-8 text-center">
      <h1 className="text-3xl font-bold">Something went wrong</h1>
      <p className="text-muted-foreground">An unexpected error occurred. Please try again in a moment.</p>
      <a href="/admin" className="font-semibold text-primary underline">
        Try again
      </a>
    </main>
  );
}

const SECTIONS = [
  { id: "leads", label: "Leads" },
  { id: "orders", label: "Orders" },
  { id: "disputes", label: "Disputes" },
  { id: "customers", label: "Customers" },
  { id: "affiliates", label: "Affiliates" },
  { id: "operators", label: "Operators" },
];

export default function Admin({ loaderData, actionData }: Route.ComponentProps) {
  const [notice, setNotice] = useState<Notice | null>(null);
  const id = useRef(0);
  useEffect(() => {
    // The Operators form answers beside itself; only the lead retry has a toast.
    if (!actionData || actionData.intent) return;
    id.current += 1;
    setNotice({ id: id.current, kind: actionData.ok ? "success" : "error", title: actionData.message });
  }, [actionData]);

  return (
    <div className="min-h-screen bg-muted/40">
      <header className="border-b bg-ink text-white">
        <div className="mx-auto flex max-w-7xl flex-wrap items-center justify-between gap-3 px-4 py-4">
          <Link
            to="/"
            className="flex items-center gap-2 rounded-md font-bold focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-white"
          >
            <span className="grid size-8 place-items-center rounded-lg bg-primary">
              <ShieldCheck className="size-4" aria-hidden />
            </span>
            Operations
          </Link>
          <nav aria-label="Sections" className="flex flex-wrap gap-x-4 gap-y-1 text-sm">
            {SECTIONS.map((s) => (
              <a
                key={s.id}
                href={`#${s.id}`}
                className="rounded text-slate-200 underline-offset-4 hover:text-white hover:underline"
              >
                {s.label}
              </a>
            ))}
            <Link to="/admin/payouts" className="rounded font-medium text-white underline-offset-4 hover:underline">
              Payouts
            </Link>
          </nav>
        </div>
      </header>
      <main id="main" className="mx-auto max-w-7xl space-y-6 px-4 py-8">
        <h1 className="text-2xl font-bold sm:text-3xl">Admin</h1>
        <LeadsTable leads={loaderData.leads} />
        <OrdersTable orders={loaderData.orders} refundKey={loaderData.refundKey} />
        <DisputesTable disputes={loaderData.disputes} />
        <CustomersTable customers={loaderData.customers} />
        <AffiliatesTable affiliates={loaderData.affiliates} />
        <OperatorsSection
          operators={loaderData.operators}
          me={loaderData.me}
          result={actionData?.intent === "grant-operator" || actionData?.intent === "revoke-operator" ? actionData : undefined}
        />
      </main>
      <LazyToaster notice={notice} />
    </div>
  );
}
