import { index, integer, pgTable, primaryKey, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { sql } from "drizzle-orm";
import { user } from "./auth-schema";
import { paymentEvents } from "./billing-schema";

const ts = (name: string) => timestamp(name, { withTimezone: true });

/** Spec section 3 affiliates. `username` is stored lower-case and is unique. */
export const affiliates = pgTable("affiliates", {
  userId: text("user_id")
    .primaryKey()
    .references(() => user.id, { onDelete: "cascade" }),
  username: text("username").notNull().unique(),
  businessName: text("business_name"),
  stripeConnectStatus: text("stripe_connect_status").notNull().default("pending"),
  /** Where payouts go: the affiliate's account at the payment provider (PayPal), entered by the affiliate. */
  payoutEmail: text("payout_email"),
  createdAt: ts("created_at").notNull().defaultNow(),
});

/** One row per visit to /ref/{username}. */
export const referralClicks = pgTable(
  "referral_clicks",
  {
    id: serial("id").primaryKey(),
    affiliateUserId: text("affiliate_user_id")
      .notNull()
      .references(() => affiliates.userId, { onDelete: "cascade" }),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [index("referral_clicks_affiliate_idx").on(t.affiliateUserId, t.createdAt)],
);

/** Which affiliate referred a user (first attribution wins, for life). */
export const referrals = pgTable(
  "referrals",
  {
    referredUserId: text("referred_user_id")
      .primaryKey()
      .references(() => user.id, { onDelete: "cascade" }),
    affiliateUserId: text("affiliate_user_id")
      .notNull()
      .references(() => affiliates.userId, { onDelete: "cascade" }),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [index("referrals_affiliate_idx").on(t.affiliateUserId)],
);

/**
 * Commission ledger: one entry per payment event of a referred customer (unique), a negative
 * 'reversal' for a refund. Entries are never updated except for their payout status.
 */
export const commissionLedger = pgTable(
  "commission_ledger",
  {
    id: serial("id").primaryKey(),
    affiliateUserId: text("affiliate_user_id")
      .notNull()
      .references(() => affiliates.userId, { onDelete: "cascade" }),
    referredUserId: text("referred_user_id").notNull(),
    paymentEventId: integer("payment_event_id")
      .notNull()
      .unique()
      .references(() => paymentEvents.id),
    /** 'commission' | 'reversal'. */
    kind: text("kind").notNull(),
    /** Signed cents: positive for a commission, negative for a reversal. */
    amount: integer("amount").notNull(),
    /** 'pending' | 'paid' | 'held' (a commission whose payment is disputed: not payable until the bank decides). */
    status: text("status").notNull().default("pending"),
    /**
     * When the hold period starts: a commission's sale; a reversal of a commission not yet paid shares
     * that sale's (the two mature together and net out). Null: no hold, payable at once (a reversal
     * of a commission already paid, carried into the next payout run as a negative balance).
     */
    holdFrom: ts("hold_from"),
    /** The payout this entry is locked into (an open run) or was paid by. */
    payoutId: integer("payout_id").references(() => payouts.id),
    createdAt: ts("created_at").notNull().defaultNow(),
    paidAt: ts("paid_at"),
  },
  (t) => [
    index("commission_ledger_affiliate_idx").on(t.affiliateUserId, t.createdAt),
    index("commission_ledger_payout_idx").on(t.payoutId),
  ],
);

/**
 * A payout run (docs/decisions/0067-affiliate-payouts.md): 'open' while its CSV is with the payment
 * provider, then 'paid' once an operator confirms it, or 'cancelled' (its entries are released).
 * At most one run is open at a time (the partial unique index); `key` makes a form sent twice one run.
 */
export const payoutRuns = pgTable(
  "payout_runs",
  {
    id: serial("id").primaryKey(),
    key: text("key").notNull().unique(),
    status: text("status").notNull().default("open"),
    currency: text("currency").notNull().default("USD"),
    totalAmount: integer("total_amount").notNull(),
    createdBy: text("created_by").references(() => user.id, { onDelete: "set null" }),
    createdAt: ts("created_at").notNull().defaultNow(),
    closedBy: text("closed_by").references(() => user.id, { onDelete: "set null" }),
    closedAt: ts("closed_at"),
  },
  (t) => [
    uniqueIndex("payout_runs_one_open_idx")
      .on(t.status)
      .where(sql`${t.status} = 'open'`),
  ],
);

/** One affiliate's line of a run: the net amount of the entries locked into it, to the email then on file. */
export const payouts = pgTable(
  "payouts",
  {
    id: serial("id").primaryKey(),
    runId: integer("run_id")
      .notNull()
      .references(() => payoutRuns.id),
    affiliateUserId: text("affiliate_user_id")
      .notNull()
      .references(() => affiliates.userId, { onDelete: "cascade" }),
    email: text("email").notNull(),
    amount: integer("amount").notNull(),
    /** 'open' | 'paid' | 'cancelled', as its run. */
    status: text("status").notNull().default("open"),
    createdAt: ts("created_at").notNull().defaultNow(),
    paidAt: ts("paid_at"),
  },
  (t) => [
    uniqueIndex("payouts_run_affiliate_idx").on(t.runId, t.affiliateUserId),
    index("payouts_affiliate_idx").on(t.affiliateUserId, t.createdAt),
  ],
);

/** Roles beyond 'customer'. 'operator' is granted only from the command line or OPERATOR_EMAILS. */
export const userRoles = pgTable(
  "user_roles",
  {
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    role: text("role").notNull(),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.role] })],
);
