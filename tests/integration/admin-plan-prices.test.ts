import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { findPricedPlan, LIST_PLAN_CATALOGUE } from "~/catalogue/plan-prices";
import { BILLING_PLANS, DISTRIBUTOR_PROGRAM, QUICK_PICK_PLANS, SCALING_TIERS, TRIAL_PLANS } from "~/catalogue/plans";
import { quotePackage } from "~/catalogue/pricing";
import { action as planAction, loader as planLoader } from "~/routes/admin/plan";
import { loader as plansLoader } from "~/routes/admin/plans";
import { loader as billingLoader } from "~/routes/_dashboard/billing";
import { loader as overviewLoader } from "~/routes/_dashboard/overview";
import { loader as scalingLoader } from "~/routes/_dashboard/scaling";
import { loader as distributorsLoader } from "~/routes/_marketing/distributors";
import { loader as earnLoader } from "~/routes/_marketing/earn";
import { action as packagesAction, loader as packagesLoader } from "~/routes/_marketing/packages";
import { initAuth, resetAuth, type Auth } from "~/server/auth/auth.server";
import { createCheckout } from "~/server/billing/create-checkout.server";
import { fulfilOrder } from "~/server/billing/fulfil-order.server";
import { changeDetails } from "~/server/billing/plan-changes.server";
import { localProvider, setCheckoutProvider } from "~/server/billing/provider.server";
import { quotePlanChange } from "~/server/billing/quote-plan-change.server";
import { catalogueVersion, onCatalogueChange } from "~/server/catalogue/catalogue-version.server";
import { currentPlanPrices, currentPlanPricesOfRequest } from "~/server/catalogue/current-plan-prices.server";
import { seedCatalogue } from "~/server/catalogue/seed.server";
import { setDatabase } from "~/server/db/client.server";
import { adminAudit, orders, planPrices, userRoles, userSubscriptions } from "~/server/db/schema";
import { engine, freshDatabase, orderById, signedInCustomerMaker, userMaker } from "./support/db";
import { routeAnswer, routeArgs, SITE, siteRequests } from "./support/route";
import { enrolTwoFactor } from "./support/two-factor";

process.env.LOG_LEVEL ??= "error";

/**
 * Plan prices in the database, changed from the console (docs/decisions/0085-plan-prices-in-database.md,
 * and the quick-pick packages': 0089-quick-pick-package-prices-in-database.md): a plan's current
 * amounts are the latest change already effective, else its list price; checkout, plan changes and
 * the pages use them; an order keeps the amount it was sold at; a scheduled price takes effect at its
 * time and can be withdrawn before; every change is audited.
 */
const args = routeArgs;
const { get, post } = siteRequests("10.42.0.9");
const DAY = 86_400_000;
const pro = BILLING_PLANS.find((p) => p.type === "pro")!;
const growth = TRIAL_PLANS.find((p) => p.id === "growth")!;
const starter = QUICK_PICK_PLANS.find((p) => p.id === "starter")!;
const professional = QUICK_PICK_PLANS.find((p) => p.id === "professional")!;

/** The /packages loader's cards of one payment mode, as an anonymous visitor gets them. */
type PackageCard = { id: string; amount: number; rushAmount: number; wasAmount: number | null };
type PackagesPage = { quickPick: { plans: Record<"one-time" | "monthly", PackageCard[]> } };
type PackageCards = PackagesPage["quickPick"]["plans"];

/** The /packages loader's cards for an anonymous visitor (what the page cache stores). */
const packagesPage = async (query = "") =>
  (await routeAnswer<PackagesPage>(packagesLoader(args(new Request(`${SITE}/packages${query}`))))).body!.quickPick.plans;
const card = (plans: PackageCards, mode: "one-time" | "monthly", id: string) => plans[mode].find((p) => p.id === id)!;

type Answer = { ok: boolean; message: string; errors?: Record<string, string> };

/** Moves a scheduled price's time to just past (instead of waiting for it); the catalogue version moves with it. */
async function bringDue(db: Awaited<ReturnType<typeof freshDatabase>>["db"], id: number) {
  const version = await catalogueVersion(db);
  await db
    .update(planPrices)
    .set({ effectiveAt: sql`now() - interval '1 second'` })
    .where(eq(planPrices.id, id));
  expect(await catalogueVersion(db)).not.toBe(version);
}

