CREATE TABLE "lead_rate_limit" (
	"key" text PRIMARY KEY NOT NULL,
	"count" integer NOT NULL,
	"window_start" bigint NOT NULL
);
--> statement-breakpoint
CREATE INDEX "lead_rate_limit_window_start_idx" ON "lead_rate_limit" USING btree ("window_start");