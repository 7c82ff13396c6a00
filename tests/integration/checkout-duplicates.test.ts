import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCheckout } from "~/server/billing/create-checkout.server";
import { fulfilOrder } from "~/server/billing/fulfil-order.server";
import { seedCatalogue } from "~/server/catalogue/seed.server";
import { orders, paymentEvents, userAddons } from "~/server/db/schema";
import { engine, freshDatabase, insertTestAddons, orderById, userMaker } from "./support/db";

/**
 * The same add-on bundle, plan, tier or distributor membership is bought once (docs/decisions/0009):
 * a second click or tab answers the open checkout, and a payment for add-ons already owned through
 * another order is refused before anything is charged (local provider).
 */
const TEST_ADDONS = [
  { id: "d-seo", name: "SEO Booster", category: "Marketing", monthlyPrice: 4900 },
  { id: "d-crm", name: "CRM Sync", category: "Sales", monthlyPrice: 7900 },
];

describe(`duplicate purchases, local provider (${engine})`, () => {
  let database: Awaited<ReturnType<typeof freshDatabase>>;
  const newUser = userMaker(() => database.db, "dup");
  const ordersOf = (userId: string) => database.db.select().from(orders).where(eq(orders.userId, userId));

  beforeAll(async () => {
    database = await freshDatabase();
    await seedCatalogue(database.db);
    await insertTestAddons(database.db, TEST_ADDONS);
  });
  afterAll(async () => {
    await database.cleanup();
  });

  it("a second click or tab on the same add-ons, plan, tier or distributor answers the open checkout", async () => {
    const buyer = await newUser();
    const first = await createCheckout(database.db, buyer, { kind: "addons", addonIds: ["d-seo", "d-crm"] });
    // The same set in another order, a second tab, and two concurrent clicks: one order.
    const again = await createCheckout(database.db, buyer, { kind: "addons", addonIds: ["d-crm", "d-seo"] });
    expect(again).toEqual(first);
    expect(first.url).toBe(`/checkout/local/${first.sessionId}`);
    const plan = { kind: "plan", planType: "pro" } as const;
    const clicks = await Promise.all([1, 2, 3].map(() => createCheckout(database.db, buyer, plan)));
    expect(new Set(clicks.map((c) => c.orderId)).size).toBe(1);
    expect(new Set(clicks.map((c) => c.url)).size).toBe(1);
    expect((await orderById(database.db, clicks[0]!.orderId)).providerSessionId).toBe(clicks[0]!.sessionId);
    const tier = await createCheckout(database.db, buyer, { kind: "scaling", tierIndex: 2 });
    expect(await createCheckout(database.db, buyer, { kind: "scaling", tierIndex: 2 })).toEqual(tier);
    const distributor = { kind: "distributor", email: buyer.email, fullName: "Ann Buyer", businessName: "Ann Co" } as const;
    const membership = await createCheckout(database.db, buyer, distributor);
    expect(await createCheckout(database.db, buyer, distributor)).toEqual(membership);
    // A declined order is still payable on its page: answered again too.
    await database.db.update(orders).set({ status: "declined" }).where(eq(orders.id, first.orderId));
    expect(await createCheckout(database.db, buyer, { kind: "addons", addonIds: ["d-seo", "d-crm"] })).toEqual(first);
    expect(await ordersOf(buyer.id)).toHaveLength(4);

    // Other purchases are other orders: another set, another plan, another account.
    const one = await createCheckout(database.db, buyer, { kind: "addons", addonIds: ["d-seo"] });
    expect(one.orderId).not.toBe(first.orderId);
    expect((await createCheckout(database.db, buyer, { kind: "plan", planType: "basic" })).orderId).not.toBe(clicks[0]!.orderId);
    const someoneElse = await createCheckout(database.db, await newUser(), { kind: "addons", addonIds: ["d-seo", "d-crm"] });
    expect(someoneElse.orderId).not.toBe(first.orderId);
    // Once paid, the order is not reused (and owned add-ons are refused at checkout).
    await fulfilOrder(database.db, clicks[0]!.sessionId);
    expect((await createCheckout(database.db, buyer, plan)).orderId).not.toBe(clicks[0]!.orderId);
  });

  it("paying add-ons already owned through another order is refused: no payment, no second entitlement", async () => {
    const buyer = await newUser();
    // Checkouts that overlap (both contain d-seo), both opened before either was paid.
    const bundle = await createCheckout(database.db, buyer, { kind: "addons", addonIds: ["d-seo", "d-crm"] });
    const single = await createCheckout(database.db, buyer, { kind: "addons", addonIds: ["d-seo"] });
    expect(await fulfilOrder(database.db, bundle.sessionId)).toMatchObject({ status: "paid" });
    expect(await fulfilOrder(database.db, single.sessionId)).toBeNull();
    expect(await orderById(database.db, single.orderId)).toMatchObject({ status: "canceled", paidAt: null });
    expect(await database.db.select().from(paymentEvents).where(eq(paymentEvents.userId, buyer.id))).toMatchObject([
      { orderId: bundle.orderId, amount: 4900 + 7900 },
    ]);
    const owned = await database.db.select().from(userAddons).where(eq(userAddons.userId, buyer.id));
    expect(owned.map((o) => [o.addonId, o.orderId]).sort()).toEqual([
      ["d-crm", bundle.orderId],
      ["d-seo", bundle.orderId],
    ]);
  });

  it("two overlapping add-on orders paid at the same time: exactly one is paid", async () => {
    const buyer = await newUser();
    const a = await createCheckout(database.db, buyer, { kind: "addons", addonIds: ["d-seo", "d-crm"] });
    const b = await createCheckout(database.db, buyer, { kind: "addons", addonIds: ["d-crm"] });
    const paid = await Promise.all([fulfilOrder(database.db, a.sessionId), fulfilOrder(database.db, b.sessionId)]);
    expect(paid.filter((o) => o !== null)).toHaveLength(1);
    expect(await database.db.select().from(paymentEvents).where(eq(paymentEvents.userId, buyer.id))).toHaveLength(1);
  });
});
