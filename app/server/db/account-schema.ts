import { sql } from "drizzle-orm";
import { bigint, boolean, index, integer, jsonb, pgTable, primaryKey, serial, text, timestamp } from "drizzle-orm/pg-core";
import { user } from "./auth-schema";

const ts = (name: string) => timestamp(name, { withTimezone: true });

/** Process-wide settings that must be shared by every instance (e.g. the generated auth secret). */
export const appSettings = pgTable("app_settings", {
  key: text("key").primaryKey(),
  value: text("value").notNull(),
  createdAt: ts("created_at").notNull().defaultNow(),
});

/**
 * Every outgoing email is written here first (the durable record), then sent through SMTP by the
 * mail-delivery job when it is configured (ADR 0021); without SMTP the local dev mailbox page reads
 * this table.
 */
export const mailOutbox = pgTable(
  "mail_outbox",
  {
    id: serial("id").primaryKey(),
    to: text("to").notNull(),
    subject: text("subject").notNull(),
    text: text("text").notNull(),
    html: text("html"),
    /** Which template made it (app/server/mail/templates); null for mail written before templates. */
    kind: text("kind"),
    /**
     * One mail per event: `{kind}:{subject id}:{recipient}` (docs/decisions/0072-transactional-emails.md).
     * A second insert with the same key does nothing, whether the event is processed twice or after a
     * restart. Null for mail that may repeat (a verification link asked for again).
     */
    idempotencyKey: text("idempotency_key").unique("mail_outbox_idempotency_key_unique"),
    createdAt: ts("created_at").notNull().defaultNow(),
    sentAt: ts("sent_at"),
    error: text("error"),
    /** Delivery attempts made through the mail server, successful or not. */
    attempts: integer("attempts").notNull().default(0),
    /**
     * Set when the delivery job's last retry failed, or when the template threw: the operator's
     * "failed" (the console's Emails table). Cleared by a later attempt, an operator's retry included.
     */
    failedAt: ts("failed_at"),
  },
  (t) => [
    index("mail_outbox_to_idx").on(t.to),
    // The unsent-mail sweep (queue.server.ts) looks only at unsent rows, a handful once SMTP works.
    index("mail_outbox_unsent_idx")
      .on(t.createdAt)
      .where(sql`${t.sentAt} is null`),
    // The console's failed emails: a few rows among every email ever sent.
    index("mail_outbox_failed_idx")
      .on(t.failedAt)
      .where(sql`${t.failedAt} is not null`),
  ],
);

/**
 * The newest TOTP time step each account has had a code accepted for: a code of that step or an
 * earlier one is refused, so a code works once even within its validity window
 * (app/server/auth/totp-replay.server.ts).
 */
export const totpLastSteps = pgTable("totp_last_steps", {
  userId: text("user_id")
    .primaryKey()
    .references(() => user.id, { onDelete: "cascade" }),
  step: bigint("step", { mode: "number" }).notNull(),
  acceptedAt: ts("accepted_at").notNull().defaultNow(),
});

