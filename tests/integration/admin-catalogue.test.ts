import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { allApps } from "~/catalogue/apps";
import { quoteApp } from "~/catalogue/pricing";
import { ADDONS } from "~/catalogue/addons";
import { action as addonAction, loader as addonLoader } from "~/routes/admin/addon";
import { action as appAction, loader as appLoader } from "~/routes/admin/app";
import { loader as tableLoader } from "~/routes/admin/table";
import { loader as exportLoader } from "~/routes/admin/export";
import { loader as appPageLoader } from "~/routes/_marketing/apps.detail";
import { loader as sitemapLoader } from "~/routes/sitemap";
import { initAuth, resetAuth, type Auth } from "~/server/auth/auth.server";
import { createCheckout } from "~/server/billing/create-checkout.server";
import { getEntitlements } from "~/server/billing/entitlements.server";
import { listActiveAddons, seedAddons } from "~/server/catalogue/addons.server";
import { fulfilOrder } from "~/server/billing/fulfil-order.server";
import { appSlugs, getApp, getAppBySlug, searchApps } from "~/server/catalogue/apps.server";
import { catalogueVersion, onCatalogueChange } from "~/server/catalogue/catalogue-version.server";
import { seedCatalogue } from "~/server/catalogue/seed.server";
import { setDatabase } from "~/server/db/client.server";
import { addonLibrary, addonPrices, adminAudit, appPrices, apps, orders, userRoles, userSettings } from "~/server/db/schema";
import { instantOfWallTime, wallTimeIn } from "~/lib/time-zone";
import { engine, freshDatabase, signedInCustomerMaker } from "./support/db";
import { routeAnswer, routeArgs, SITE, siteRequests } from "./support/route";
import { enrolTwoFactor } from "./support/two-factor";

process.env.LOG_LEVEL ??= "error";

/**
 * The catalogue in the database, edited from the console (docs/decisions/0078-catalogue-in-database.md):
 * the seed inserts and never overwrites, prices change now or from a later time, an order keeps
 * the amount it was sold at, an unpublished app leaves the listings and cannot be bought, and every
 * change is in the audit log.
 */
const args = routeArgs;
const { get, post } = siteRequests("10.42.0.1");

const catalogue = allApps();
const APP_ID = 12;
const original = catalogue.find((a) => a.id === APP_ID)!;

/** The edit form as the page sends it, for app `a`, with some fields changed. */
const formOf = (a: (typeof catalogue)[number], changes: Record<string, string> = {}): Record<string, string> => ({
  intent: "save",
  name: a.name,
  description: a.description,
  industry: a.industry,
  features: a.features.join("\n"),
  deliveryTime: a.deliveryTime,
  ...(a.isPopular ? { isPopular: "on" } : {}),
  isActive: "on",
  basePrice: String(a.basePrice),
  expressPrice: String(a.expressPrice),
  standardPrice: String(a.standardPrice),
  monthlyFinancing: a.monthlyFinancing,
  effectiveAt: "",
  ...changes,
});

/** The add-on form as its page sends it, with some fields changed. */
const addonForm = (a: (typeof ADDONS)[number], changes: Record<string, string> = {}): Record<string, string> => ({
  intent: "save",
  name: a.name,
  description: a.description,
  category: a.category,
  features: a.features.join("\n"),
  ...(a.isActive ? { isActive: "on" } : {}),
  monthlyPrice: String(a.monthlyPrice / 100),
  effectiveAt: "",
  ...changes,
});

