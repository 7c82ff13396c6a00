import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { APP_PRICING_TABS, quoteApp } from "~/catalogue/pricing";
import { getApp } from "~/server/catalogue/apps.server";
import { seedCatalogue } from "~/server/catalogue/seed.server";
import { CheckoutError } from "~/server/billing/checkout-error.server";
import { createCheckout } from "~/server/billing/create-checkout.server";
import { declineOrder } from "~/server/billing/decline-order.server";
import { dueToday } from "~/server/billing/due-today.server";
import { fulfilOrder } from "~/server/billing/fulfil-order.server";
import { getOrderForUser, listPurchasedAutomations } from "~/server/billing/list-orders.server";
import { asItWouldBePaid } from "~/server/billing/owned-items.server";
import { apps, orders, paymentEvents } from "~/server/db/schema";
import { engine, freshDatabase, userMaker } from "./support/db";

const APP_ID = 7;

describe(`checkout (${engine})`, () => {
  let database: Awaited<ReturnType<typeof freshDatabase>>;
  const newUser = userMaker(() => database.db, "checkout");
  const orderBySession = async (sessionId: string) =>
    (await database.db.select().from(orders).where(eq(orders.providerSessionId, sessionId)))[0]!;

  beforeAll(async () => {
    database = await freshDatabase();
    await seedCatalogue(database.db);
  });
  afterAll(async () => {
    await database.cleanup();
  });

  it("charges exactly quoteApp's amount for each of the 4 tabs, as a pending local order", async () => {
    const buyer = await newUser();
    const app = (await getApp(database.db, APP_ID))!;
    for (const tab of APP_PRICING_TABS) {
      const result = await createCheckout(database.db, buyer, { kind: "app", appId: APP_ID, tab });
      expect(result.url).toBe(`/checkout/local/${result.sessionId}`);
      expect(result.sessionId).toMatch(/^cs_local_[A-Za-z0-9_-]{32}$/);
      const quote = quoteApp(app, tab);
      expect(await orderBySession(result.sessionId)).toMatchObject({
        id: result.orderId,
        userId: buyer.id,
        kind: "app",
        itemId: String(APP_ID),
        itemName: app.name,
        pricingTab: tab,
        amount: quote.amount,
        currency: "usd",
        isSubscription: tab === "monthly",
        trialDays: 3,
        status: "pending",
        provider: "local",
        paidAt: null,
      });
    }
  });

  it("one free trial per subscription item and account: a second monthly checkout of the same app is charged at once", async () => {
    const buyer = await newUser();
    // An abandoned checkout started no trial.
    const abandoned = await createCheckout(database.db, buyer, { kind: "app", appId: APP_ID, tab: "monthly" });
    expect((await orderBySession(abandoned.sessionId)).trialDays).toBe(3);
    const first = await createCheckout(database.db, buyer, { kind: "app", appId: APP_ID, tab: "monthly" });
    expect((await orderBySession(first.sessionId)).trialDays).toBe(3);
    await fulfilOrder(database.db, first.sessionId);
    // Cancelled during the trial, bought again: no second trial.
    await database.db.update(orders).set({ status: "canceled" }).where(eq(orders.id, first.orderId));
    const again = await createCheckout(database.db, buyer, { kind: "app", appId: APP_ID, tab: "monthly" });
    expect((await orderBySession(again.sessionId)).trialDays).toBe(0);
    // Another app still starts with its trial, and so does another account.
    const other = await createCheckout(database.db, buyer, { kind: "app", appId: 1, tab: "monthly" });
    expect((await orderBySession(other.sessionId)).trialDays).toBe(3);
    const someoneElse = await createCheckout(database.db, await newUser(), { kind: "app", appId: APP_ID, tab: "monthly" });
    expect((await orderBySession(someoneElse.sessionId)).trialDays).toBe(3);
  });

  it("two checkouts opened before the first trial was paid: the second paid is recorded without its trial", async () => {
    const buyer = await newUser();
    const app = (await getApp(database.db, APP_ID))!;
    const monthly = { kind: "app", appId: APP_ID, tab: "monthly" } as const;
    // Two tabs, both opened while the account had no trial yet, plus another app and another account.
    const first = await createCheckout(database.db, buyer, monthly);
    const second = await createCheckout(database.db, buyer, monthly);
    const otherApp = await createCheckout(database.db, buyer, { kind: "app", appId: 1, tab: "monthly" });
    const someoneElse = await createCheckout(database.db, await newUser(), monthly);
    for (const c of [first, second, otherApp, someoneElse]) expect((await orderBySession(c.sessionId)).trialDays).toBe(3);

    // Before any is paid, each checkout page shows its trial.
    expect(await asItWouldBePaid(database.db, await orderBySession(second.sessionId))).toMatchObject({ trialDays: 3 });
    expect(await fulfilOrder(database.db, first.sessionId)).toMatchObject({ status: "paid", trialDays: 3 });
    // Cancelled during its trial, the first still counts.
    await database.db.update(orders).set({ status: "canceled" }).where(eq(orders.id, first.orderId));
    // The second tab's checkout page now shows the month due today, as paying it will record.
    const shown = await asItWouldBePaid(database.db, await orderBySession(second.sessionId));
    expect(shown.trialDays).toBe(0);
    expect(dueToday(shown)).toBe(quoteApp(app, "monthly").amount);
    expect(await asItWouldBePaid(database.db, await orderBySession(otherApp.sessionId))).toMatchObject({ trialDays: 3 });
    expect(await fulfilOrder(database.db, second.sessionId)).toMatchObject({ status: "paid", trialDays: 0 });
    expect((await orderBySession(second.sessionId)).trialDays).toBe(0);
    expect((await orderBySession(first.sessionId)).trialDays).toBe(3);
    // Without the trial the month is due today, and that is the payment recorded.
    expect(await database.db.select().from(paymentEvents).where(eq(paymentEvents.orderId, second.orderId))).toMatchObject([
      { kind: "payment", amount: quoteApp(app, "monthly").amount },
    ]);
    expect(await database.db.select().from(paymentEvents).where(eq(paymentEvents.orderId, first.orderId))).toEqual([]);

    expect(await fulfilOrder(database.db, otherApp.sessionId)).toMatchObject({ trialDays: 3 });
    expect(await fulfilOrder(database.db, someoneElse.sessionId)).toMatchObject({ trialDays: 3 });
  });

  it("two trial checkouts of one item fulfilled at the same time: exactly one keeps the trial", async () => {
    const buyer = await newUser();
    const pkg = { kind: "package", planId: "starter", mode: "monthly", rush: false } as const;
    const a = await createCheckout(database.db, buyer, pkg);
    const b = await createCheckout(database.db, buyer, pkg);
    const paid = await Promise.all([fulfilOrder(database.db, a.sessionId), fulfilOrder(database.db, b.sessionId)]);
    expect(paid.map((o) => o?.trialDays).sort()).toEqual([0, 3]);
  });

  it("session ids are distinct and unguessable", async () => {
    const buyer = await newUser();
    const ids = new Set<string>();
    for (let i = 0; i < 5; i++)
      ids.add((await createCheckout(database.db, buyer, { kind: "app", appId: 1, tab: "base" })).sessionId);
    expect(ids.size).toBe(5);
  });

  it("refuses an unknown or inactive app with 'Invalid app data' and inserts nothing", async () => {
    const buyer = await newUser();
    await expect(createCheckout(database.db, buyer, { kind: "app", appId: 999_999, tab: "base" })).rejects.toThrow(CheckoutError);
    await expect(createCheckout(database.db, buyer, { kind: "app", appId: 999_999, tab: "base" })).rejects.toThrow(
      "Invalid app data",
    );
    await database.db.update(apps).set({ isActive: false }).where(eq(apps.id, 2));
    await expect(createCheckout(database.db, buyer, { kind: "app", appId: 2, tab: "express" })).rejects.toThrow(
      "Invalid app data",
    );
    await database.db.update(apps).set({ isActive: true }).where(eq(apps.id, 2));
    expect(await database.db.select().from(orders).where(eq(orders.userId, buyer.id))).toEqual([]);
  });

  it("fulfilling twice marks the order paid once; paid_at does not change", async () => {
    const buyer = await newUser();
    const { sessionId } = await createCheckout(database.db, buyer, { kind: "app", appId: APP_ID, tab: "express" });
    const first = await fulfilOrder(database.db, sessionId);
    expect(first).toMatchObject({ status: "paid" });
    expect(first?.paidAt).toBeInstanceOf(Date);
    await new Promise((r) => setTimeout(r, 20));
    expect(await fulfilOrder(database.db, sessionId)).toBeNull();
    const row = await orderBySession(sessionId);
    expect(row.status).toBe("paid");
    expect(row.paidAt?.toISOString()).toBe(first?.paidAt?.toISOString());
    // A decline after payment changes nothing either.
    expect(await declineOrder(database.db, buyer.id, sessionId)).toBeNull();
    expect((await orderBySession(sessionId)).status).toBe("paid");
  });

  it("concurrent fulfilment changes exactly one row", async () => {
    const buyer = await newUser();
    const { sessionId } = await createCheckout(database.db, buyer, { kind: "app", appId: APP_ID, tab: "standard" });
    const results = await Promise.all(Array.from({ length: 5 }, () => fulfilOrder(database.db, sessionId)));
    expect(results.filter((r) => r !== null)).toHaveLength(1);
    expect((await orderBySession(sessionId)).status).toBe("paid");
  });

  it("decline: the owner's pending order becomes declined, can then be paid; others cannot decline it", async () => {
    const buyer = await newUser();
    const stranger = await newUser();
    const { sessionId } = await createCheckout(database.db, buyer, { kind: "app", appId: APP_ID, tab: "base" });
    expect(await declineOrder(database.db, stranger.id, sessionId)).toBeNull();
    expect((await orderBySession(sessionId)).status).toBe("pending");
    expect(await declineOrder(database.db, buyer.id, sessionId)).toMatchObject({ status: "declined", paidAt: null });
    expect(await listPurchasedAutomations(database.db, buyer.id)).toEqual([]);
    // Another card on the same session succeeds.
    expect(await fulfilOrder(database.db, sessionId)).toMatchObject({ status: "paid" });
  });

  it("the owner-checked lookup hides another user's session; the paid list is per user", async () => {
    const owner = await newUser();
    const other = await newUser();
    const { sessionId } = await createCheckout(database.db, owner, { kind: "app", appId: APP_ID, tab: "monthly" });
    expect(await getOrderForUser(database.db, owner.id, sessionId)).toMatchObject({ providerSessionId: sessionId });
    expect(await getOrderForUser(database.db, other.id, sessionId)).toBeUndefined();
    expect(await getOrderForUser(database.db, owner.id, "not a session id")).toBeUndefined();
    await fulfilOrder(database.db, sessionId);
    const app = (await getApp(database.db, APP_ID))!;
    expect(await listPurchasedAutomations(database.db, owner.id)).toEqual([
      expect.objectContaining({ kind: "app", name: app.name, optionLabel: "Monthly", amount: quoteApp(app, "monthly").amount }),
    ]);
    expect(await listPurchasedAutomations(database.db, other.id)).toEqual([]);
    // A paid package is listed too (the automation page promises apps and packages), newest first.
    const pkg = await createCheckout(database.db, owner, { kind: "package", planId: "starter", mode: "one-time", rush: true });
    await fulfilOrder(database.db, pkg.sessionId);
    const listed = await listPurchasedAutomations(database.db, owner.id);
    expect(listed.map((a) => [a.kind, a.optionLabel])).toEqual([
      ["package", "Package, rush delivery (24-48 hours)"],
      ["app", "Monthly"],
    ]);
    // Other kinds (plans, add-ons, tiers) are not automations.
    const plan = await createCheckout(database.db, owner, { kind: "plan", planType: "basic" });
    await fulfilOrder(database.db, plan.sessionId);
    expect(await listPurchasedAutomations(database.db, owner.id)).toHaveLength(2);
  });
});
