ALTER TABLE "plan_prices" DROP CONSTRAINT "plan_prices_kind_check";--> statement-breakpoint
ALTER TABLE "plan_prices" DROP CONSTRAINT "plan_prices_original_amount_check";--> statement-breakpoint
ALTER TABLE "plan_prices" ADD COLUMN "monthly_amount" integer;--> statement-breakpoint
ALTER TABLE "plan_prices" ADD CONSTRAINT "plan_prices_monthly_amount_check" CHECK (("plan_prices"."kind" = 'package') = ("plan_prices"."monthly_amount" is not null) and coalesce("plan_prices"."monthly_amount" > 0, true));--> statement-breakpoint
ALTER TABLE "plan_prices" ADD CONSTRAINT "plan_prices_kind_check" CHECK ("plan_prices"."kind" in ('plan', 'scaling', 'member', 'distributor', 'package'));--> statement-breakpoint
ALTER TABLE "plan_prices" ADD CONSTRAINT "plan_prices_original_amount_check" CHECK (("plan_prices"."kind" in ('member', 'package')) = ("plan_prices"."original_amount" is not null) and coalesce("plan_prices"."original_amount" >= "plan_prices"."amount", true));