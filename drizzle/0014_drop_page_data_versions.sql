-- The signed-in page cache is gone (docs/decisions/XXXX-signed-in-pages-render-every-request.md):
-- its version triggers, their functions and the versions table go with it. Written by hand, like
-- 0011 (drizzle-kit does not model triggers); IF EXISTS throughout, so a database that lost any of
-- them some other way still migrates.
DROP TRIGGER IF EXISTS "page_version" ON "user";
--> statement-breakpoint
DROP TRIGGER IF EXISTS "page_version" ON "session";
--> statement-breakpoint
DROP TRIGGER IF EXISTS "page_version" ON "account";
--> statement-breakpoint
DROP TRIGGER IF EXISTS "page_version" ON "trial_access";
--> statement-breakpoint
DROP TRIGGER IF EXISTS "page_version" ON "user_profiles";
--> statement-breakpoint
DROP TRIGGER IF EXISTS "page_version" ON "user_subscriptions";
--> statement-breakpoint
DROP TRIGGER IF EXISTS "page_version" ON "onboarding_progress";
--> statement-breakpoint
DROP TRIGGER IF EXISTS "page_version" ON "support_tickets";
--> statement-breakpoint
DROP TRIGGER IF EXISTS "page_version" ON "activity_events";
--> statement-breakpoint
DROP TRIGGER IF EXISTS "page_version_change" ON "activity_events";
--> statement-breakpoint
DROP TRIGGER IF EXISTS "page_version" ON "user_settings";
--> statement-breakpoint
DROP TRIGGER IF EXISTS "page_version" ON "orders";
--> statement-breakpoint
DROP TRIGGER IF EXISTS "page_version" ON "affiliates";
--> statement-breakpoint
DROP TRIGGER IF EXISTS "page_version" ON "referral_clicks";
--> statement-breakpoint
DROP TRIGGER IF EXISTS "page_version" ON "referrals";
--> statement-breakpoint
DROP TRIGGER IF EXISTS "page_version" ON "commission_ledger";
--> statement-breakpoint
DROP TRIGGER IF EXISTS "page_version" ON "user_roles";
--> statement-breakpoint
DROP TRIGGER IF EXISTS "page_version" ON "user_addons";
--> statement-breakpoint
DROP TRIGGER IF EXISTS "page_version" ON "payment_events";
--> statement-breakpoint
DROP TRIGGER IF EXISTS "page_version" ON "billing_customers";
--> statement-breakpoint
DROP TRIGGER IF EXISTS "page_version" ON "leads";
--> statement-breakpoint
DROP TRIGGER IF EXISTS "page_version" ON "apps";
--> statement-breakpoint
DROP TRIGGER IF EXISTS "page_version" ON "addon_library";
--> statement-breakpoint
DROP TRIGGER IF EXISTS "page_version" ON "app_settings";
--> statement-breakpoint
DROP FUNCTION IF EXISTS "bump_page_versions_of_row"();
--> statement-breakpoint
DROP FUNCTION IF EXISTS "bump_page_versions_of_everyone"();
--> statement-breakpoint
DROP TABLE IF EXISTS "page_data_versions";
