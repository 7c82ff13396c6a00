CREATE TABLE "page_data_versions" (
	"owner" text PRIMARY KEY NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
-- Written by hand (drizzle-kit does not model triggers): app/server/db/page-versions.server.ts lists
-- the same tables, and tests/integration/page-versions.test.ts checks this database against it.
-- A row's owners (the user-id columns named as arguments) get a new version when the transaction
-- commits: deferred, so the version row is locked for an instant at commit, not for the transaction.
CREATE FUNCTION "bump_page_versions_of_row"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  col text;
  owners text[] := '{}';
  owner_id text;
BEGIN
  FOREACH col IN ARRAY TG_ARGV LOOP
    IF TG_OP <> 'DELETE' THEN owners := owners || (to_jsonb(NEW) ->> col); END IF;
    IF TG_OP <> 'INSERT' THEN owners := owners || (to_jsonb(OLD) ->> col); END IF;
  END LOOP;
  FOR owner_id IN SELECT DISTINCT o FROM unnest(owners) AS o WHERE o IS NOT NULL ORDER BY o LOOP
    INSERT INTO "page_data_versions" AS v ("owner", "version") VALUES (owner_id, 1)
      ON CONFLICT ("owner") DO UPDATE SET "version" = v."version" + 1;
  END LOOP;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Data no user owns (the catalogue, shared settings): every signed-in page's version, once a statement.
CREATE FUNCTION "bump_page_versions_of_everyone"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "page_data_versions" AS v ("owner", "version") VALUES ('', 1)
    ON CONFLICT ("owner") DO UPDATE SET "version" = v."version" + 1;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "page_version" AFTER INSERT OR UPDATE OR DELETE ON "user" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "bump_page_versions_of_row"('id');
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "page_version" AFTER INSERT OR UPDATE OR DELETE ON "session" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "bump_page_versions_of_row"('user_id');
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "page_version" AFTER INSERT OR UPDATE OR DELETE ON "account" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "bump_page_versions_of_row"('user_id');
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "page_version" AFTER INSERT OR UPDATE OR DELETE ON "trial_access" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "bump_page_versions_of_row"('user_id');
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "page_version" AFTER INSERT OR UPDATE OR DELETE ON "user_profiles" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "bump_page_versions_of_row"('user_id');
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "page_version" AFTER INSERT OR UPDATE OR DELETE ON "user_subscriptions" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "bump_page_versions_of_row"('user_id');
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "page_version" AFTER INSERT OR UPDATE OR DELETE ON "onboarding_progress" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "bump_page_versions_of_row"('user_id');
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "page_version" AFTER INSERT OR UPDATE OR DELETE ON "support_tickets" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "bump_page_versions_of_row"('user_id');
--> statement-breakpoint
-- A dashboard visit (ADR 0027) is shown only by /dashboard/analytics, which the cache never stores:
-- recording one must not make every other page of the account miss.
CREATE CONSTRAINT TRIGGER "page_version" AFTER INSERT ON "activity_events" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (NEW."kind" <> 'dashboard_visit') EXECUTE FUNCTION "bump_page_versions_of_row"('user_id');
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "page_version_change" AFTER UPDATE OR DELETE ON "activity_events" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "bump_page_versions_of_row"('user_id');
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "page_version" AFTER INSERT OR UPDATE OR DELETE ON "user_settings" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "bump_page_versions_of_row"('user_id');
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "page_version" AFTER INSERT OR UPDATE OR DELETE ON "orders" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "bump_page_versions_of_row"('user_id');
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "page_version" AFTER INSERT OR UPDATE OR DELETE ON "affiliates" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "bump_page_versions_of_row"('user_id');
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "page_version" AFTER INSERT OR UPDATE OR DELETE ON "referral_clicks" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "bump_page_versions_of_row"('affiliate_user_id');
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "page_version" AFTER INSERT OR UPDATE OR DELETE ON "referrals" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "bump_page_versions_of_row"('referred_user_id', 'affiliate_user_id');
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "page_version" AFTER INSERT OR UPDATE OR DELETE ON "commission_ledger" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "bump_page_versions_of_row"('affiliate_user_id');
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "page_version" AFTER INSERT OR UPDATE OR DELETE ON "user_roles" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "bump_page_versions_of_row"('user_id');
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "page_version" AFTER INSERT OR UPDATE OR DELETE ON "user_addons" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "bump_page_versions_of_row"('user_id');
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "page_version" AFTER INSERT OR UPDATE OR DELETE ON "payment_events" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "bump_page_versions_of_row"('user_id');
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "page_version" AFTER INSERT OR UPDATE OR DELETE ON "billing_customers" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "bump_page_versions_of_row"('user_id');
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "page_version" AFTER INSERT OR UPDATE OR DELETE ON "leads" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "bump_page_versions_of_row"('user_id');
--> statement-breakpoint
CREATE TRIGGER "page_version" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "apps" FOR EACH STATEMENT EXECUTE FUNCTION "bump_page_versions_of_everyone"();
--> statement-breakpoint
CREATE TRIGGER "page_version" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "addon_library" FOR EACH STATEMENT EXECUTE FUNCTION "bump_page_versions_of_everyone"();
--> statement-breakpoint
CREATE TRIGGER "page_version" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "app_settings" FOR EACH STATEMENT EXECUTE FUNCTION "bump_page_versions_of_everyone"();
