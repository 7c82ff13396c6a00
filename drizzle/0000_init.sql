CREATE TABLE "apps" (
	"id" integer PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"description" text NOT NULL,
	"industry" text NOT NULL,
	"base_price" integer NOT NULL,
	"express_price" integer NOT NULL,
	"standard_price" integer NOT NULL,
	"monthly_financing" text NOT NULL,
	"rating" integer DEFAULT 5 NOT NULL,
	"reviews" integer NOT NULL,
	"is_popular" boolean DEFAULT false NOT NULL,
	"features" jsonb NOT NULL,
	"delivery_time" text NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL
);
--> statement-breakpoint
CREATE INDEX "apps_industry_idx" ON "apps" USING btree ("industry");--> statement-breakpoint
CREATE INDEX "apps_name_lower_idx" ON "apps" USING btree (lower("name"));