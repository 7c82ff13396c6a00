import { bigint, index, integer, pgTable, text } from "drizzle-orm/pg-core";

/**
 * Fixed-window request counters of every limit the app applies itself (app/server/limits/): the
 * callback form's, checkout's, the billing re-sync's, dashboard visits' and support tickets'. One
 * row per limit, subject (an account or a client address) and window length. Not in Better Auth's
 * rate_limit table: Better Auth deletes every row there older than its own longest window (60 s)
 * whenever one of its counters starts a new window, which would reset these longer windows.
 */
export const limitCounters = pgTable(
  "limit_counters",
  {
    /** `<limit>:<account|ip>:<subject>:<window seconds>`. */
    key: text("key").primaryKey(),
    count: integer("count").notNull(),
    /** End of the current window, epoch milliseconds: from then on the counter starts again from 1. */
    expiresAt: bigint("expires_at", { mode: "number" }).notNull(),
  },
  (t) => [index("limit_counters_expires_at_idx").on(t.expiresAt)],
);
