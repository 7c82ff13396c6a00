CREATE TABLE "plan_prices" (
	"id" serial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"item_id" text NOT NULL,
	"amount" integer NOT NULL,
	"original_amount" integer,
	"setup_fee" integer,
	"effective_at" timestamp with time zone NOT NULL,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "plan_prices_kind_check" CHECK ("plan_prices"."kind" in ('plan', 'scaling', 'member', 'distributor')),
	CONSTRAINT "plan_prices_amount_check" CHECK ("plan_prices"."amount" > 0),
	CONSTRAINT "plan_prices_original_amount_check" CHECK (("plan_prices"."kind" = 'member') = ("plan_prices"."original_amount" is not null) and coalesce("plan_prices"."original_amount" >= "plan_prices"."amount", true)),
	CONSTRAINT "plan_prices_setup_fee_check" CHECK (("plan_prices"."kind" = 'distributor') = ("plan_prices"."setup_fee" is not null) and coalesce("plan_prices"."setup_fee" > 0, true))
);
--> statement-breakpoint
CREATE INDEX "plan_prices_current_idx" ON "plan_prices" USING btree ("kind","item_id","effective_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "plan_prices_effective_idx" ON "plan_prices" USING btree ("effective_at");