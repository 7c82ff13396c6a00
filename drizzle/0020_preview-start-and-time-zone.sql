ALTER TABLE "trial_access" ADD COLUMN "preview_started_at" timestamp with time zone;--> statement-breakpoint
-- An account that has opened the dashboard before has had its preview: it counts from the latest
-- view recorded (the first one was not kept).
UPDATE "trial_access" SET "preview_started_at" = "last_dashboard_access" WHERE "preview_started_at" IS NULL AND "last_dashboard_access" IS NOT NULL;--> statement-breakpoint
ALTER TABLE "user_settings" ADD COLUMN "time_zone" text;
