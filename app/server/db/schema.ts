import { sql } from "drizzle-orm";
import { boolean, check, index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { addonLibrary } from "./billing-schema";

/**
 * The catalogue of ready-made apps (spec section 3, "App listing"). Prices are whole dollars as the
 * spec gives them; every amount charged is computed from these rows on the server.
 */
export const apps = pgTable(
  "apps",
  {
    id: integer("id").primaryKey(),
    /** The address of the app's page, /apps/{slug}: from the name, unique (app/catalogue/slugs.ts). */
    slug: text("slug").notNull().unique(),
    name: text("name").notNull(),
    description: text("description").notNull(),
    industry: text("industry").notNull(),
    /**
     * The four prices below are the app's list price from its first day; a price an operator sets
     * later is a row of app_prices, and the current price is the latest of those already effective,
     * else these (docs/decisions/0078-catalogue-in-database.md).
     */
    basePrice: integer("base_price").notNull(),
    expressPrice: integer("express_price").notNull(),
    standardPrice: integer("standard_price").notNull(),
    /** Dollars per month, kept as text because the spec stores it as a string. */
    monthlyFinancing: text("monthly_financing").notNull(),
    rating: integer("rating").notNull().default(5),
    reviews: integer("reviews").notNull(),
    isPopular: boolean("is_popular").notNull().default(false),
    features: jsonb("features").$type<string[]>().notNull(),
    deliveryTime: text("delivery_time").notNull(),
    isActive: boolean("is_active").notNull().default(true),
    /**
     * Where the app stands in /apps' default order: 1..n over every app, published or not, unique
     * and without gaps. An insert that leaves it at 0 is placed last by a trigger under the lock the
     * console's moves take (drizzle/0027), so every insert path (seed, console, tests) keeps it dense.
     */
    position: integer("position").notNull().default(0),
    /** The last edit of the row (seed or console): the public pages' cached copies are dropped when it moves. */
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("apps_industry_idx").on(t.industry),
    // Unique, and the /apps page walks it in order and stops after `show` rows.
    uniqueIndex("apps_position_idx").on(t.position),
    // The catalogue's version (max of it), polled by every instance to drop its cached pages.
    index("apps_updated_at_idx").on(t.updatedAt),
    // Trigram indexes serve the /apps search (ILIKE '%q%' on each column, searchApps), one per column so
    // each ILIKE of the OR can use one. fastupdate off: the catalogue is read-mostly and PGlite has no
    // autovacuum to merge a pending list, which every search would otherwise scan (ADR 0014).
    index("apps_name_trgm_idx").using("gin", t.name.op("gin_trgm_ops")).with({ fastupdate: false }),
    index("apps_description_trgm_idx").using("gin", t.description.op("gin_trgm_ops")).with({ fastupdate: false }),
    index("apps_industry_trgm_idx").using("gin", t.industry.op("gin_trgm_ops")).with({ fastupdate: false }),
  ],
);

export type AppRow = typeof apps.$inferSelect;

/**
 * Price changes of an app, each effective from its time: the app's current price is the row with
 * the latest effective_at at or before now (ties: the later row), else the app's list price. A
 * future effective_at is a scheduled change. Orders copy the amount they were sold at, so a row
 * here never changes an order.
 */
export const appPrices = pgTable(
  "app_prices",
  {
    id: serial("id").primaryKey(),
    appId: integer("app_id")
      .notNull()
      .references(() => apps.id, { onDelete: "cascade" }),
    basePrice: integer("base_price").notNull(),
    expressPrice: integer("express_price").notNull(),
    standardPrice: integer("standard_price").notNull(),
    monthlyFinancing: text("monthly_financing").notNull(),
    effectiveAt: timestamp("effective_at", { withTimezone: true }).notNull(),
    /** The operator's account id (no foreign key: the history outlives the account). */
    createdBy: text("created_by"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("app_prices_current_idx").on(t.appId, t.effectiveAt.desc(), t.id.desc()),
    index("app_prices_effective_idx").on(t.effectiveAt),
  ],
);

export type AppPriceRow = typeof appPrices.$inferSelect;

/** Price changes of an add-on (cents a month), read like app_prices: the latest effective, else the list price. */
export const addonPrices = pgTable(
  "addon_prices",
  {
    id: serial("id").primaryKey(),
    addonId: text("addon_id")
      .notNull()
      .references(() => addonLibrary.id, { onDelete: "cascade" }),
    monthlyPrice: integer("monthly_price").notNull(),
    effectiveAt: timestamp("effective_at", { withTimezone: true }).notNull(),
    createdBy: text("created_by"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("addon_prices_current_idx").on(t.addonId, t.effectiveAt.desc(), t.id.desc()),
    index("addon_prices_effective_idx").on(t.effectiveAt),
  ],
);

/**
 * Price changes of the plans whose amounts live here while which plans exist stays code
 * (app/catalogue/plans.ts): the billing plans (kind 'plan', item basic/pro/enterprise), the scaling
 * tiers ('scaling', item = the tier's index), the paid member plans ('member', growth/pro), the
 * distributor program ('distributor', item 'distributor') and the quick-pick packages of /packages
 * ('package', starter/professional/enterprise). Read like app_prices: the latest row effective at or
 * before now (ties: the higher id), else the typed list price
 * (docs/decisions/0085-plan-prices-in-database.md, 0089-quick-pick-package-prices-in-database.md).
 *
 * One row holds every amount of its plan, so the amounts that are sold together (a member plan's
 * price and the price it is shown against, the distributor's setup fee and monthly fee, a package's
 * one-time price, its struck-through price and its monthly price) always take effect together: a row
 * per amount would let one scheduled amount meet another's older value.
 */
export const planPrices = pgTable(
  "plan_prices",
  {
    id: serial("id").primaryKey(),
    kind: text("kind").notNull(),
    itemId: text("item_id").notNull(),
    /**
     * Cents: a month of the plan, the tier, the member plan after its discount or the distributor
     * program; a package's one-time price (the funnel's multipliers apply to it).
     */
    amount: integer("amount").notNull(),
    /**
     * The price `amount` is shown against, struck through: a member plan's monthly price before the
     * discount, a package's one-time "was" price; null for the other kinds.
     */
    originalAmount: integer("original_amount"),
    /** The distributor program's one-time setup fee; null for the other kinds. */
    setupFee: integer("setup_fee"),
    /** A package's monthly price, its other way to pay (the multipliers apply to it too); null for the other kinds. */
    monthlyAmount: integer("monthly_amount"),
    effectiveAt: timestamp("effective_at", { withTimezone: true }).notNull(),
    /** The operator's account id (no foreign key: the history outlives the account). */
    createdBy: text("created_by"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("plan_prices_current_idx").on(t.kind, t.itemId, t.effectiveAt.desc(), t.id.desc()),
    // The catalogue's version (the latest effective and how many), polled by every instance.
    index("plan_prices_effective_idx").on(t.effectiveAt),
    check("plan_prices_kind_check", sql`${t.kind} in ('plan', 'scaling', 'member', 'distributor', 'package')`),
    check("plan_prices_amount_check", sql`${t.amount} > 0`),
    check(
      "plan_prices_original_amount_check",
      sql`(${t.kind} in ('member', 'package')) = (${t.originalAmount} is not null) and coalesce(${t.originalAmount} >= ${t.amount}, true)`,
    ),
    check(
      "plan_prices_setup_fee_check",
      sql`(${t.kind} = 'distributor') = (${t.setupFee} is not null) and coalesce(${t.setupFee} > 0, true)`,
    ),
    check(
      "plan_prices_monthly_amount_check",
      sql`(${t.kind} = 'package') = (${t.monthlyAmount} is not null) and coalesce(${t.monthlyAmount} > 0, true)`,
    ),
  ],
);

export type PlanPriceRow = typeof planPrices.$inferSelect;

export * from "./auth-schema";
export * from "./account-schema";
export * from "./billing-schema";
export * from "./leads-schema";
export * from "./limits-schema";
export * from "./affiliate-schema";
export * from "./admin-schema";
