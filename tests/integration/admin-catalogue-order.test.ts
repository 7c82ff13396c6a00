import { and, asc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADDONS } from "~/catalogue/addons";
import { allApps } from "~/catalogue/apps";
import { quoteApp } from "~/catalogue/pricing";
import type { AppFormInput } from "~/lib/admin/app-form";
import { moved } from "~/lib/admin/position";
import { action as addonAction, loader as addonLoader } from "~/routes/admin/addon";
import { action as appAction } from "~/routes/admin/app";
import { loader as tableLoader } from "~/routes/admin/table";
import { moveAppAsOperator } from "~/server/admin/move-app-as-operator.server";
import { moveAddonAsOperator } from "~/server/admin/move-addon-as-operator.server";
import { createAppAsOperator } from "~/server/admin/create-app-as-operator.server";
import { initAuth, resetAuth, type Auth } from "~/server/auth/auth.server";
import { createCheckout } from "~/server/billing/create-checkout.server";
import { fulfilOrder } from "~/server/billing/fulfil-order.server";
import { getEntitlements } from "~/server/billing/entitlements.server";
import { listActiveAddons, seedAddons } from "~/server/catalogue/addons.server";
import { getApp, relatedApps, searchApps } from "~/server/catalogue/apps.server";
import { catalogueVersion, onCatalogueChange } from "~/server/catalogue/catalogue-version.server";
import { seedCatalogue } from "~/server/catalogue/seed.server";
import { setDatabase } from "~/server/db/client.server";
import { addonLibrary, adminAudit, apps, orders, userRoles } from "~/server/db/schema";
import { engine, freshDatabase, insertTestAddons, signedInCustomerMaker } from "./support/db";
import { routeAnswer, routeArgs, siteRequests } from "./support/route";
import { enrolTwoFactor } from "./support/two-factor";

process.env.LOG_LEVEL ??= "error";

/**
 * The catalogue's order and new add-ons from the console
 * (docs/decisions/0080-catalogue-order-and-add-on-creation.md): positions start in the order
 * visitors saw, a move keeps them unique and without gaps (also when moves and inserts race), the
 * public listings follow them, bad input is a 400 with the field's message, orders keep their
 * prices, and every change is audited. New add-ons get an id from their name, go last, and can be
 * bought.
 */
const args = routeArgs;
const { get, post } = siteRequests("10.42.0.7");
const catalogue = allApps();
const specOrder = <T extends { category: string; name: string }>(list: readonly T[]) =>
  [...list].sort((a, b) =>
    a.category < b.category ? -1 : a.category > b.category ? 1 : a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
  );

/** 1..n: positions unique and without gaps. */
const dense = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

/** The new add-on form as its page sends it, with some fields changed. */
const addonForm = (changes: Record<string, string> = {}): Record<string, string> => ({
  intent: "save",
  name: "Churn Radar",
  description: "Warns you before a customer leaves.",
  category: ADDONS[0]!.category,
  features: "Weekly churn score\nAlerts by email",
  isActive: "on",
  monthlyPrice: "39.50",
  ...changes,
});

type Answer = { ok: boolean; message: string; form?: string; positionError?: string; errors?: Record<string, string> };

