ALTER TABLE "user_subscriptions" ADD COLUMN "item_kind" text;--> statement-breakpoint
ALTER TABLE "user_subscriptions" ADD COLUMN "item_id" text;--> statement-breakpoint
-- Rows from before plan changes are subscriptions to the item of the order that created them.
UPDATE "user_subscriptions" SET "item_kind" = "orders"."kind", "item_id" = "orders"."item_id" FROM "orders" WHERE "orders"."id" = "user_subscriptions"."order_id";