describe(`plan prices in the console (${engine})`, () => {
  let database: Awaited<ReturnType<typeof freshDatabase>>;
  let auth: Auth;
  const newCustomer = signedInCustomerMaker(
    () => auth,
    () => database.db,
    "plan-prices",
  );
  const newUser = userMaker(() => database.db, "plan-prices-user");
  let ops: Awaited<ReturnType<typeof newCustomer>>;
  let customer: Awaited<ReturnType<typeof newCustomer>>;
  const save = (key: string, form: Record<string, string>, cookie = ops.cookie) =>
    routeAnswer<Answer>(planAction(args(post(cookie, `/admin/plans/${key}`, form), { id: key })));
  const auditOf = (key: string) =>
    database.db
      .select()
      .from(adminAudit)
      .where(and(eq(adminAudit.subjectType, "plan"), eq(adminAudit.subjectId, key)))
      .orderBy(adminAudit.id);
  /** A plan_prices row written as the console would, `secondsFromNow` from the database's now. */
  const insertPrice = async (
    key: string,
    amounts: { amount: number; originalAmount?: number; setupFee?: number; monthlyAmount?: number },
    secondsFromNow: number,
  ) => {
    const plan = findPricedPlan(key)!;
    const [row] = await database.db
      .insert(planPrices)
      .values({
        kind: plan.kind,
        itemId: plan.itemId,
        amount: amounts.amount,
        originalAmount: amounts.originalAmount ?? null,
        setupFee: amounts.setupFee ?? null,
        monthlyAmount: amounts.monthlyAmount ?? null,
        effectiveAt: sql`now() + make_interval(secs => ${secondsFromNow})`,
      })
      .returning();
    return row!;
  };

  beforeAll(async () => {
    database = await freshDatabase();
    setDatabase(database);
    auth = await initAuth(database.db);
    await seedCatalogue(database.db);
    setCheckoutProvider(localProvider);
    ops = await newCustomer();
    customer = await newCustomer();
    await database.db.insert(userRoles).values({ userId: ops.id, role: "operator" });
    ops = { ...ops, cookie: (await enrolTwoFactor(auth, ops.cookie, "correct-horse-battery")).cookie };
  });
  beforeEach(async () => {
    await database.db.delete(planPrices);
  });
  afterAll(async () => {
    setCheckoutProvider(undefined);
    setDatabase(undefined);
    resetAuth();
    await database.cleanup();
  });

  it("the current amounts: the list prices without a change, the latest effective change, never a future one, ties to the later row", async () => {
    expect(await currentPlanPrices(database.db)).toEqual(LIST_PLAN_CATALOGUE);

    // Past: in effect. Future: not yet.
    await insertPrice("plan-basic", { amount: 12_300 }, -3600);
    await insertPrice("plan-basic", { amount: 15_000 }, 3600);
    // An earlier time written later loses to the latest time.
    await insertPrice("plan-enterprise", { amount: 150_000 }, -60);
    await insertPrice("plan-enterprise", { amount: 140_000 }, -7200);
    // The same time (one statement: one now()): the later row (higher id) wins.
    await database.db.insert(planPrices).values(
      [55_000, 56_000].map((amount) => ({
        kind: "scaling",
        itemId: "1",
        amount,
        effectiveAt: sql`now() - interval '2 minutes'`,
      })),
    );
    await insertPrice("member-pro", { amount: 650_000, originalAmount: 900_000 }, -1);
    await insertPrice("distributor", { amount: 24_900, setupFee: 120_000 }, -1);
    await insertPrice("package-professional", { amount: 550_000, originalAmount: 800_000, monthlyAmount: 320_000 }, -1);
    await insertPrice("package-enterprise", { amount: 2_600_000, originalAmount: 3_600_000, monthlyAmount: 520_000 }, 3600);

    const now = await currentPlanPrices(database.db);
    expect(now.billingPlans.map((p) => p.monthlyPrice)).toEqual([12_300, pro.monthlyPrice, 150_000]);
    expect(now.scalingTiers.map((t) => t.monthlyPrice)).toEqual([
      SCALING_TIERS[0]!.monthlyPrice,
      56_000,
      ...SCALING_TIERS.slice(2).map((t) => t.monthlyPrice),
    ]);
    expect(now.trialPlans.map((p) => [p.id, p.price, p.originalPrice])).toEqual([
      ["starter", 0, 0],
      ["growth", growth.price, growth.originalPrice],
      ["pro", 650_000, 900_000],
    ]);
    expect(now.distributor).toEqual({ setupFee: 120_000, monthlyFee: 24_900 });
    expect(now.packages.map((p) => [p.id, p.price, p.originalPrice, p.monthlyPrice])).toEqual([
      ["starter", starter.price, starter.originalPrice, starter.monthlyPrice],
      ["professional", 550_000, 800_000, 320_000],
      ["enterprise", 2_500_000, 3_500_000, 500_000],
    ]);
  });

  it("a dashboard request reads the prices once for its loaders; the next request reads them again", async () => {
    const request = get(customer.cookie, "/dashboard/billing");
    const first = currentPlanPricesOfRequest(request);
    expect(currentPlanPricesOfRequest(request)).toBe(first);
    expect((await first).billingPlans[1]!.monthlyPrice).toBe(pro.monthlyPrice);
    await insertPrice("plan-pro", { amount: 55_500 }, -1);
    expect((await currentPlanPricesOfRequest(request)).billingPlans[1]!.monthlyPrice).toBe(pro.monthlyPrice);
    const next = await currentPlanPricesOfRequest(get(customer.cookie, "/dashboard/billing"));
    expect(next.billingPlans[1]!.monthlyPrice).toBe(55_500);
  });

  it("the database refuses amounts a plan cannot have", async () => {
    const bad = [
      { kind: "plan", itemId: "pro", amount: 0 },
      { kind: "plan", itemId: "pro", amount: 100, originalAmount: 200 },
      { kind: "member", itemId: "growth", amount: 100 },
      { kind: "member", itemId: "growth", amount: 300, originalAmount: 200 },
      { kind: "distributor", itemId: "distributor", amount: 100 },
      { kind: "quick-pick", itemId: "starter", amount: 100 },
      { kind: "plan", itemId: "pro", amount: 100, monthlyAmount: 100 },
      { kind: "distributor", itemId: "distributor", amount: 100, setupFee: 100, monthlyAmount: 100 },
      { kind: "package", itemId: "starter", amount: 100, originalAmount: 200 },
      { kind: "package", itemId: "starter", amount: 100, monthlyAmount: 100 },
      { kind: "package", itemId: "starter", amount: 300, originalAmount: 200, monthlyAmount: 100 },
      { kind: "package", itemId: "starter", amount: 100, originalAmount: 200, monthlyAmount: 0 },
      { kind: "package", itemId: "starter", amount: 100, originalAmount: 200, setupFee: 50, monthlyAmount: 100 },
    ];
    for (const values of bad) {
      const refusal = await database.db
        .insert(planPrices)
        .values({ ...values, effectiveAt: new Date() })
        .then(
          () => "inserted",
          (error: { cause?: unknown }) => String(error.cause ?? error),
        );
      expect({ values, refusal }).toEqual({
        values,
        refusal: expect.stringMatching(/violates check constraint "plan_prices_\w+_check"/),
      });
    }
    // A package's row as the console writes it is taken.
    await database.db.insert(planPrices).values({
      kind: "package",
      itemId: "starter",
      amount: 500,
      originalAmount: 500,
      monthlyAmount: 100,
      effectiveAt: new Date(),
    });
  });

  it("the pages are for operators only: anyone else gets a 404, and so does an unknown plan", async () => {
    for (const cookie of ["", customer.cookie]) {
      expect((await routeAnswer(plansLoader(args(get(cookie, "/admin/plans"))))).status).toBe(404);
      expect((await routeAnswer(planLoader(args(get(cookie, "/admin/plans/plan-pro"), { id: "plan-pro" })))).status).toBe(404);
      expect((await save("plan-pro", { intent: "save", amount: "1", effectiveAt: "" }, cookie)).status).toBe(404);
    }
    for (const id of ["member-starter", "plan-free", "scaling-5", "PLAN-PRO", "package-growth", "package", "a".repeat(41)]) {
      expect((await routeAnswer(planLoader(args(get(ops.cookie, `/admin/plans/${id}`), { id })))).status).toBe(404);
    }
    expect(await database.db.select().from(planPrices)).toEqual([]);
    const list = await routeAnswer<{ plans: { key: string; current: { amount: number } }[] }>(
      plansLoader(args(get(ops.cookie, "/admin/plans"))),
    );
    expect(list.body!.plans).toHaveLength(14);
    expect(list.body!.plans.find((p) => p.key === "package-starter")?.current).toEqual({
      amount: starter.price,
      originalAmount: starter.originalPrice,
      setupFee: null,
      monthlyAmount: starter.monthlyPrice,
    });
    expect(list.body!.plans.find((p) => p.key === "plan-pro")?.current.amount).toBe(pro.monthlyPrice);
  });

  it("a bad form is answered 400 with the field's message and changes nothing", async () => {
    const cases: [string, Record<string, string>, string, RegExp][] = [
      ["plan-pro", { amount: "0" }, "amount", /at least \$0\.01/],
      ["plan-pro", { amount: "1000000.01" }, "amount", /at most \$1,000,000/],
      ["plan-pro", { amount: "499.999" }, "amount", /in dollars, like 29 or 29\.99/],
      ["plan-pro", { amount: "" }, "amount", /Enter the monthly price/],
      ["member-growth", { amount: "5000.01", originalAmount: "5000" }, "amount", /at most the price before the discount/],
      ["member-growth", { amount: "3000" }, "originalAmount", /Enter the price before the discount/],
      ["distributor", { amount: "199" }, "setupFee", /Enter the setup fee/],
      ["package-starter", { amount: "3500", originalAmount: "5000" }, "monthlyAmount", /Enter the monthly price/],
      ["package-starter", { amount: "3500", monthlyAmount: "2000" }, "originalAmount", /Enter the price before the saving/],
      [
        "package-starter",
        { amount: "5001", originalAmount: "5000", monthlyAmount: "2000" },
        "amount",
        /one-time price is at most the price before the saving/,
      ],
      [
        "package-starter",
        { amount: "3500", originalAmount: "5000", monthlyAmount: "1999.99" },
        "monthlyAmount",
        /monthly price is in whole dollars/,
      ],
      ["plan-pro", { amount: "499", monthlyAmount: "100" }, "monthlyAmount", /Only a package has a monthly price/],
      ["plan-pro", { amount: "499", effectiveAt: "2020-01-01T00:00" }, "effectiveAt", /in the past/],
      ["plan-pro", { amount: "499", effectiveAt: "2099-01-01T00:00" }, "effectiveAt", /at most 366 days ahead/],
    ];
    for (const [key, change, field, message] of cases) {
      const answer = await save(key, { intent: "save", effectiveAt: "", ...change });
      expect({ key, change, status: answer.status }).toEqual({ key, change, status: 400 });
      expect({ key, change, error: answer.body?.errors?.[field] }).toEqual({
        key,
        change,
        error: expect.stringMatching(message),
      });
    }
    expect((await save("plan-pro", { intent: "save", amount: "499", effectiveAt: "", price: "1" })).status).toBe(400);
    expect(await database.db.select().from(planPrices)).toEqual([]);
    expect(await auditOf("plan-pro")).toEqual([]);
  });

  it("a price change now: checkout charges it and the pages show it, an order placed before keeps its amount, audited", async () => {
    // Orders paid at the list prices, before the change.
    const proBuyer = await newUser();
    const oldPro = await createCheckout(database.db, proBuyer, { kind: "plan", planType: "pro" });
    await fulfilOrder(database.db, oldPro.sessionId);
    const distributorBuyer = await newUser();
    const oldDistributor = await createCheckout(database.db, distributorBuyer, {
      kind: "distributor",
      email: distributorBuyer.email,
      fullName: "Old Buyer",
      businessName: "Old Co",
    });
    await fulfilOrder(database.db, oldDistributor.sessionId);

    let told = 0;
    const stop = onCatalogueChange(() => (told += 1));
    const version = await catalogueVersion(database.db);
    const saved = await save("plan-pro", { intent: "save", amount: "599.50", effectiveAt: "" });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ ok: true, message: "New price in effect." });
    expect(told).toBe(1);
    const newVersion = await catalogueVersion(database.db);
    expect(newVersion).not.toBe(version);
    expect(await save("distributor", { intent: "save", amount: "249", setupFee: "1200", effectiveAt: "" })).toMatchObject({
      body: { ok: true, message: "New price in effect." },
    });
    expect(
      await save("member-growth", { intent: "save", amount: "3000", originalAmount: "4500", effectiveAt: "" }),
    ).toMatchObject({ body: { ok: true } });
    expect(await save("scaling-3", { intent: "save", amount: "2199", effectiveAt: "" })).toMatchObject({ body: { ok: true } });
    stop();
    expect(told).toBe(4);
    expect(await catalogueVersion(database.db)).not.toBe(newVersion);

    // New checkouts are charged the new amounts.
    const buyer = await newUser();
    const plan = await orderById(
      database.db,
      (await createCheckout(database.db, buyer, { kind: "plan", planType: "pro" })).orderId,
    );
    expect(plan).toMatchObject({ kind: "plan", itemName: "Pro Plan", amount: 59_950, setupFee: 0 });
    const distributor = await orderById(
      database.db,
      (
        await createCheckout(database.db, buyer, {
          kind: "distributor",
          email: buyer.email,
          fullName: "New Buyer",
          businessName: "New Co",
        })
      ).orderId,
    );
    expect(distributor).toMatchObject({ amount: 24_900, setupFee: 120_000, trialDays: DISTRIBUTOR_PROGRAM.trialDays });
    const member = await orderById(
      database.db,
      (await createCheckout(database.db, await newUser(), { kind: "member", tier: "growth" })).orderId,
    );
    expect(member).toMatchObject({ amount: 300_000, details: { tier: "growth", originalPrice: 450_000 } });
    const tier = await orderById(
      database.db,
      (await createCheckout(database.db, await newUser(), { kind: "scaling", tierIndex: 3 })).orderId,
    );
    expect(tier).toMatchObject({ itemName: "Scale 500K", amount: 219_900 });

    // The orders placed before keep their amounts, and so does the plan they bought.
    expect(await orderById(database.db, oldPro.orderId)).toMatchObject({ amount: pro.monthlyPrice, status: "paid" });
    expect(await orderById(database.db, oldDistributor.orderId)).toMatchObject({
      amount: DISTRIBUTOR_PROGRAM.monthlyFee,
      setupFee: DISTRIBUTOR_PROGRAM.setupFee,
      status: "paid",
    });
    const [held] = await database.db.select().from(userSubscriptions).where(eq(userSubscriptions.userId, proBuyer.id));
    expect(held).toMatchObject({ planName: "Pro", monthlyPrice: pro.monthlyPrice, status: "active" });

    // The pages show what the checkout charges.
    const billing = await routeAnswer<{ billingPlans: { type: string; monthlyPrice: number }[] }>(
      billingLoader(args(get(customer.cookie, "/dashboard/billing"))),
    );
    expect(billing.body!.billingPlans.map((p) => p.monthlyPrice)).toEqual([9_900, 59_950, 99_900]);
    const scaling = await routeAnswer<{ tiers: { monthlyPrice: number }[] }>(
      scalingLoader(args(get(customer.cookie, "/dashboard/scaling"))),
    );
    expect(scaling.body!.tiers[3]!.monthlyPrice).toBe(219_900);
    const distributors = await routeAnswer<{ fees: unknown }>(distributorsLoader(args(new Request(`${SITE}/distributors`))));
    expect(distributors.body!.fees).toEqual({ setupFee: 120_000, monthlyFee: 24_900 });
    expect((await earnLoader()).fees).toEqual({ setupFee: 120_000, monthlyFee: 24_900 });
    const packages = await routeAnswer<{ quickPick: { tier: unknown } }>(
      packagesLoader(args(new Request(`${SITE}/packages?tier=growth`))),
    );
    expect(packages.body!.quickPick.tier).toMatchObject({ price: 300_000, originalPrice: 450_000, discountPercent: 33 });
    expect(packages.body!.quickPick.tier).toMatchObject({ features: expect.arrayContaining(["33% member discount"]) });
    // The overview's upgrade card (a customer without a plan) names the saving at these prices.
    const overview = await routeAnswer<{ active: boolean; saving: unknown }>(
      overviewLoader(args(get((await newCustomer()).cookie, "/dashboard"))),
    );
    expect(overview.body).toMatchObject({ active: false, saving: { percent: 33, upTo: true, planNames: ["Growth", "Pro"] } });

    // Audited with what was in effect before and what is now; the console shows it.
    const audit = await auditOf("plan-pro");
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      operatorId: ops.id,
      operatorEmail: ops.email,
      action: "plan.price",
      before: { amount: pro.monthlyPrice },
      after: { amount: 59_950, effectiveAt: expect.any(String), priceId: expect.any(Number) },
    });
    expect((await auditOf("distributor"))[0]).toMatchObject({
      before: { amount: DISTRIBUTOR_PROGRAM.monthlyFee, setupFee: DISTRIBUTOR_PROGRAM.setupFee },
      after: { amount: 24_900, setupFee: 120_000 },
    });
    expect((await auditOf("member-growth"))[0]).toMatchObject({
      before: { amount: growth.price, originalAmount: growth.originalPrice },
      after: { amount: 300_000, originalAmount: 450_000 },
    });
    const page = await routeAnswer<{ detail: { current: unknown; changes: { state: string }[]; audit: { action: string }[] } }>(
      planLoader(args(get(ops.cookie, "/admin/plans/plan-pro"), { id: "plan-pro" })),
    );
    expect(page.body!.detail).toMatchObject({
      current: { amount: 59_950, originalAmount: null, setupFee: null },
      changes: [{ state: "current" }],
      audit: [{ action: "plan.price" }],
    });

    // Saving the amounts in effect again changes nothing and records nothing.
    expect((await save("plan-pro", { intent: "save", amount: "599.5", effectiveAt: "" })).body).toMatchObject({
      ok: true,
      message: "Nothing changed.",
    });
    expect(await auditOf("plan-pro")).toHaveLength(1);
  });

  it("a scheduled price waits for its time, then applies; one not yet in effect can be withdrawn", async () => {
    const inAnHour = new Date(Date.now() + 3_600_000).toISOString().slice(0, 16);
    expect((await save("plan-basic", { intent: "save", amount: "129", effectiveAt: inAnHour })).body).toMatchObject({
      ok: true,
      message: "Price change scheduled.",
    });
    const [scheduled] = await database.db.select().from(planPrices);
    expect(scheduled!.effectiveAt.toISOString()).toBe(`${inAnHour}:00.000Z`);
    expect((await currentPlanPrices(database.db)).billingPlans[0]!.monthlyPrice).toBe(9_900);
    const early = await orderById(
      database.db,
      (await createCheckout(database.db, await newUser(), { kind: "plan", planType: "basic" })).orderId,
    );
    expect(early.amount).toBe(9_900);
    const list = await routeAnswer<{ plans: { key: string; scheduled: { amounts: { amount: number } }[] }[] }>(
      plansLoader(args(get(ops.cookie, "/admin/plans"))),
    );
    expect(list.body!.plans.find((p) => p.key === "plan-basic")!.scheduled).toEqual([
      {
        effectiveAt: scheduled!.effectiveAt.toISOString(),
        amounts: { amount: 12_900, originalAmount: null, setupFee: null, monthlyAmount: null },
      },
    ]);

    // Its time comes (moved instead of waited for): checkout charges it and the version moves, so
    // every instance drops its cached pages at its next poll.
    await bringDue(database.db, scheduled!.id);
    const late = await orderById(
      database.db,
      (await createCheckout(database.db, await newUser(), { kind: "plan", planType: "basic" })).orderId,
    );
    expect(late.amount).toBe(12_900);
    expect(await orderById(database.db, early.id)).toMatchObject({ amount: 9_900 });

    // Another one, withdrawn before its time; the one in effect cannot be withdrawn.
    await save("plan-basic", { intent: "save", amount: "139", effectiveAt: inAnHour });
    const [later] = await database.db
      .select()
      .from(planPrices)
      .where(sql`${planPrices.effectiveAt} > now()`);
    const withdraw = (key: string, priceId: number) => save(key, { intent: "cancel-price", priceId: String(priceId) });
    expect((await withdraw("plan-pro", later!.id)).status).toBe(409);
    expect((await withdraw("plan-basic", later!.id)).body).toMatchObject({ ok: true, message: "Scheduled price withdrawn." });
    expect((await withdraw("plan-basic", later!.id)).status).toBe(409);
    expect((await withdraw("plan-basic", scheduled!.id)).status).toBe(409);
    expect((await save("plan-basic", { intent: "cancel-price", priceId: "x" })).status).toBe(400);
    expect((await currentPlanPrices(database.db)).billingPlans[0]!.monthlyPrice).toBe(12_900);
    const audit = await auditOf("plan-basic");
    expect(audit.map((e) => e.action)).toEqual(["plan.price", "plan.price", "plan.price-cancel"]);
    expect(audit[2]).toMatchObject({ before: { priceId: later!.id, amount: 13_900 }, after: null });
  });

  const packageOrder = async (req: {
    planId: string;
    mode: "one-time" | "monthly";
    rush: boolean;
    goal?: string;
    timeline?: string;
  }) => orderById(database.db, (await createCheckout(database.db, await newUser(), { kind: "package", ...req })).orderId);

  it("a package price change now: /packages shows it, its checkout charges it, an order placed before keeps its amount, audited", async () => {
    // An order paid at the list price, before the change.
    const early = await newUser();
    const oldOrder = await createCheckout(database.db, early, {
      kind: "package",
      planId: "professional",
      mode: "one-time",
      rush: false,
    });
    await fulfilOrder(database.db, oldOrder.sessionId);
    expect(card(await packagesPage(), "one-time", "professional")).toMatchObject({
      amount: professional.price,
      wasAmount: professional.originalPrice,
    });

    let told = 0;
    const stop = onCatalogueChange(() => (told += 1));
    const version = await catalogueVersion(database.db);
    const saved = await save("package-professional", {
      intent: "save",
      amount: "5600",
      originalAmount: "8000",
      monthlyAmount: "3200",
      effectiveAt: "",
    });
    stop();
    expect(saved).toMatchObject({ status: 200, body: { ok: true, message: "New price in effect." } });
    // This instance drops its cached pages at once, the others at their next poll of the version.
    expect(told).toBe(1);
    expect(await catalogueVersion(database.db)).not.toBe(version);

    // The page shows the new amounts, one-time and monthly, rush and through the funnel's multipliers.
    const plans = await packagesPage();
    expect(card(plans, "one-time", "professional")).toMatchObject({ amount: 560_000, rushAmount: 840_000, wasAmount: 800_000 });
    expect(card(plans, "monthly", "professional")).toMatchObject({ amount: 320_000, rushAmount: 480_000 });
    expect(card(plans, "one-time", "starter")).toMatchObject({ amount: starter.price, wasAmount: starter.originalPrice });
    const funnel = await packagesPage("?goal=add_ai&timeline=2weeks");
    // $5,600 x 0.8 x 1.1.
    expect(card(funnel, "one-time", "professional")).toMatchObject({ amount: 492_800, rushAmount: 672_000 });

    // The page's own checkout form charges what it showed (the server prices it from the ids)...
    const buyer = await newCustomer();
    const started = await routeAnswer(
      packagesAction(
        args(
          post(buyer.cookie, "/packages?goal=add_ai&timeline=2weeks", {
            planId: "professional",
            mode: "one-time",
            rush: "false",
            goal: "add_ai",
            timeline: "2weeks",
          }),
        ),
      ),
    );
    expect(started.status).toBe(302);
    const bought = await database.db.select().from(orders).where(eq(orders.userId, buyer.id));
    expect(bought).toEqual([
      expect.objectContaining({
        kind: "package",
        itemId: "professional",
        itemName: "Professional",
        amount: 492_800,
        details: expect.objectContaining({ multiplier: 0.88, rush: false }),
      }),
    ]);
    // ...and so does the API's: every mode and rush, by the same rule as the page.
    const now = (await currentPlanPrices(database.db)).packages.find((p) => p.id === "professional")!;
    for (const mode of ["one-time", "monthly"] as const)
      for (const rush of [false, true]) {
        const order = await packageOrder({ planId: "professional", mode, rush });
        const shown = card(plans, mode, "professional");
        expect({ mode, rush, amount: order.amount }).toEqual({ mode, rush, amount: rush ? shown.rushAmount : shown.amount });
        expect(order.amount).toBe(quotePackage(now, { mode, rush }).amount);
      }

    // The order placed before keeps its amount.
    expect(await orderById(database.db, oldOrder.orderId)).toMatchObject({ amount: professional.price, status: "paid" });

    // Audited with the three amounts before and after; the console lists and shows it.
    const audit = await auditOf("package-professional");
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      operatorId: ops.id,
      action: "plan.price",
      subjectType: "plan",
      before: {
        amount: professional.price,
        originalAmount: professional.originalPrice,
        monthlyAmount: professional.monthlyPrice,
      },
      after: { amount: 560_000, originalAmount: 800_000, monthlyAmount: 320_000, effectiveAt: expect.any(String) },
    });
    expect(audit[0]!.before).not.toHaveProperty("setupFee");
    const list = await routeAnswer<{ plans: { key: string; kind: string; current: unknown }[] }>(
      plansLoader(args(get(ops.cookie, "/admin/plans"))),
    );
    expect(list.body!.plans.find((p) => p.key === "package-professional")).toMatchObject({
      kind: "package",
      current: { amount: 560_000, originalAmount: 800_000, setupFee: null, monthlyAmount: 320_000 },
    });
    const page = await routeAnswer<{ plan: { name: string }; detail: { changes: { state: string }[]; audit: unknown[] } }>(
      planLoader(args(get(ops.cookie, "/admin/plans/package-professional"), { id: "package-professional" })),
    );
    expect(page.body).toMatchObject({
      plan: { name: "Professional Package" },
      detail: { changes: [{ state: "current" }], audit: [{ action: "plan.price" }] },
    });

    // Saving the amounts in effect again changes nothing and records nothing.
    expect(
      (
        await save("package-professional", {
          intent: "save",
          amount: "5600",
          originalAmount: "8000",
          monthlyAmount: "3200",
          effectiveAt: "",
        })
      ).body,
    ).toMatchObject({ ok: true, message: "Nothing changed." });
    expect(await auditOf("package-professional")).toHaveLength(1);
  });

  it("a scheduled package price waits for its time, then /packages and checkout use it; one withdrawn never applies", async () => {
    const inAnHour = new Date(Date.now() + 3_600_000).toISOString().slice(0, 16);
    const form = { intent: "save", amount: "3900", originalAmount: "5000", monthlyAmount: "2200", effectiveAt: inAnHour };
    expect((await save("package-starter", form)).body).toMatchObject({ ok: true, message: "Price change scheduled." });
    const [scheduled] = await database.db.select().from(planPrices);
    expect(scheduled).toMatchObject({ kind: "package", itemId: "starter", amount: 390_000, monthlyAmount: 220_000 });

    // Before its time: the list prices, on the page and at checkout.
    expect(card(await packagesPage(), "one-time", "starter").amount).toBe(starter.price);
    const early = await packageOrder({ planId: "starter", mode: "monthly", rush: false });
    expect(early.amount).toBe(starter.monthlyPrice);
    const list = await routeAnswer<{ plans: { key: string; scheduled: unknown[] }[] }>(
      plansLoader(args(get(ops.cookie, "/admin/plans"))),
    );
    expect(list.body!.plans.find((p) => p.key === "package-starter")!.scheduled).toEqual([
      {
        effectiveAt: scheduled!.effectiveAt.toISOString(),
        amounts: { amount: 390_000, originalAmount: 500_000, setupFee: null, monthlyAmount: 220_000 },
      },
    ]);

    // Its time comes (moved instead of waited for): the version moves, so every instance drops its
    // cached /packages at its next poll, and the page and checkout use the new amounts.
    await bringDue(database.db, scheduled!.id);
    const plans = await packagesPage();
    expect(card(plans, "one-time", "starter")).toMatchObject({ amount: 390_000, wasAmount: 500_000 });
    expect(card(plans, "monthly", "starter")).toMatchObject({ amount: 220_000 });
    expect((await packageOrder({ planId: "starter", mode: "monthly", rush: false })).amount).toBe(220_000);
    expect((await packageOrder({ planId: "starter", mode: "one-time", rush: true })).amount).toBe(585_000);
    expect(await orderById(database.db, early.id)).toMatchObject({ amount: starter.monthlyPrice });

    // Another one, withdrawn before its time, never applies.
    await save("package-starter", { ...form, amount: "4200" });
    const [later] = await database.db
      .select()
      .from(planPrices)
      .where(sql`${planPrices.effectiveAt} > now()`);
    expect((await save("package-professional", { intent: "cancel-price", priceId: String(later!.id) })).status).toBe(409);
    expect((await save("package-starter", { intent: "cancel-price", priceId: String(later!.id) })).body).toMatchObject({
      ok: true,
      message: "Scheduled price withdrawn.",
    });
    expect((await currentPlanPrices(database.db)).packages[0]).toMatchObject({ price: 390_000, monthlyPrice: 220_000 });
    const audit = await auditOf("package-starter");
    expect(audit.map((e) => e.action)).toEqual(["plan.price", "plan.price", "plan.price-cancel"]);
    expect(audit[2]).toMatchObject({
      before: { priceId: later!.id, amount: 420_000, originalAmount: 500_000, monthlyAmount: 220_000 },
      after: null,
    });
  });

  it("a plan change is quoted at the new plan's current price, from the price the customer pays", async () => {
    const now = new Date();
    const user = await newUser();
    const { sessionId } = await createCheckout(database.db, user, { kind: "plan", planType: "basic" });
    await fulfilOrder(database.db, sessionId);
    await database.db
      .update(userSubscriptions)
      .set({ currentPeriodEnd: new Date(now.getTime() + 15 * DAY) })
      .where(eq(userSubscriptions.userId, user.id));
    // Both plans change price after the customer bought Basic.
    await save("plan-basic", { intent: "save", amount: "149", effectiveAt: "" });
    await save("plan-enterprise", { intent: "save", amount: "1299", effectiveAt: "" });

    const quote = (await quotePlanChange(database.db, user.id, { kind: "plan", planType: "enterprise" }, now))!;
    const details = changeDetails(quote);
    expect(details.from).toMatchObject({ itemId: "basic", monthlyPrice: 9_900 });
    expect(details.to).toMatchObject({ itemId: "enterprise", name: "Enterprise", monthlyPrice: 129_900 });
    // 15 of 30 days left: $1,299 x 1/2 - $99 x 1/2.
    expect(quote.amount).toBe(64_950 - 4_950);
  });
});
