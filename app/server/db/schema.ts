import { boolean, index, integer, jsonb, pgTable, text } from "drizzle-orm/pg-core";

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
  },
  (t) => [
    index("apps_industry_idx").on(t.industry),
    // Trigram indexes serve the /apps search (ILIKE '%q%' on each column, searchApps), one per column so
    // each ILIKE of the OR can use one. fastupdate off: the catalogue is read-mostly and PGlite has no
    // autovacuum to merge a pending list, which every search would otherwise scan (ADR 0014).
    index("apps_name_trgm_idx").using("gin", t.name.op("gin_trgm_ops")).with({ fastupdate: false }),
    index("apps_description_trgm_idx").using("gin", t.description.op("gin_trgm_ops")).with({ fastupdate: false }),
    index("apps_industry_trgm_idx").using("gin", t.industry.op("gin_trgm_ops")).with({ fastupdate: false }),
  ],
);

export type AppRow = typeof apps.$inferSelect;
export * from "./auth-schema";
export * from "./account-schema";
export * from "./billing-schema";
export * from "./leads-schema";
export * from "./limits-schema";
export * from "./affiliate-schema";
export * from "./admin-schema";
