-- Rows seeded before this column get a placeholder that is unique and shaped like a slug; the
-- catalogue seed, which runs on every start right after the migrations, writes the real ones.
ALTER TABLE "apps" ADD COLUMN "slug" text;--> statement-breakpoint
UPDATE "apps" SET "slug" = 'app-' || "id";--> statement-breakpoint
ALTER TABLE "apps" ALTER COLUMN "slug" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "apps" ADD CONSTRAINT "apps_slug_unique" UNIQUE("slug");