/** Failed sign-ins per account (hashed email), for the per-account throttle. */
export const authFailures = pgTable(
  "auth_failures",
  {
    id: serial("id").primaryKey(),
    emailHash: text("email_hash").notNull(),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [index("auth_failures_email_created_idx").on(t.emailHash, t.createdAt)],
);

/** Spec section 3 trial_access: one row per user. */
export const trialAccess = pgTable("trial_access", {
  userId: text("user_id")
    .primaryKey()
    .references(() => user.id, { onDelete: "cascade" }),
  trialStarted: boolean("trial_started").notNull().default(false),
  trialActivatedAt: ts("trial_activated_at"),
  trialEndsAt: ts("trial_ends_at"),
  selectedPlan: text("selected_plan"),
  /** Cents. */
  planPrice: integer("plan_price"),
  dashboardAccessCount: integer("dashboard_access_count").notNull().default(0),
  lastDashboardAccess: ts("last_dashboard_access"),
  /** The account's first dashboard view: the 15-second free preview counts from it. */
  previewStartedAt: ts("preview_started_at"),
});

/** Spec section 3 user_profiles. */
export const userProfiles = pgTable("user_profiles", {
  userId: text("user_id")
    .primaryKey()
    .references(() => user.id, { onDelete: "cascade" }),
  selectedPlan: text("selected_plan"),
  planPrice: integer("plan_price"),
  trialStarted: boolean("trial_started").notNull().default(false),
  onboardingCallScheduledAt: ts("onboarding_call_scheduled_at"),
  updatedAt: ts("updated_at").notNull().defaultNow(),
});

/** Spec section 3 user_subscriptions (written by checkout fulfilment). */
export const userSubscriptions = pgTable(
  "user_subscriptions",
  {
    id: serial("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    planName: text("plan_name"),
    planType: text("plan_type"),
    status: text("status").notNull(),
    /** Cents. */
    monthlyPrice: integer("monthly_price"),
    currentPeriodEnd: ts("current_period_end"),
    reachLimit: integer("reach_limit"),
    /** The paid order that created this subscription (null for rows written by hand). */
    orderId: text("order_id"),
    /**
     * What the row is a subscription to now, as an order names it: kind ('plan' | 'scaling' |
     * 'member') and item id ('pro', '2', 'growth'). Equal to its order's at first; a plan change
     * moves the same subscription to another item, so the row, not the order, says which.
     */
    itemKind: text("item_kind"),
    itemId: text("item_id"),
    /** 'local' | 'stripe'. */
    provider: text("provider"),
    /** Stripe's subscription id (sub_…); the local provider uses the order's session id. */
    providerSubscriptionId: text("provider_subscription_id").unique(),
    /** When the applied state was read from the provider, so a state read earlier never overwrites it. */
    providerUpdatedAt: ts("provider_updated_at"),
    cancelAtPeriodEnd: boolean("cancel_at_period_end").notNull().default(false),
    createdAt: ts("created_at").notNull().defaultNow(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [index("user_subscriptions_user_idx").on(t.userId)],
);

/** Onboarding steps a user has completed (step 1, signup, is completed at sign-up). */
export const onboardingProgress = pgTable(
  "onboarding_progress",
  {
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    stepId: text("step_id").notNull(),
    completedAt: ts("completed_at").notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.stepId] })],
);

export const supportTickets = pgTable(
  "support_tickets",
  {
    id: serial("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    subject: text("subject").notNull(),
    category: text("category").notNull(),
    message: text("message").notNull(),
    status: text("status").notNull().default("open"),
    createdAt: ts("created_at").notNull().defaultNow(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [index("support_tickets_user_idx").on(t.userId, t.createdAt)],
);

/** The account's own activity (dashboard visits, trial start, tickets…), charted on /dashboard/analytics. */
export const activityEvents = pgTable(
  "activity_events",
  {
    id: serial("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    kind: text("kind").notNull(),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [index("activity_events_user_idx").on(t.userId, t.createdAt)],
);

/**
 * Per-account preferences from /dashboard/settings: notification choices and the dashboard's
 * default sidebar state. One row per user, created on first save (absent row = defaults).
 */
export const userSettings = pgTable("user_settings", {
  userId: text("user_id")
    .primaryKey()
    .references(() => user.id, { onDelete: "cascade" }),
  emailUpdates: boolean("email_updates").notNull().default(true),
  productNews: boolean("product_news").notNull().default(false),
  smsAlerts: boolean("sms_alerts").notNull().default(false),
  sidebarCollapsed: boolean("sidebar_collapsed").notNull().default(false),
  /** IANA name (checked with Intl) every time is shown in; null until the browser's is known. */
  timeZone: text("time_zone"),
  updatedAt: ts("updated_at").notNull().defaultNow(),
});

/**
 * Every purchase (DESIGN.md section 4): the server computes `amount` from the catalogue, inserts the
 * order as 'pending', then creates the provider session. Fulfilment flips pending -> paid once.
 */
export const orders = pgTable(
  "orders",
  {
    /** A random UUID. */
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    /** 'app' | 'package' | 'plan' | 'addons' | 'scaling' | 'distributor'. */
    kind: text("kind").notNull(),
    itemId: text("item_id").notNull(),
    itemName: text("item_name").notNull(),
    pricingTab: text("pricing_tab"),
    /** Cents, computed on the server. */
    amount: integer("amount").notNull(),
    currency: text("currency").notNull().default("usd"),
    isSubscription: boolean("is_subscription").notNull().default(false),
    trialDays: integer("trial_days").notNull().default(0),
    /**
     * 'pending' | 'paid' | 'declined' | 'canceled' | 'failed' (no provider session); a one-time build
     * with its free trial: 'authorized' (card held, nothing charged) -> 'capturing' -> 'paid', or
     * 'canceled' (authorisation voided) or 'capture_failed' (docs/decisions/0045-trial-then-capture.md).
     */
    status: text("status").notNull().default("pending"),
    /** 'local' | 'stripe'. */
    provider: text("provider").notNull(),
    providerSessionId: text("provider_session_id").notNull().unique(),
    /** One-time fee charged with the first payment of a subscription (the distributor setup fee), cents. */
    setupFee: integer("setup_fee").notNull().default(0),
    /** What was bought beyond item id/name: package mode and rush, add-on ids, tier, distributor buyer. */
    details: jsonb("details").$type<Record<string, unknown>>().notNull().default({}),
    /** Where the provider sends the buyer back (site-relative, chosen by the server per kind). */
    successPath: text("success_path").notNull().default("/payment-success?session_id={CHECKOUT_SESSION_ID}"),
    cancelPath: text("cancel_path").notNull().default("/payment-cancel"),
    providerCustomerId: text("provider_customer_id"),
    providerSubscriptionId: text("provider_subscription_id"),
    /**
     * For a paid subscription order, the provider's latest state of the subscription ('active',
     * 'past_due', 'unpaid', 'paused', 'incomplete'); null until the provider reports a change. Only
     * 'active' (or null) keeps the access the order grants; 'canceled' ends the order itself.
     */
    subscriptionStatus: text("subscription_status"),
    /** When subscription_status was read from the provider: a state read earlier is not applied. */
    subscriptionUpdatedAt: ts("subscription_updated_at"),
    createdAt: ts("created_at").notNull().defaultNow(),
    paidAt: ts("paid_at"),
    /** A one-time build's trial: when its authorised payment is captured; null for every other order. */
    captureAt: ts("capture_at"),
  },
  (t) => [
    index("orders_user_idx").on(t.userId),
    index("orders_capture_at_idx")
      .on(t.captureAt)
      .where(sql`capture_at is not null`),
  ],
);

export type OrderRow = typeof orders.$inferSelect;
