ALTER TABLE "orders" ADD COLUMN "capture_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "orders_capture_at_idx" ON "orders" USING btree ("capture_at") WHERE capture_at is not null;