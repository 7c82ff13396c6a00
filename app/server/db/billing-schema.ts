import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { user } from "./auth-schema";
import { orders } from "./account-schema";

const ts = (name: string) => timestamp(name, { withTimezone: true });

/**
 * Spec section 3 addon_library: the add-ons marketplace, seeded on first start from
 * app/catalogue/addons.ts and edited in the console after that. monthly_price is the list price; a
 * later price is a row of addon_prices (docs/decisions/0078-catalogue-in-database.md).
 */
export const addonLibrary = pgTable(
  "addon_library",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    description: text("description").notNull(),
    category: text("category").notNull(),
    /** Cents per month. */
    monthlyPrice: integer("monthly_price").notNull(),
    features: jsonb("features").$type<string[]>().notNull(),
    isActive: boolean("is_active").notNull().default(true),
    /** The dashboard marketplace's order, 1..n, unique and dense, kept like apps.position (drizzle/0027). */
    position: integer("position").notNull().default(0),
    /** The last edit of the row (seed or console); part of the catalogue's version (catalogue-version.server.ts). */
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [index("addon_library_category_idx").on(t.category), uniqueIndex("addon_library_position_idx").on(t.position)],
);

/** Spec section 3 user_addons: status 'active' means owned. Written only by checkout fulfilment. */
export const userAddons = pgTable(
  "user_addons",
  {
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    addonId: text("addon_id")
      .notNull()
      .references(() => addonLibrary.id),
    status: text("status").notNull(),
    orderId: text("order_id").references(() => orders.id),
    createdAt: ts("created_at").notNull().defaultNow(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.addonId] })],
);

/**
 * One row per money movement the business received or returned: the "fulfilment event" other
 * parts consume (the affiliate ledger). `providerRef` is unique, so a payment is recorded once
 * however many times its provider event arrives (local: the session id; Stripe: the invoice or
 * payment intent id, and the refund id for refunds).
 */
export const paymentEvents = pgTable(
  "payment_events",
  {
    id: serial("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    orderId: text("order_id").references(() => orders.id),
    /** 'payment' | 'refund'. */
    kind: text("kind").notNull(),
    /** Cents, positive for both kinds (a refund's sign comes from its kind). */
    amount: integer("amount").notNull(),
    currency: text("currency").notNull().default("usd"),
    provider: text("provider").notNull(),
    providerRef: text("provider_ref").notNull().unique(),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [
    index("payment_events_user_idx").on(t.userId),
    // An order's money: whether refunds cover it, what is left to refund, /admin's totals.
    index("payment_events_order_idx").on(t.orderId),
  ],
);

export type PaymentEventRow = typeof paymentEvents.$inferSelect;

/**
 * Stripe event ledger: the event id is the primary key and is inserted in the same transaction as
 * the event's effects, so a duplicate delivery (even a concurrent one) applies its effects once.
 */
export const stripeEvents = pgTable("stripe_events", {
  id: text("id").primaryKey(),
  type: text("type").notNull(),
  /** Stripe's `created`, seconds since the epoch. */
  created: bigint("created", { mode: "number" }).notNull(),
  receivedAt: ts("received_at").notNull().defaultNow(),
});

/** The payment provider's customer of each user: the customer portal opens only for this id. */
export const billingCustomers = pgTable(
  "billing_customers",
  {
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    provider: text("provider").notNull(),
    customerId: text("customer_id").notNull(),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.provider] }),
    uniqueIndex("billing_customers_customer_idx").on(t.provider, t.customerId),
  ],
);

/**
 * A card payment the buyer's bank disputed (a chargeback), one row per provider dispute, kept as the
 * operator's record on /admin (docs/decisions: disputes and admin refunds). `status` is ours:
 * 'open' while the bank decides (the commission of the disputed payment is held), 'won' (closed in
 * our favour, or an inquiry closed without a chargeback: the commission is released) or 'lost' (the
 * money is gone: the commission is reversed and the order ended). 'won' and 'lost' are final.
 */
export const paymentDisputes = pgTable(
  "payment_disputes",
  {
    /** The provider's dispute id (dp_…). */
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    orderId: text("order_id").references(() => orders.id),
    /** The disputed payment, when it is on record. */
    paymentEventId: integer("payment_event_id").references(() => paymentEvents.id),
    provider: text("provider").notNull(),
    chargeId: text("charge_id"),
    /** Cents disputed. */
    amount: integer("amount").notNull(),
    /**
     * Cents the provider charged for handling the dispute (Stripe: the fees of the dispute's balance
     * transactions, $15.00 in the US), whatever its outcome; 0 until the provider reports one.
     */
    fee: integer("fee").notNull().default(0),
    currency: text("currency").notNull().default("usd"),
    /** The bank's reason (fraudulent, product_not_received, …). */
    reason: text("reason"),
    /** 'open' | 'won' | 'lost'. */
    status: text("status").notNull(),
    /** The provider's own status, as last read. */
    providerStatus: text("provider_status").notNull(),
    /** The provider's deadline for the operator's evidence. */
    evidenceDueBy: ts("evidence_due_by"),
    createdAt: ts("created_at").notNull().defaultNow(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
    closedAt: ts("closed_at"),
  },
  (t) => [index("payment_disputes_created_idx").on(t.createdAt)],
);

export type PaymentDisputeRow = typeof paymentDisputes.$inferSelect;
