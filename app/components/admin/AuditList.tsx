import { Link } from "react-router";
import { LocalDateTime } from "~/components/checkout/LocalDateTime";
import type { AuditEntry, AuditSubject as AuditSubjectType } from "~/server/admin/audit.server";

/** Where each kind of audited subject is shown in the console (a payout run on the payouts page). */
const SUBJECT_PAGES: Record<AuditSubjectType, ((id: string) => string) | string> = {
  order: (id) => `/admin/orders/${id}`,
  user: (id) => `/admin/customers/${id}`,
  lead: (id) => `/admin/leads/${id}`,
  ticket: (id) => `/admin/tickets/${id}`,
  email: (id) => `/admin/emails/${id}`,
  app: (id) => `/admin/apps/${id}`,
  addon: (id) => `/admin/addons/${id}`,
  plan: (id) => `/admin/plans/${id}`,
  "payout-run": "/admin/payouts",
};

const subjectHref = (e: Pick<AuditEntry, "subjectType" | "subjectId">) => {
  const page = SUBJECT_PAGES[e.subjectType as AuditSubjectType] ?? SUBJECT_PAGES.ticket;
  return typeof page === "string" ? page : page(encodeURIComponent(e.subjectId));
};

export function AuditSubject({ entry }: { entry: AuditEntry }) {
  return (
    <Link to={subjectHref(entry)} className="break-all font-medium text-primary underline-offset-4 hover:underline">
      {entry.subjectType} {entry.subjectId}
    </Link>
  );
}

/** A before/after pair as readable JSON (read-only: nothing in the console edits an entry). */
export function AuditChange({ entry }: { entry: AuditEntry }) {
  return (
    <details className="max-w-xl text-xs">
      <summary className="cursor-pointer text-muted-foreground">Before / after</summary>
      <div className="mt-1 grid gap-2 sm:grid-cols-2">
        <pre className="overflow-x-auto whitespace-pre-wrap break-words rounded bg-muted p-2">
          {entry.before ? JSON.stringify(entry.before, null, 2) : "—"}
        </pre>
        <pre className="overflow-x-auto whitespace-pre-wrap break-words rounded bg-muted p-2">
          {entry.after ? JSON.stringify(entry.after, null, 2) : "—"}
        </pre>
      </div>
    </details>
  );
}

/** The audit entries of one record, newest first. */
export function AuditList({ entries }: { entries: AuditEntry[] }) {
  if (entries.length === 0) return <p className="text-sm text-muted-foreground">No operator action on record.</p>;
  return (
    <ol className="space-y-3 text-sm" aria-label="Operator actions">
      {entries.map((e) => (
        <li key={e.id} className="rounded-lg border p-3" data-testid="audit-entry">
          <p>
            <span className="font-semibold">{e.action}</span> by {e.operatorEmail} · <LocalDateTime iso={e.at} />
          </p>
          <AuditChange entry={e} />
        </li>
      ))}
    </ol>
  );
}
