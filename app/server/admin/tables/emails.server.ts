import { and, count, gte, isNotNull, isNull, lt, or, type SQL } from "drizzle-orm";
import {
  EMAIL_RETRYING_STUCK_MS,
  EMAIL_UNTOUCHED_STUCK_MS,
  emailRetryable,
  emailStatus,
  type EmailStatus,
} from "~/lib/admin/email-status";
import { TABLE_SPECS } from "~/lib/admin/tables";
import { mailOutbox } from "../../db/schema";
import { RENDER_FAILED } from "../../mail/delivery.server";
import { type AdminTable, containsAny, inDayRange, orderOf, total } from "./query.server";

export interface EmailListRow {
  id: number;
  to: string;
  subject: string;
  kind: string | null;
  status: EmailStatus;
  attempts: number;
  lastError: string | null;
  createdAt: string;
  sentAt: string | null;
  failedAt: string | null;
  retryable: boolean;
}

/** The rows of one status, as `emailStatus` decides it for a single row. */
function emailStatusWhere(status: string | undefined, now: Date): SQL | undefined {
  const m = mailOutbox;
  const untouchedSince = new Date(now.getTime() - EMAIL_UNTOUCHED_STUCK_MS);
  const retriedSince = new Date(now.getTime() - EMAIL_RETRYING_STUCK_MS);
  const unsent = and(isNull(m.sentAt), isNull(m.failedAt));
  switch (status as EmailStatus | undefined) {
    case "sent":
      return isNotNull(m.sentAt);
    case "failed":
      return and(isNull(m.sentAt), isNotNull(m.failedAt));
    case "stuck":
      return and(unsent, or(lt(m.createdAt, retriedSince), and(isNull(m.error), lt(m.createdAt, untouchedSince))));
    case "retrying":
      return and(unsent, isNotNull(m.error), gte(m.createdAt, retriedSince));
    case "waiting":
      return and(unsent, isNull(m.error), gte(m.createdAt, untouchedSince));
    default:
      return undefined;
  }
}

type OutboxState = Pick<
  typeof mailOutbox.$inferSelect,
  "id" | "to" | "subject" | "kind" | "attempts" | "error" | "createdAt" | "sentAt" | "failedAt"
>;

export function toEmailListRow(r: OutboxState, now: Date): EmailListRow {
  return {
    id: r.id,
    to: r.to,
    subject: r.subject,
    kind: r.kind,
    status: emailStatus(r, now),
    attempts: r.attempts,
    lastError: r.error,
    createdAt: r.createdAt.toISOString(),
    sentAt: r.sentAt?.toISOString() ?? null,
    failedAt: r.failedAt?.toISOString() ?? null,
    retryable: emailRetryable(r, now, r.error?.startsWith(RENDER_FAILED) ?? false),
  };
}

/**
 * The outbox as operators see it: who each email went to, which template, where it stands and
 * why it failed. The body is never read here: reset and sign-in links must not reach the console.
 */
export const emailsTable: AdminTable<EmailListRow> = {
  spec: TABLE_SPECS.emails,
  async query(db, params, page) {
    const now = new Date();
    const where = and(
      containsAny(params.q, [mailOutbox.to, mailOutbox.subject, mailOutbox.kind]),
      emailStatusWhere(params.filters.status, now),
      ...inDayRange(mailOutbox.createdAt, params.from, params.to, params.timeZone),
    );
    const columns = {
      id: mailOutbox.id,
      to: mailOutbox.to,
      subject: mailOutbox.subject,
      kind: mailOutbox.kind,
      attempts: mailOutbox.attempts,
      error: mailOutbox.error,
      createdAt: mailOutbox.createdAt,
      sentAt: mailOutbox.sentAt,
      failedAt: mailOutbox.failedAt,
    };
    const [rows, n] = await Promise.all([
      db
        .select(columns)
        .from(mailOutbox)
        .where(where)
        .orderBy(
          ...orderOf(
            params,
            { createdAt: mailOutbox.createdAt, to: mailOutbox.to, attempts: mailOutbox.attempts },
            mailOutbox.id,
          ),
        )
        .limit(page.limit)
        .offset(page.offset),
      db.select({ n: count() }).from(mailOutbox).where(where),
    ]);
    return { total: total(n), rows: rows.map((r) => toEmailListRow(r, now)) };
  },
  csv: [
    { header: "id", value: (r) => r.id },
    { header: "created_at", value: (r) => r.createdAt },
    { header: "to", value: (r) => r.to },
    { header: "kind", value: (r) => r.kind },
    { header: "subject", value: (r) => r.subject },
    { header: "status", value: (r) => r.status },
    { header: "attempts", value: (r) => r.attempts },
    { header: "last_error", value: (r) => r.lastError },
    { header: "sent_at", value: (r) => r.sentAt },
    { header: "failed_at", value: (r) => r.failedAt },
  ],
};
