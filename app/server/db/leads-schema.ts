import { boolean, index, integer, pgTable, serial, text, timestamp } from "drizzle-orm/pg-core";

const ts = (name: string) => timestamp(name, { withTimezone: true });

/**
 * Callback / consultation requests (spec section 3 "Callback request"). The row is the source of
 * truth: it is written in the same transaction as its delivery job, and its delivery state is kept
 * here (the job queue deletes finished jobs after a while; this table never loses a lead).
 */
export const leads = pgTable(
  "leads",
  {
    /** A random UUID. */
    id: text("id").primaryKey(),
    firstName: text("first_name").notNull(),
    lastName: text("last_name").notNull().default(""),
    email: text("email").notNull(),
    phone: text("phone").notNull(),
    company: text("company").notNull().default(""),
    projectType: text("project_type").notNull().default(""),
    budget: text("budget").notNull().default(""),
    timeframe: text("timeframe").notNull().default(""),
    message: text("message").notNull().default(""),
    preferredTime: text("preferred_time").notNull().default(""),
    /** Where the form was: 'live-training', … */
    source: text("source").notNull(),
    /**
     * Whether the visitor ticked the marketing consent box. The lead is stored and called back
     * either way; only with consent is it subscribed to the mailing list
     * (docs/decisions/0055-marketing-consent.md).
     */
    marketingConsent: boolean("marketing_consent").notNull().default(false),
    /** The exact words agreed to, and when: set only with consent. */
    marketingConsentText: text("marketing_consent_text"),
    marketingConsentAt: ts("marketing_consent_at"),
    /** The signed-in user who sent it, if any. */
    userId: text("user_id"),
    /** 'pending' | 'delivered' | 'failed' | 'kept' (no mailing list configured). */
    deliveryStatus: text("delivery_status").notNull().default("pending"),
    deliveryAttempts: integer("delivery_attempts").notNull().default(0),
    lastError: text("last_error"),
    lastAttemptAt: ts("last_attempt_at"),
    deliveredAt: ts("delivered_at"),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [index("leads_email_created_idx").on(t.email, t.createdAt), index("leads_status_idx").on(t.deliveryStatus)],
);

export type LeadRow = typeof leads.$inferSelect;

/**
 * Each delivery attempt of a lead and the mailing list's answer (the operator's lead page shows
 * them): 'delivered', 'retry' (a temporary failure, retried with backoff) or 'failed'.
 */
export const leadDeliveryAttempts = pgTable(
  "lead_delivery_attempts",
  {
    id: serial("id").primaryKey(),
    leadId: text("lead_id")
      .notNull()
      .references(() => leads.id, { onDelete: "cascade" }),
    outcome: text("outcome").notNull(),
    /** The provider's answer: its error text, or a short note on success. */
    answer: text("answer").notNull(),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("lead_delivery_attempts_lead_idx").on(t.leadId, t.at)],
);
