ALTER TABLE "lead_rate_limit" RENAME TO "limit_counters";--> statement-breakpoint
ALTER TABLE "limit_counters" RENAME COLUMN "window_start" TO "expires_at";--> statement-breakpoint
-- The column held the start of a 10-minute window (the callback form's only limit); it now holds the
-- window's end, so those counters expire as they would have.
UPDATE "limit_counters" SET "expires_at" = "expires_at" + 600000;--> statement-breakpoint
DROP INDEX "lead_rate_limit_window_start_idx";--> statement-breakpoint
CREATE INDEX "limit_counters_expires_at_idx" ON "limit_counters" USING btree ("expires_at");
