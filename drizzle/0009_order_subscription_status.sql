ALTER TABLE "orders" ADD COLUMN "subscription_status" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "subscription_updated_at" timestamp with time zone;