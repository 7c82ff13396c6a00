import { index, integer, jsonb, pgTable, serial, text, timestamp } from "drizzle-orm/pg-core";
import { user } from "./auth-schema";
import { supportTickets } from "./account-schema";

const ts = (name: string) => timestamp(name, { withTimezone: true });

/**
 * Every operator action (docs/decisions/0068-operator-console.md): who, what, on which row, the
 * row before and after, when. Written in the transaction of the action it records; the code has no
 * update or delete path, and a trigger (migration admin-console) refuses UPDATE and DELETE.
 * No foreign key to user: an entry outlives the operator's account.
 */
export const adminAudit = pgTable(
  "admin_audit",
  {
    id: serial("id").primaryKey(),
    operatorId: text("operator_id").notNull(),
    /** The operator's email at the time (the account may change its email or go). */
    operatorEmail: text("operator_email").notNull(),
    /** 'order.refund' | 'operator.grant' | 'operator.revoke' | 'ticket.answer' | 'lead.retry'. */
    action: text("action").notNull(),
    /** 'order' | 'user' | 'ticket' | 'lead'. */
    subjectType: text("subject_type").notNull(),
    subjectId: text("subject_id").notNull(),
    before: jsonb("before").$type<Record<string, unknown> | null>(),
    after: jsonb("after").$type<Record<string, unknown> | null>(),
    at: ts("at").notNull().defaultNow(),
  },
  (t) => [
    index("admin_audit_at_idx").on(t.at),
    index("admin_audit_subject_idx").on(t.subjectType, t.subjectId, t.at),
    index("admin_audit_operator_idx").on(t.operatorId, t.at),
  ],
);

export type AdminAuditRow = typeof adminAudit.$inferSelect;

/** An operator's answer to a support ticket: shown to the customer on /dashboard/support and mailed. */
export const supportTicketAnswers = pgTable(
  "support_ticket_answers",
  {
    id: serial("id").primaryKey(),
    ticketId: integer("ticket_id")
      .notNull()
      .references(() => supportTickets.id, { onDelete: "cascade" }),
    operatorId: text("operator_id").references(() => user.id, { onDelete: "set null" }),
    body: text("body").notNull(),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [index("support_ticket_answers_ticket_idx").on(t.ticketId, t.createdAt)],
);
