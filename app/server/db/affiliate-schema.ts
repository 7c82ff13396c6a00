import { index, integer, pgTable, primaryKey, serial, text, timestamp } from "drizzle-orm/pg-core";
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
    createdAt: ts("created_at").notNull().defaultNow(),
    paidAt: ts("paid_at"),
  },
  (t) => [index("commission_ledger_affiliate_idx").on(t.affiliateUserId, t.createdAt)],
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
