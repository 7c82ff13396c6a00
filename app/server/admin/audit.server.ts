import { and, desc, eq } from "drizzle-orm";
import type { Db } from "../db/client.server";
import { adminAudit } from "../db/schema";

/**
 * The operator audit log (docs/decisions/0068-operator-console.md). `recordAudit` takes the
 * transaction of the action it records, so an entry exists exactly when the action committed.
 * There is deliberately no update or delete function here; the database refuses both too.
 */
type AuditAction =
  | "order.refund"
  | "operator.grant"
  | "operator.revoke"
  | "ticket.answer"
  | "lead.retry"
  | "email.retry"
  | "payout-run.create"
  | "payout-run.confirm"
  | "payout-run.cancel"
  | "app.create"
  | "app.update"
  | "app.price"
  | "app.price-cancel"
  | "app.move"
  | "addon.create"
  | "addon.update"
  | "addon.price"
  | "addon.price-cancel"
  | "addon.move"
  | "plan.price"
  | "plan.price-cancel";
export type AuditSubject = "order" | "user" | "ticket" | "lead" | "email" | "payout-run" | "app" | "addon" | "plan";

export interface AuditEntryInput {
  operator: { id: string; email: string };
  action: AuditAction;
  subjectType: AuditSubject;
  subjectId: string;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}

export async function recordAudit(tx: Db, entry: AuditEntryInput): Promise<void> {
  await tx.insert(adminAudit).values({
    operatorId: entry.operator.id,
    operatorEmail: entry.operator.email,
    action: entry.action,
    subjectType: entry.subjectType,
    subjectId: entry.subjectId,
    before: entry.before,
    after: entry.after,
  });
}

export interface AuditEntry {
  id: number;
  operatorId: string;
  operatorEmail: string;
  action: string;
  subjectType: string;
  subjectId: string;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  at: string;
}

export const toAuditEntry = (r: typeof adminAudit.$inferSelect): AuditEntry => ({
  id: r.id,
  operatorId: r.operatorId,
  operatorEmail: r.operatorEmail,
  action: r.action,
  subjectType: r.subjectType,
  subjectId: r.subjectId,
  before: r.before ?? null,
  after: r.after ?? null,
  at: r.at.toISOString(),
});

/** The entries about one row, newest first (a detail page's history). */
export async function listAuditOf(db: Db, subjectType: AuditSubject, subjectId: string, limit = 50): Promise<AuditEntry[]> {
  const rows = await db
    .select()
    .from(adminAudit)
    .where(and(eq(adminAudit.subjectType, subjectType), eq(adminAudit.subjectId, subjectId)))
    .orderBy(desc(adminAudit.at), desc(adminAudit.id))
    .limit(limit);
  return rows.map(toAuditEntry);
}
