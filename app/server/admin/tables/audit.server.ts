import { and, count, eq } from "drizzle-orm";
import { TABLE_SPECS } from "~/lib/admin/tables";
import { adminAudit } from "../../db/schema";
import { type AuditEntry, toAuditEntry } from "../audit.server";
import { type AdminTable, containsAny, inDayRange, orderOf, total } from "./query.server";

export const auditTable: AdminTable<AuditEntry> = {
  spec: TABLE_SPECS.audit,
  async query(db, params, page) {
    const where = and(
      containsAny(params.q, [adminAudit.operatorEmail, adminAudit.subjectId]),
      params.filters.action ? eq(adminAudit.action, params.filters.action) : undefined,
      params.filters.subject ? eq(adminAudit.subjectType, params.filters.subject) : undefined,
      ...inDayRange(adminAudit.at, params.from, params.to, params.timeZone),
    );
    const [rows, n] = await Promise.all([
      db
        .select()
        .from(adminAudit)
        .where(where)
        .orderBy(...orderOf(params, { at: adminAudit.at }, adminAudit.id))
        .limit(page.limit)
        .offset(page.offset),
      db.select({ n: count() }).from(adminAudit).where(where),
    ]);
    return { total: total(n), rows: rows.map(toAuditEntry) };
  },
  csv: [
    { header: "id", value: (r) => r.id },
    { header: "at", value: (r) => r.at },
    { header: "operator_id", value: (r) => r.operatorId },
    { header: "operator_email", value: (r) => r.operatorEmail },
    { header: "action", value: (r) => r.action },
    { header: "subject_type", value: (r) => r.subjectType },
    { header: "subject_id", value: (r) => r.subjectId },
    { header: "before", value: (r) => (r.before ? JSON.stringify(r.before) : null) },
    { header: "after", value: (r) => (r.after ? JSON.stringify(r.after) : null) },
  ],
};