describe(`catalogue in the console (${engine})`, () => {
  let database: Awaited<ReturnType<typeof freshDatabase>>;
  let auth: Auth;
  const newCustomer = signedInCustomerMaker(
    () => auth,
    () => database.db,
    "catalogue-ops",
  );
  let ops: Awaited<ReturnType<typeof newCustomer>>;
  let customer: Awaited<ReturnType<typeof newCustomer>>;
  const save = (path: string, id: string, form: Record<string, string>, cookie = ops.cookie) =>
    routeAnswer<{ ok: boolean; message: string; errors?: Record<string, string> }>(
      appAction(args(post(cookie, path, form), { id })),
    );
  const saveAddon = (id: string, form: Record<string, string>, cookie = ops.cookie) =>
    routeAnswer<{ ok: boolean; message: string; errors?: Record<string, string> }>(
      addonAction(args(post(cookie, `/admin/addons/${id}`, form), { id })),
    );
  const listed = async (id: string) => (await listActiveAddons(database.db)).find((a) => a.id === id);
  const auditOf = (id: number) =>
    database.db
      .select()
      .from(adminAudit)
      .where(and(eq(adminAudit.subjectType, "app"), eq(adminAudit.subjectId, String(id))))
      .orderBy(adminAudit.id);

  beforeAll(async () => {
    database = await freshDatabase();
    setDatabase(database);
    auth = await initAuth(database.db);
    await seedCatalogue(database.db);
    await seedAddons(database.db);
    ops = await newCustomer();
    customer = await newCustomer();
    await database.db.insert(userRoles).values({ userId: ops.id, role: "operator" });
    ops = { ...ops, cookie: (await enrolTwoFactor(auth, ops.cookie, "correct-horse-battery")).cookie };
  });
  afterAll(async () => {
    setDatabase(undefined);
    resetAuth();
    await database.cleanup();
  });

  it("the Apps table and an app's page are for operators only: anyone else gets a 404", async () => {
    for (const cookie of ["", customer.cookie]) {
      expect((await routeAnswer(tableLoader(args(get(cookie, "/admin/apps"), { table: "apps" })))).status).toBe(404);
      expect((await routeAnswer(appLoader(args(get(cookie, `/admin/apps/${APP_ID}`), { id: String(APP_ID) })))).status).toBe(404);
      expect((await save(`/admin/apps/${APP_ID}`, String(APP_ID), formOf(original, { basePrice: "1" }), cookie)).status).toBe(
        404,
      );
    }
    expect(await getApp(database.db, APP_ID)).toEqual(original);
    for (const id of ["0", "abc", "12.5", "99999999999", "-1", "9999"]) {
      expect((await routeAnswer(appLoader(args(get(ops.cookie, `/admin/apps/${id}`), { id })))).status).toBe(404);
    }
  });

  it("the Apps table searches, filters, sorts and exports", async () => {
    type Page = { rows: { id: number; name: string; basePrice: number; published: boolean }[]; total: number };
    const table = async (query: string) =>
      (await routeAnswer<Page>(tableLoader(args(get(ops.cookie, `/admin/apps${query}`), { table: "apps" })))).body!;
    expect((await table("")).total).toBe(181);
    expect((await table("?q=medischeduler")).rows.map((r) => r.id)).toEqual([1]);
    expect((await table("?q=Financial+Services")).total).toBe(
      catalogue.filter((a) => a.industry === "Financial Services").length,
    );
    const bySort = (await table("?sort=basePrice&dir=desc&size=25")).rows.map((r) => r.basePrice);
    expect(bySort).toEqual([...bySort].sort((a, b) => b - a));
    expect((await table("?published=no")).total).toBe(0);
    const csv = await (await exportLoader(args(get(ops.cookie, "/admin/export/apps?q=medischeduler"), { table: "apps" }))).text();
    expect(csv.split("\r\n")[0]).toMatch(/^id,slug,name,industry,base_price,/);
    expect(csv).toContain("1,medischeduler-ai,MediScheduler AI");
  });

  it("a bad form is answered 400 with field messages and changes nothing", async () => {
    const cases: [Record<string, string>, string, RegExp][] = [
      [{ basePrice: "12.5" }, "basePrice", /whole number of dollars/],
      [{ basePrice: "0" }, "basePrice", /at least \$1/],
      [{ basePrice: "" }, "basePrice", /Enter the base price/],
      [{ expressPrice: "1" }, "expressPrice", /at least the base price/],
      [{ name: "" }, "name", /Enter the name/],
      [{ name: "!!" }, "name", /letter or digit/],
      [{ industry: "Space" }, "industry", /Choose an industry/],
      [{ features: "\n \n" }, "features", /at least one feature/],
      [{ description: "a\u0000b is not ok at all" }, "description", /special characters/],
      [{ effectiveAt: "2020-01-01T00:00" }, "effectiveAt", /in the past/],
      [{ effectiveAt: "tomorrow" }, "effectiveAt", /Enter a date and time/],
    ];
    for (const [change, field, message] of cases) {
      const answer = await save(`/admin/apps/${APP_ID}`, String(APP_ID), formOf(original, change));
      expect({ change, status: answer.status }).toEqual({ change, status: 400 });
      expect({ change, error: answer.body?.errors?.[field] }).toEqual({ change, error: expect.stringMatching(message) });
    }
    const unknown = await save(`/admin/apps/${APP_ID}`, String(APP_ID), { ...formOf(original), amount: "1" });
    expect(unknown.status).toBe(400);
    expect(await getApp(database.db, APP_ID)).toEqual(original);
    expect(await auditOf(APP_ID)).toEqual([]);
  });

  it("a price change now: the public pages and checkout use it, an order placed before keeps its amount, audited", async () => {
    // An order paid at the old price.
    const before = await createCheckout(database.db, customer, { kind: "app", appId: APP_ID, tab: "base" });
    await fulfilOrder(database.db, before.sessionId);
    const oldAmount = quoteApp(original, "base").amount;

    let told = 0;
    const stop = onCatalogueChange(() => (told += 1));
    const versionBefore = await catalogueVersion(database.db);
    const changed = formOf(original, {
      basePrice: "30000",
      expressPrice: "45000",
      standardPrice: "27000",
      monthlyFinancing: "1500",
    });
    const answer = await save(`/admin/apps/${APP_ID}`, String(APP_ID), changed);
    stop();
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ ok: true, message: "New price in effect." });
    expect(told).toBe(1);
    expect(await catalogueVersion(database.db)).not.toBe(versionBefore);

    const now = { basePrice: 30000, expressPrice: 45000, standardPrice: 27000, monthlyFinancing: "1500" };
    expect(await getApp(database.db, APP_ID)).toEqual({ ...original, ...now });
    expect(await getAppBySlug(database.db, original.slug)).toMatchObject(now);
    expect((await searchApps(database.db, { q: original.name }, 5)).apps[0]).toMatchObject(now);

    const after = await createCheckout(database.db, customer, { kind: "app", appId: APP_ID, tab: "express" });
    const [oldOrder] = await database.db.select().from(orders).where(eq(orders.id, before.orderId));
    const [newOrder] = await database.db.select().from(orders).where(eq(orders.id, after.orderId));
    expect(oldOrder).toMatchObject({ amount: oldAmount, status: "paid" });
    expect(newOrder).toMatchObject({ amount: 45000_00 });

    const audit = await auditOf(APP_ID);
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      operatorId: ops.id,
      operatorEmail: ops.email,
      action: "app.price",
      before: {
        basePrice: original.basePrice,
        expressPrice: original.expressPrice,
        standardPrice: original.standardPrice,
        monthlyFinancing: original.monthlyFinancing,
      },
      after: { ...now, effectiveAt: expect.any(String), priceId: expect.any(Number) },
    });
    // Saving the same form again changes nothing and records nothing.
    expect((await save(`/admin/apps/${APP_ID}`, String(APP_ID), changed)).body).toMatchObject({ message: "Nothing changed." });
    expect(await auditOf(APP_ID)).toHaveLength(1);
  });

  it("an operator in Auckland schedules a price in Auckland's time, and the page labels the zone", async () => {
    const id = 21;
    const app = catalogue.find((a) => a.id === id)!;
    await database.db
      .insert(userSettings)
      .values({ userId: ops.id, timeZone: "Pacific/Auckland" })
      .onConflictDoUpdate({ target: userSettings.userId, set: { timeZone: "Pacific/Auckland" } });
    try {
      // Tomorrow at 09:30 on Auckland's clocks.
      const tomorrow = wallTimeIn(new Date(Date.now() + 86_400_000), "Pacific/Auckland");
      const local = `${tomorrow.year}-${String(tomorrow.month).padStart(2, "0")}-${String(tomorrow.day).padStart(2, "0")}T09:30`;
      const answer = await save(
        `/admin/apps/${id}`,
        String(id),
        formOf(app, { basePrice: String(app.basePrice + 500), effectiveAt: local }),
      );
      expect(answer.body).toMatchObject({ ok: true, message: "Price change scheduled." });
      const [scheduled] = await database.db.select().from(appPrices).where(eq(appPrices.appId, id));
      expect(scheduled!.effectiveAt).toEqual(
        instantOfWallTime(
          { year: tomorrow.year, month: tomorrow.month, day: tomorrow.day, hour: 9, minute: 30 },
          "Pacific/Auckland",
        ),
      );
      expect(wallTimeIn(scheduled!.effectiveAt, "Pacific/Auckland")).toMatchObject({ hour: 9, minute: 30 });
      const page = await routeAnswer<{ timeZone: string | null }>(
        appLoader(args(get(ops.cookie, `/admin/apps/${id}`), { id: String(id) })),
      );
      expect(page.body!.timeZone).toBe("Pacific/Auckland");
    } finally {
      await database.db.delete(userSettings).where(eq(userSettings.userId, ops.id));
    }
  });

  it("a scheduled price is not applied before its time, then is; it can be withdrawn before", async () => {
    const id = 20;
    const app = catalogue.find((a) => a.id === id)!;
    const inAnHour = new Date(Date.now() + 3_600_000).toISOString().slice(0, 16);
    const answer = await save(
      `/admin/apps/${id}`,
      String(id),
      formOf(app, { basePrice: String(app.basePrice + 1000), effectiveAt: inAnHour }),
    );
    expect(answer.body).toMatchObject({ ok: true, message: "Price change scheduled." });
    expect(await getApp(database.db, id)).toEqual(app);
    const [scheduled] = await database.db.select().from(appPrices).where(eq(appPrices.appId, id));
    expect(scheduled!.effectiveAt.toISOString()).toBe(`${inAnHour}:00.000Z`);

    // The detail page lists it as scheduled; the table shows when.
    const page = await routeAnswer<{ detail: { changes: { id: number; state: string }[] } }>(
      appLoader(args(get(ops.cookie, `/admin/apps/${id}`), { id: String(id) })),
    );
    expect(page.body!.detail.changes).toEqual([expect.objectContaining({ id: scheduled!.id, state: "scheduled" })]);

    // Its time comes (moved instead of waited for): the price applies and the version moves.
    const version = await catalogueVersion(database.db);
    await database.db
      .update(appPrices)
      .set({ effectiveAt: sql`now() - interval '1 second'` })
      .where(eq(appPrices.id, scheduled!.id));
    expect(await getApp(database.db, id)).toEqual({ ...app, basePrice: app.basePrice + 1000 });
    expect(await catalogueVersion(database.db)).not.toBe(version);

    // A second one, withdrawn before its time: gone, audited; one in effect cannot be withdrawn.
    await save(`/admin/apps/${id}`, String(id), formOf(app, { basePrice: String(app.basePrice + 2000), effectiveAt: inAnHour }));
    const [later] = await database.db
      .select()
      .from(appPrices)
      .where(and(eq(appPrices.appId, id), sql`${appPrices.effectiveAt} > now()`));
    const withdraw = (priceId: number) =>
      save(`/admin/apps/${id}`, String(id), { intent: "cancel-price", priceId: String(priceId) });
    expect((await withdraw(later!.id)).body).toMatchObject({ ok: true });
    expect((await withdraw(later!.id)).status).toBe(409);
    expect((await withdraw(scheduled!.id)).status).toBe(409);
    expect(await getApp(database.db, id)).toEqual({ ...app, basePrice: app.basePrice + 1000 });
    expect((await auditOf(id)).map((e) => e.action)).toEqual(["app.price", "app.price", "app.price-cancel"]);
  });

  it("unpublishing hides the app from listings, its page and the sitemap, and refuses its checkout; republishing restores it", async () => {
    const id = 3;
    const app = catalogue.find((a) => a.id === id)!;
    const { isActive: _on, ...unpublished } = formOf(app);
    expect((await save(`/admin/apps/${id}`, String(id), unpublished)).body).toMatchObject({
      ok: true,
      message: "Listing saved.",
    });
    expect(await getApp(database.db, id)).toBeUndefined();
    expect((await searchApps(database.db, { q: app.name }, 5)).apps.map((a) => a.id)).not.toContain(id);
    expect(await appSlugs(database.db)).not.toContain(app.slug);
    const publicPage = await routeAnswer(appPageLoader(args(new Request(`${SITE}/apps/${app.slug}`), { slug: app.slug })));
    expect(publicPage.status).toBe(404);
    const sitemap = await (await sitemapLoader()).text();
    expect(sitemap).not.toContain(`/apps/${app.slug}<`);
    await expect(createCheckout(database.db, customer, { kind: "app", appId: id, tab: "base" })).rejects.toThrow(
      "Invalid app data",
    );
    expect((await auditOf(id))[0]).toMatchObject({
      action: "app.update",
      before: { isActive: true },
      after: { isActive: false },
    });

    // Still in the console, and back on sale once published again.
    const table = await routeAnswer<{ rows: { id: number }[] }>(
      tableLoader(args(get(ops.cookie, "/admin/apps?published=no"), { table: "apps" })),
    );
    expect(table.body!.rows.map((r) => r.id)).toEqual([id]);
    await save(`/admin/apps/${id}`, String(id), formOf(app));
    expect(await getApp(database.db, id)).toEqual(app);
  });

  it("details are saved and audited with only what changed; the slug stays when the name changes", async () => {
    const id = 5;
    const app = catalogue.find((a) => a.id === id)!;
    const answer = await save(
      `/admin/apps/${id}`,
      String(id),
      formOf(app, { name: "Renamed Helper", features: "One\n\n  Two  \n", deliveryTime: "3-5 days" }),
    );
    expect(answer.body).toMatchObject({ ok: true, message: "Listing saved." });
    expect(await getApp(database.db, id)).toEqual({
      ...app,
      name: "Renamed Helper",
      features: ["One", "Two"],
      deliveryTime: "3-5 days",
    });
    const [entry] = await auditOf(id);
    expect(entry).toMatchObject({
      action: "app.update",
      before: { name: app.name, features: app.features, deliveryTime: app.deliveryTime },
      after: { name: "Renamed Helper", features: ["One", "Two"], deliveryTime: "3-5 days" },
    });
    expect(Object.keys(entry!.after!).sort()).toEqual(["deliveryTime", "features", "name"]);
  });

  it("creates an app with the next id and a unique slug from its name, audited; a restart's seed leaves edits alone", async () => {
    const form = formOf(original, { name: "Renamed Helper", basePrice: "9000", expressPrice: "9000", standardPrice: "8000" });
    const first = await routeAnswer(appAction(args(post(ops.cookie, "/admin/apps/new", form), { id: "new" })));
    expect(first.status).toBe(302);
    expect(first.location).toBe("/admin/apps/182?created=1");
    // Another app with the same name: the id makes its slug unique.
    const second = await routeAnswer(appAction(args(post(ops.cookie, "/admin/apps/new", form), { id: "new" })));
    expect(second.location).toBe("/admin/apps/183?created=1");
    expect(await getApp(database.db, 182)).toMatchObject({ slug: "renamed-helper", basePrice: 9000, reviews: 0 });
    expect(await getApp(database.db, 183)).toMatchObject({ slug: "renamed-helper-183" });
    // Published, a new app's page shows no reviews rather than made-up ones.
    await database.db.update(apps).set({ isActive: true }).where(eq(apps.id, 182));
    const page = await routeAnswer<{ reviews: unknown[]; earlier: unknown[] }>(
      appPageLoader(args(new Request(`${SITE}/apps/renamed-helper`), { slug: "renamed-helper" })),
    );
    expect(page.body).toMatchObject({ reviews: [], earlier: [] });
    expect((await auditOf(182))[0]).toMatchObject({
      action: "app.create",
      before: null,
      after: { id: 182, slug: "renamed-helper" },
    });

    // What a restart runs: nothing an operator changed is undone, the created apps stay.
    const edited = await getApp(database.db, APP_ID);
    expect(await seedCatalogue(database.db)).toEqual({ apps: 181, inserted: 0 });
    expect(await getApp(database.db, APP_ID)).toEqual(edited);
    expect((await getApp(database.db, 5))?.name).toBe("Renamed Helper");
    expect(await getApp(database.db, 3)).toBeDefined();
    const [count] = await database.db.select({ n: sql<number>`count(*)::int` }).from(apps);
    expect(count!.n).toBe(183);
  });
  describe("add-ons", () => {
    const [first, second, third] = ADDONS.filter((a) => a.isActive);

    it("is for operators only, 404 for an unknown or malformed id; a bad form is a 400 with field messages", async () => {
      for (const cookie of ["", customer.cookie]) {
        expect((await routeAnswer(addonLoader(args(get(cookie, `/admin/addons/${first!.id}`), { id: first!.id })))).status).toBe(
          404,
        );
        expect((await saveAddon(first!.id, addonForm(first!, { monthlyPrice: "1" }), cookie)).status).toBe(404);
      }
      for (const id of ["no-such-addon", "Bad_Id", "a".repeat(101)]) {
        expect((await routeAnswer(addonLoader(args(get(ops.cookie, `/admin/addons/${id}`), { id })))).status).toBe(404);
      }
      for (const [change, field] of [
        [{ monthlyPrice: "29.999" }, "monthlyPrice"],
        [{ monthlyPrice: "0.50" }, "monthlyPrice"],
        [{ category: "Toys" }, "category"],
        [{ features: "" }, "features"],
        [{ effectiveAt: "2020-01-01T00:00" }, "effectiveAt"],
      ] as const) {
        const answer = await saveAddon(first!.id, addonForm(first!, change));
        expect({ change, status: answer.status, error: answer.body?.errors?.[field] }).toEqual({
          change,
          status: 400,
          error: expect.any(String),
        });
      }
      expect(await listed(first!.id)).toMatchObject({ monthlyPrice: first!.monthlyPrice });
    });

    it("a price change now: listed and charged at the new price, an owner keeps what they bought at, audited", async () => {
      // An owner of the first add-on, bought at its list price.
      const bought = await createCheckout(database.db, customer, { kind: "addons", addonIds: [first!.id] });
      await fulfilOrder(database.db, bought.sessionId);
      const answer = await saveAddon(first!.id, addonForm(first!, { monthlyPrice: "123.45" }));
      expect(answer.body).toMatchObject({ ok: true, message: "New price in effect." });
      expect(await listed(first!.id)).toMatchObject({ monthlyPrice: 12345 });
      const owned = (await getEntitlements(database.db, customer.id)).addons.find((a) => a.addonId === first!.id);
      expect(owned).toMatchObject({ monthlyPrice: first!.monthlyPrice });
      // A new buyer pays the new price.
      const other = await newCustomer();
      const order = await createCheckout(database.db, other, { kind: "addons", addonIds: [first!.id, second!.id] });
      const [row] = await database.db.select().from(orders).where(eq(orders.id, order.orderId));
      expect(row!.amount).toBe(12345 + second!.monthlyPrice);
      // Each owner's add-on shows what they bought it at, not the list price.
      await fulfilOrder(database.db, order.sessionId);
      const theirs = (await getEntitlements(database.db, other.id)).addons.find((a) => a.addonId === first!.id);
      expect(theirs).toMatchObject({ monthlyPrice: 12345 });
      expect(
        await database.db
          .select({ action: adminAudit.action, before: adminAudit.before, after: adminAudit.after })
          .from(adminAudit)
          .where(and(eq(adminAudit.subjectType, "addon"), eq(adminAudit.subjectId, first!.id))),
      ).toEqual([
        {
          action: "addon.price",
          before: { monthlyPrice: first!.monthlyPrice },
          after: { monthlyPrice: 12345, effectiveAt: expect.any(String), priceId: expect.any(Number) },
        },
      ]);
    });

    it("a scheduled price waits for its time; off sale leaves the marketplace and checkout; a restart's seed keeps the edits", async () => {
      const inADay = new Date(Date.now() + 86_400_000).toISOString().slice(0, 16);
      expect((await saveAddon(second!.id, addonForm(second!, { monthlyPrice: "77", effectiveAt: inADay }))).body).toMatchObject({
        message: "Price change scheduled.",
      });
      expect(await listed(second!.id)).toMatchObject({ monthlyPrice: second!.monthlyPrice });
      await database.db
        .update(addonPrices)
        .set({ effectiveAt: sql`now() - interval '1 second'` })
        .where(eq(addonPrices.addonId, second!.id));
      expect(await listed(second!.id)).toMatchObject({ monthlyPrice: 7700 });

      const { isActive: _on, ...offSale } = addonForm(third!, { name: "Renamed Add-on" });
      expect((await saveAddon(third!.id, offSale)).body).toMatchObject({ message: "Listing saved." });
      expect(await listed(third!.id)).toBeUndefined();
      await expect(createCheckout(database.db, await newCustomer(), { kind: "addons", addonIds: [third!.id] })).rejects.toThrow(
        "Unknown or unavailable add-on",
      );

      expect(await seedAddons(database.db)).toBe(ADDONS.length);
      const [kept] = await database.db.select().from(addonLibrary).where(eq(addonLibrary.id, third!.id));
      expect(kept).toMatchObject({ name: "Renamed Add-on", isActive: false });
      expect(await listed(first!.id)).toMatchObject({ monthlyPrice: 12345 });
    });
  });
});