describe(`catalogue order and new add-ons (${engine})`, () => {
  let database: Awaited<ReturnType<typeof freshDatabase>>;
  let auth: Auth;
  const newCustomer = signedInCustomerMaker(
    () => auth,
    () => database.db,
    "catalogue-order",
  );
  let ops: Awaited<ReturnType<typeof newCustomer>>;
  let customer: Awaited<ReturnType<typeof newCustomer>>;
  const operator = () => ({ id: ops.id, email: ops.email });

  const moveApp = (id: number, position: string, cookie = ops.cookie) =>
    routeAnswer<Answer>(appAction(args(post(cookie, `/admin/apps/${id}`, { intent: "move", position }), { id: String(id) })));
  const moveAddon = (id: string, position: string, cookie = ops.cookie) =>
    routeAnswer<Answer>(addonAction(args(post(cookie, `/admin/addons/${id}`, { intent: "move", position }), { id })));
  const createAddon = (form: Record<string, string>, cookie = ops.cookie) =>
    routeAnswer<Answer>(addonAction(args(post(cookie, "/admin/addons/new", form), { id: "new" })));

  /** Every app's id in position order, and the positions themselves. */
  const appOrder = async () => {
    const rows = await database.db.select({ id: apps.id, position: apps.position }).from(apps).orderBy(asc(apps.position));
    return { ids: rows.map((r) => r.id), positions: rows.map((r) => r.position) };
  };
  const addonOrder = async () => {
    const rows = await database.db
      .select({ id: addonLibrary.id, position: addonLibrary.position })
      .from(addonLibrary)
      .orderBy(asc(addonLibrary.position));
    return { ids: rows.map((r) => r.id), positions: rows.map((r) => r.position) };
  };
  const auditOf = (subjectType: "app" | "addon", id: string) =>
    database.db
      .select({
        action: adminAudit.action,
        operatorEmail: adminAudit.operatorEmail,
        before: adminAudit.before,
        after: adminAudit.after,
      })
      .from(adminAudit)
      .where(and(eq(adminAudit.subjectType, subjectType), eq(adminAudit.subjectId, id)))
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

  it("positions start in the order visitors saw: apps by id, add-ons by category then name", async () => {
    expect(await appOrder()).toEqual({ ids: catalogue.map((a) => a.id), positions: dense(catalogue.length) });
    expect(await addonOrder()).toEqual({ ids: specOrder(ADDONS).map((a) => a.id), positions: dense(ADDONS.length) });
    expect((await listActiveAddons(database.db)).map((a) => a.id)).toEqual(
      specOrder(ADDONS.filter((a) => a.isActive)).map((a) => a.id),
    );
    // A restart's seed inserts nothing and moves nothing.
    await seedCatalogue(database.db);
    await seedAddons(database.db);
    expect((await appOrder()).positions).toEqual(dense(catalogue.length));
  });

  it("moves are for operators only; bad positions are a 400 with the field's message and change nothing", async () => {
    const before = await appOrder();
    for (const cookie of ["", customer.cookie]) {
      expect((await moveApp(12, "1", cookie)).status).toBe(404);
      expect((await moveAddon(ADDONS[0]!.id, "2", cookie)).status).toBe(404);
    }
    const cases: [string, string][] = [
      ["", "Enter a position from 1 to 181."],
      ["0", "The position is from 1 to 181."],
      ["182", "The position is from 1 to 181."],
      ["1.5", "The position is a whole number from 1 to 181."],
      ["-3", "The position is a whole number from 1 to 181."],
      ["top", "The position is a whole number from 1 to 181."],
      ["99999999999999999999", "The position is a whole number from 1 to 181."],
    ];
    for (const [position, message] of cases) {
      const answer = await moveApp(12, position);
      expect({ position, status: answer.status, body: answer.body }).toEqual({
        position,
        status: 400,
        body: {
          ok: false,
          form: "order",
          message: "Not moved: check the position.",
          positionError: message,
          position: position.slice(0, 20),
        },
      });
    }
    const addonAnswer = await moveAddon(ADDONS[0]!.id, String(ADDONS.length + 1));
    expect(addonAnswer.status).toBe(400);
    expect(addonAnswer.body?.positionError).toBe(`The position is from 1 to ${ADDONS.length}.`);
    expect((await moveApp(9999, "1")).status).toBe(404);
    expect((await moveAddon("no-such-addon", "1")).status).toBe(404);
    expect(await appOrder()).toEqual(before);
    expect(
      await database.db
        .select()
        .from(adminAudit)
        .where(sql`${adminAudit.action} like '%.move'`),
    ).toEqual([]);
  });

  it("an app moved up shows there on /apps at once, the rest shift by one, an order placed before keeps its prices, audited", async () => {
    const bought = await createCheckout(database.db, customer, { kind: "app", appId: 12, tab: "base" });
    await fulfilOrder(database.db, bought.sessionId);
    const priceBefore = await getApp(database.db, 12);
    const versionBefore = await catalogueVersion(database.db);
    let told = 0;
    const stop = onCatalogueChange(() => (told += 1));
    const answer = await moveApp(12, "3");
    stop();
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ ok: true, form: "order", message: "Moved from position 12 to 3 of 181." });
    expect(told).toBe(1);
    expect(await catalogueVersion(database.db)).not.toBe(versionBefore);

    const expected = moved(
      catalogue.map((a) => a.id),
      12,
      3,
    );
    expect(await appOrder()).toEqual({ ids: expected, positions: dense(181) });
    expect((await searchApps(database.db, {}, 5)).apps.map((a) => a.id)).toEqual([1, 2, 12, 3, 4]);
    // A search keeps the same order among its matches.
    const industry = priceBefore!.industry;
    expect((await searchApps(database.db, { industry }, 200)).apps.map((a) => a.id)).toEqual(
      expected.filter((id) => catalogue.find((a) => a.id === id)!.industry === industry),
    );
    expect(await relatedApps(database.db, { id: 0, industry }, 100)).toHaveLength(
      catalogue.filter((a) => a.industry === industry).length,
    );

    // Moving changes no price, and the order keeps what it was sold at.
    expect(await getApp(database.db, 12)).toEqual(priceBefore);
    const [order] = await database.db.select().from(orders).where(eq(orders.id, bought.orderId));
    expect(order!.amount).toBe(
      quoteApp(
        catalogue.find((a) => a.id === 12)!,
        "base",
      ).amount,
    );

    // Down again by one step (the Move down button sends the next position), then a move to where it is.
    expect((await moveApp(12, "4")).body).toMatchObject({ ok: true, message: "Moved from position 3 to 4 of 181." });
    expect((await moveApp(12, "4")).body).toMatchObject({ ok: true, message: "Already at position 4 of 181; nothing changed." });
    expect((await appOrder()).ids.slice(0, 5)).toEqual([1, 2, 3, 12, 4]);
    expect(await auditOf("app", "12")).toEqual([
      { action: "app.move", operatorEmail: ops.email, before: { position: 12 }, after: { position: 3 } },
      { action: "app.move", operatorEmail: ops.email, before: { position: 3 }, after: { position: 4 } },
    ]);

    // The console's table shows and sorts by position.
    type Page = { rows: { id: number; position: number }[] };
    const page = await routeAnswer<Page>(
      tableLoader(args(get(ops.cookie, "/admin/apps?sort=position&size=25"), { table: "apps" })),
    );
    expect(page.body!.rows.slice(0, 5)).toEqual(
      [1, 2, 3, 12, 4].map((id, i) => expect.objectContaining({ id, position: i + 1 })),
    );
  });

  it("moves and new apps racing each other keep positions unique and without gaps", async () => {
    const targets = [181, 1, 90, 45, 3, 150, 2, 181, 77, 10, 1, 120];
    const results = await Promise.all([
      ...targets.map((to, i) => moveAppAsOperator(database.db, operator(), 20 + i * 7, String(to))),
      createAppAsOperator(database.db, operator(), {
        intent: "save",
        name: "Race Condition Finder",
        description: "Finds the bugs that only happen sometimes.",
        industry: catalogue[0]!.industry as AppFormInput["industry"],
        features: ["Replays"],
        deliveryTime: "5 days",
        isPopular: false,
        isActive: true,
        basePrice: 1000,
        expressPrice: 1500,
        standardPrice: 900,
        monthlyFinancing: 100,
        effectiveAt: "",
      }),
      moveAppAsOperator(database.db, operator(), 12, "181"),
    ]);
    expect(results.every((r) => "id" in r || r.ok)).toBe(true);
    const { ids, positions } = await appOrder();
    expect(positions).toEqual(dense(182));
    expect(new Set(ids).size).toBe(182);
    // The move audited last is where its app is.
    const [last] = await database.db
      .select()
      .from(adminAudit)
      .where(eq(adminAudit.action, "app.move"))
      .orderBy(sql`${adminAudit.id} desc`)
      .limit(1);
    const [at] = await database.db
      .select({ position: apps.position })
      .from(apps)
      .where(eq(apps.id, Number(last!.subjectId)));
    expect(at!.position).toBe((last!.after as { position: number }).position);
    // Rows inserted without a position (a test helper, a script) go last too.
    await insertTestAddons(database.db, [
      { id: "order-test-a", name: "Order Test A", category: ADDONS[0]!.category, monthlyPrice: 500 },
      { id: "order-test-b", name: "Order Test B", category: ADDONS[0]!.category, monthlyPrice: 500 },
    ]);
    const addons = await addonOrder();
    expect(addons.positions).toEqual(dense(ADDONS.length + 2));
    expect(addons.ids.slice(-2)).toEqual(["order-test-a", "order-test-b"]);
  });

  it("an add-on moved first leads the marketplace; an owner keeps the price they bought at; audited", async () => {
    const owned = specOrder(ADDONS.filter((a) => a.isActive))[1]!;
    const bought = await createCheckout(database.db, customer, { kind: "addons", addonIds: [owned.id] });
    await fulfilOrder(database.db, bought.sessionId);
    const last = specOrder(ADDONS.filter((a) => a.isActive)).at(-1)!;
    const from = (await addonOrder()).ids.indexOf(last.id) + 1;
    const answer = await moveAddon(last.id, "1");
    expect(answer.body).toEqual({
      ok: true,
      form: "order",
      message: `Moved from position ${from} to 1 of ${ADDONS.length + 2}.`,
    });
    expect((await listActiveAddons(database.db))[0]!.id).toBe(last.id);
    expect((await addonOrder()).positions).toEqual(dense(ADDONS.length + 2));
    expect((await getEntitlements(database.db, customer.id)).addons.find((a) => a.addonId === owned.id)).toMatchObject({
      monthlyPrice: owned.monthlyPrice,
    });
    expect(await auditOf("addon", last.id)).toEqual([
      { action: "addon.move", operatorEmail: ops.email, before: { position: from }, after: { position: 1 } },
    ]);
    const direct = await moveAddonAsOperator(database.db, operator(), last.id, "2");
    expect(direct).toEqual({ ok: true, from: 1, to: 2, of: ADDONS.length + 2 });
  });

  describe("a new add-on", () => {
    it("is for operators only; a bad form is a 400 with the field's messages and creates nothing", async () => {
      for (const cookie of ["", customer.cookie]) {
        expect((await routeAnswer(addonLoader(args(get(cookie, "/admin/addons/new"), { id: "new" })))).status).toBe(404);
        expect((await createAddon(addonForm(), cookie)).status).toBe(404);
      }
      const page = await routeAnswer<{ detail: unknown }>(addonLoader(args(get(ops.cookie, "/admin/addons/new"), { id: "new" })));
      expect(page.status).toBe(200);
      expect(page.body?.detail).toBeNull();
      const cases: [Record<string, string>, string, string][] = [
        [{ name: "" }, "name", "Enter the name."],
        [{ name: "!!" }, "name", "The name needs at least one letter or digit."],
        [{ category: "Toys" }, "category", "Choose a category from the list."],
        [{ monthlyPrice: "0" }, "monthlyPrice", "The monthly price is at least $1."],
        [{ monthlyPrice: "12.345" }, "monthlyPrice", "The monthly price is in dollars, like 29 or 29.99."],
        [{ features: "\n" }, "features", "Enter at least one feature."],
        [{ description: "short" }, "description", "The description needs at least 10 characters."],
      ];
      for (const [change, field, message] of cases) {
        const answer = await createAddon(addonForm(change));
        expect({ change, status: answer.status, error: answer.body?.errors?.[field] }).toEqual({
          change,
          status: 400,
          error: message,
        });
      }
      expect((await createAddon({ ...addonForm(), effectiveAt: "" })).status).toBe(400);
      expect((await createAddon({ ...addonForm(), id: "chosen-id" })).status).toBe(400);
      expect(
        await database.db
          .select()
          .from(addonLibrary)
          .where(sql`${addonLibrary.name} = 'Churn Radar'`),
      ).toEqual([]);
      expect(await database.db.select().from(adminAudit).where(eq(adminAudit.action, "addon.create"))).toEqual([]);
    });

    it("gets an id from its name, goes last, is listed and can be bought; audited", async () => {
      const count = (await addonOrder()).ids.length;
      const answer = await createAddon(addonForm());
      expect(answer.status).toBe(302);
      expect(answer.location).toBe("/admin/addons/churn-radar?created=1");
      const [row] = await database.db.select().from(addonLibrary).where(eq(addonLibrary.id, "churn-radar"));
      expect(row).toMatchObject({ name: "Churn Radar", isActive: true, monthlyPrice: 3950, position: count + 1 });
      expect((await listActiveAddons(database.db)).at(-1)).toMatchObject({ id: "churn-radar", monthlyPrice: 3950 });
      expect(await auditOf("addon", "churn-radar")).toEqual([
        {
          action: "addon.create",
          operatorEmail: ops.email,
          before: null,
          after: {
            id: "churn-radar",
            name: "Churn Radar",
            description: "Warns you before a customer leaves.",
            category: ADDONS[0]!.category,
            features: ["Weekly churn score", "Alerts by email"],
            isActive: true,
            monthlyPrice: 3950,
            position: count + 1,
          },
        },
      ]);
      const buyer = await newCustomer();
      const order = await createCheckout(database.db, buyer, { kind: "addons", addonIds: ["churn-radar"] });
      const [placed] = await database.db.select().from(orders).where(eq(orders.id, order.orderId));
      expect(placed!.amount).toBe(3950);

      // The same name again, and a name that is the console's own address, get ids of their own.
      expect((await createAddon(addonForm())).location).toBe("/admin/addons/churn-radar-2?created=1");
      const { isActive: _off, ...offSale } = addonForm({ name: "New" });
      expect((await createAddon(offSale)).location).toBe("/admin/addons/new-2?created=1");
      expect((await listActiveAddons(database.db)).some((a) => a.id === "new-2")).toBe(false);
      expect((await addonOrder()).positions).toEqual(dense(count + 3));
      // Rows deleted together (no console path deletes; a script might) leave no gap behind.
      await database.db.delete(addonLibrary).where(sql`${addonLibrary.id} in ('order-test-a', 'churn-radar-2')`);
      expect((await addonOrder()).positions).toEqual(dense(count + 1));
    });
  });
});
