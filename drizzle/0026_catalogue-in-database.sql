CREATE TABLE "addon_prices" (
	"id" serial PRIMARY KEY NOT NULL,
	"addon_id" text NOT NULL,
	"monthly_price" integer NOT NULL,
	"effective_at" timestamp with time zone NOT NULL,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "app_prices" (
	"id" serial PRIMARY KEY NOT NULL,
	"app_id" integer NOT NULL,
	"base_price" integer NOT NULL,
	"express_price" integer NOT NULL,
	"standard_price" integer NOT NULL,
	"monthly_financing" text NOT NULL,
	"effective_at" timestamp with time zone NOT NULL,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "apps" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "addon_library" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "addon_prices" ADD CONSTRAINT "addon_prices_addon_id_addon_library_id_fk" FOREIGN KEY ("addon_id") REFERENCES "public"."addon_library"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "app_prices" ADD CONSTRAINT "app_prices_app_id_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "addon_prices_current_idx" ON "addon_prices" USING btree ("addon_id","effective_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "addon_prices_effective_idx" ON "addon_prices" USING btree ("effective_at");--> statement-breakpoint
CREATE INDEX "app_prices_current_idx" ON "app_prices" USING btree ("app_id","effective_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "app_prices_effective_idx" ON "app_prices" USING btree ("effective_at");--> statement-breakpoint
CREATE INDEX "apps_updated_at_idx" ON "apps" USING btree ("updated_at");