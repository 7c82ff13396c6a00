-- The /apps search indexes need pg_trgm (a trusted contrib extension on PostgreSQL 13+; PGlite loads it from
-- @electric-sql/pglite/contrib/pg_trgm, see app/server/db/client.server.ts). Added by hand to the generated migration.
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE INDEX "apps_name_trgm_idx" ON "apps" USING gin ("name" gin_trgm_ops) WITH (fastupdate=false);--> statement-breakpoint
CREATE INDEX "apps_description_trgm_idx" ON "apps" USING gin ("description" gin_trgm_ops) WITH (fastupdate=false);--> statement-breakpoint
CREATE INDEX "apps_industry_trgm_idx" ON "apps" USING gin ("industry" gin_trgm_ops) WITH (fastupdate=false);