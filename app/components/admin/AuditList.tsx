import { Link } from "react-router";
import { LocalDateTime } from "~/components/checkout/LocalDateTime";
import type { AuditEntry } from "~/server/admin/audit.server";

const subjectHref = (e: Pick<AuditEntry, "subjectType" | "subjectId">) =>
  e.subjectType === "order"
    ? `/admin/orders/${encodeURIComponent(e.subjectId)}`
    : e.subjectType === "user"
      ? `/admin/customers/${encodeURIComponent(e.subjectId)}`
      : e.subjectType === "lead"
        ? `/admin/leads/${encodeURIComponent(e.subjectId)}`
        : e.subjectType === "payout-run"
          ? "/admin/payouts"
          : e.subjectType === "email"
            ? `/admin/emails/${encodeURIComponent(e.subjectId)}`
            : e.subjectType === "app"
              ? `/admin/apps/${encodeURIComponent(e.subjectId)}`
              : e.subjectType === "addon"
                ? `/admin/addons/${encodeURIComponent(e.subjectId)}`
                : `/admin/tickets/${encodeURIComponent(e.subjectId)}`;

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
