import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { allApps } from "~/catalogue/apps";
import { getApp, listApps } from "~/server/catalogue/apps.server";
import { seedCatalogue } from "~/server/catalogue/seed.server";
import { apps } from "~/server/db/schema";
import { engine, freshDatabase } from "./support/db";

const catalogue = allApps();
const ids = (rows: { id: number }[]) => rows.map((r) => r.id);
/** The reference rule of spec section 5, computed in memory, to compare the SQL against. */
const expected = (q: string, industry = "All") =>
  catalogue
    .filter((a) => industry === "All" || a.industry === industry)
    .filter((a) => [a.name, a.description, a.industry].some((f) => f.toLowerCase().includes(q.trim().toLowerCase())))
    .map((a) => a.id);

describe(`catalogue (${engine})`, () => {
  let database: Awaited<ReturnType<typeof freshDatabase>>;
  beforeAll(async () => {
    database = await freshDatabase();
  });
  afterAll(async () => {
    await database.cleanup();
  });

  describe("seedCatalogue", () => {
    it("inserts the 181 apps with the catalogue's exact values", async () => {
      expect(await seedCatalogue(database.db)).toEqual({ apps: 181 });
      const rows = await listApps(database.db);
      expect(rows).toEqual(catalogue);
    });

    it("is idempotent: seeding again keeps 181 rows with identical values", async () => {
      // Tamper with a row first: the upsert must put the catalogue's values back.
      await database.db.update(apps).set({ basePrice: 1, name: "tampered" }).where(eq(apps.id, 7));
      await seedCatalogue(database.db);
      const [count] = await database.db.select({ n: sql<number>`count(*)::int` }).from(apps);
      expect(count).toEqual({ n: 181 });
      expect(await listApps(database.db)).toEqual(catalogue);
    });
  });

  describe("listApps", () => {
    it("returns every active app ordered by id without filters, and for industry 'All'", async () => {
      expect(ids(await listApps(database.db))).toEqual(catalogue.map((a) => a.id));
      expect(ids(await listApps(database.db, { q: "", industry: "All" }))).toHaveLength(181);
      expect(ids(await listApps(database.db, { q: "   " }))).toHaveLength(181);
    });

    it("searches names case-insensitively", async () => {
      const rows = await listApps(database.db, { q: "mediSCHEDULER" });
      expect(rows.map((r) => r.name)).toEqual(["MediScheduler AI"]);
    });

    it("searches descriptions", async () => {
      const rows = await listApps(database.db, { q: "abandoned carts" });
      expect(rows.map((r) => r.name)).toEqual(["CartRescue AI"]);
      expect(ids(await listApps(database.db, { q: "waitlist" }))).toEqual(expected("waitlist"));
    });

    it("searches the industry text", async () => {
      const rows = await listApps(database.db, { q: "telecom" });
      expect(ids(rows)).toEqual(expected("telecom"));
      expect(rows.length).toBeGreaterThanOrEqual(8);
      expect(rows.every((r) => r.industry === "Telecommunications" || /telecom/i.test(r.name + r.description))).toBe(true);
    });

    it("filters by exact industry", async () => {
      const rows = await listApps(database.db, { industry: "Financial Services" });
      expect(rows).toHaveLength(9);
      expect(rows.every((r) => r.industry === "Financial Services")).toBe(true);
      expect(await listApps(database.db, { industry: "Financial" })).toEqual([]);
    });

    it("combines search and industry", async () => {
      const rows = await listApps(database.db, { q: "booking", industry: "Hospitality & Tourism" });
      expect(ids(rows)).toEqual(expected("booking", "Hospitality & Tourism"));
      expect(rows.length).toBeGreaterThan(0);
      expect(rows.length).toBeLessThan((await listApps(database.db, { q: "booking" })).length);
    });

    it("treats %, _ and backslash in the search as literal characters", async () => {
      expect(await listApps(database.db, { q: "%" })).toEqual([]);
      expect(await listApps(database.db, { q: "_" })).toEqual([]);
      expect(await listApps(database.db, { q: "\\" })).toEqual([]);
      expect(await listApps(database.db, { q: "Medi%AI" })).toEqual([]);
      expect(await listApps(database.db, { q: "Medi_cheduler" })).toEqual([]);
      // Ampersands and hyphens are ordinary characters.
      expect(ids(await listApps(database.db, { q: "& E-commerce" }))).toEqual(expected("& E-commerce"));
    });

    it("returns [] when nothing matches", async () => {
      expect(await listApps(database.db, { q: "zzz-no-such-app" })).toEqual([]);
    });

    it("hides inactive apps", async () => {
      await database.db.update(apps).set({ isActive: false }).where(eq(apps.id, 1));
      try {
        expect(ids(await listApps(database.db))).not.toContain(1);
        expect(await getApp(database.db, 1)).toBeUndefined();
      } finally {
        await database.db.update(apps).set({ isActive: true }).where(eq(apps.id, 1));
      }
    });
  });

  describe("getApp", () => {
    it("returns one app by id, or undefined", async () => {
      expect(await getApp(database.db, 42)).toEqual(catalogue[41]);
      expect(await getApp(database.db, 999)).toBeUndefined();
      expect(await getApp(database.db, Number.NaN)).toBeUndefined();
    });
  });
});
