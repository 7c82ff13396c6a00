ALTER TABLE "apps" ADD COLUMN "position" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "addon_library" ADD COLUMN "position" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Today's orders become the first positions, so nothing a visitor sees moves until an operator moves it:
-- apps by id (the /apps order so far), add-ons by category then name (the marketplace's order so far).
UPDATE "apps" SET "position" = r.n FROM (SELECT "id", row_number() OVER (ORDER BY "id") AS n FROM "apps") r WHERE "apps"."id" = r."id";--> statement-breakpoint
UPDATE "addon_library" SET "position" = r.n
  FROM (SELECT "id", row_number() OVER (ORDER BY "category", "name", "id") AS n FROM "addon_library") r
  WHERE "addon_library"."id" = r."id";--> statement-breakpoint
CREATE UNIQUE INDEX "apps_position_idx" ON "apps" USING btree ("position");--> statement-breakpoint
CREATE UNIQUE INDEX "addon_library_position_idx" ON "addon_library" USING btree ("position");--> statement-breakpoint
-- A row inserted without a position (0, the default) goes last, and a deleted row's place closes up. The lock is the one the console's
-- moves take (app/server/admin/catalogue-order.server.ts), so an insert and a move never pick the
-- same number, and a multi-row insert sees the rows it placed before (row triggers do).
CREATE FUNCTION "apps_place_last"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('catalogue:order:apps'));
  SELECT coalesce(max("position"), 0) + 1 INTO NEW."position" FROM "apps";
  RETURN NEW;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "apps_place_last" BEFORE INSERT ON "apps"
  FOR EACH ROW WHEN (NEW."position" < 1) EXECUTE FUNCTION "apps_place_last"();--> statement-breakpoint
CREATE FUNCTION "addon_library_place_last"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('catalogue:order:addon_library'));
  SELECT coalesce(max("position"), 0) + 1 INTO NEW."position" FROM "addon_library";
  RETURN NEW;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "addon_library_place_last" BEFORE INSERT ON "addon_library"
  FOR EACH ROW WHEN (NEW."position" < 1) EXECUTE FUNCTION "addon_library_place_last"();
--> statement-breakpoint
CREATE FUNCTION "apps_close_gaps"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('catalogue:order:apps'));
  -- Renumbered in the same order, through negative numbers: the unique index is checked row by row,
  -- so numbering in place could collide.
  UPDATE "apps" SET "position" = -r.n
    FROM (SELECT "id", row_number() OVER (ORDER BY "position") AS n FROM "apps") r
    WHERE "apps"."id" = r."id" AND "apps"."position" <> r.n;
  UPDATE "apps" SET "position" = -"position" WHERE "position" < 0;
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "apps_close_gaps" AFTER DELETE ON "apps"
  FOR EACH STATEMENT EXECUTE FUNCTION "apps_close_gaps"();--> statement-breakpoint
CREATE FUNCTION "addon_library_close_gaps"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('catalogue:order:addon_library'));
  -- Renumbered in the same order, through negative numbers: the unique index is checked row by row,
  -- so numbering in place could collide.
  UPDATE "addon_library" SET "position" = -r.n
    FROM (SELECT "id", row_number() OVER (ORDER BY "position") AS n FROM "addon_library") r
    WHERE "addon_library"."id" = r."id" AND "addon_library"."position" <> r.n;
  UPDATE "addon_library" SET "position" = -"position" WHERE "position" < 0;
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "addon_library_close_gaps" AFTER DELETE ON "addon_library"
  FOR EACH STATEMENT EXECUTE FUNCTION "addon_library_close_gaps"();
