import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contactsAlreadyIncludedMessage, SCALING_TIERS } from "~/catalogue/plans";
import { CheckoutError } from "~/server/billing/checkout-error.server";
import { createCheckout } from "~/server/billing/create-checkout.server";
import { fulfilOrder } from "~/server/billing/fulfil-order.server";
import { seedCatalogue } from "~/server/catalogue/seed.server";
import { orders, userSubscriptions } from "~/server/db/schema";
import { engine, freshDatabase, userMaker } from "./support/db";

const tierIndex = (contacts: number) => SCALING_TIERS.findIndex((t) => t.contacts === contacts);

/**
 * A scaling tier with the contacts the account's plan has today is neither an upgrade nor a
 * downgrade: the scaling page shows it as included (tierRelation), and the checkout refuses it with
 * a 409 that says why, before any order is written. More or fewer contacts stay buyable.
 */
describe(`scaling tier the plan already includes (${engine})`, () => {
  let database: Awaited<ReturnType<typeof freshDatabase>>;
  const newUser = userMaker(() => database.db, "included");

  beforeAll(async () => {
    database = await freshDatabase();
    await seedCatalogue(database.db);
  });
  afterAll(async () => {
    await database.cleanup();
  });

  /** A buyer whose plan (a billing plan or a tier) has been paid through the local checkout. */
  async function subscribed(
    req: { kind: "plan"; planType: "basic" | "pro" | "enterprise" } | { kind: "scaling"; tierIndex: number },
  ) {
    const buyer = await newUser();
    const { sessionId } = await createCheckout(database.db, buyer, req);
    expect(await fulfilOrder(database.db, sessionId)).not.toBeNull();
    return buyer;
  }

  async function refusal(buyer: { id: string; email: string }, index: number) {
    const before = await database.db.select().from(orders).where(eq(orders.userId, buyer.id));
    const error = await createCheckout(database.db, buyer, { kind: "scaling", tierIndex: index }).then(
      () => null,
      (e: unknown) => e,
    );
    // Nothing was written for the refused tier.
    expect(await database.db.select().from(orders).where(eq(orders.userId, buyer.id))).toHaveLength(before.length);
    return error instanceof CheckoutError ? { code: error.code, status: error.status, message: error.message } : error;
  }

  it("Pro (100,000 contacts): the 100K tier is refused with a clear 409; 50K and 500K can be bought", async () => {
    const buyer = await subscribed({ kind: "plan", planType: "pro" });
    expect(await refusal(buyer, tierIndex(100_000))).toEqual({
      code: "included_in_plan",
      status: 409,
      message: "Your current plan already includes 100,000 contacts per month. Choose a tier with more or fewer contacts.",
    });
    await expect(createCheckout(database.db, buyer, { kind: "scaling", tierIndex: tierIndex(500_000) })).resolves.toMatchObject({
      url: expect.any(String),
    });
    await expect(createCheckout(database.db, buyer, { kind: "scaling", tierIndex: tierIndex(50_000) })).resolves.toMatchObject({
      url: expect.any(String),
    });
  });

  it("Basic (10,000 contacts): the 10K tier is refused", async () => {
    const buyer = await subscribed({ kind: "plan", planType: "basic" });
    expect(await refusal(buyer, tierIndex(10_000))).toMatchObject({
      status: 409,
      message: contactsAlreadyIncludedMessage(10_000),
    });
  });

  it("a tier bought on the scaling page cannot be bought again while it is active", async () => {
    const buyer = await subscribed({ kind: "scaling", tierIndex: tierIndex(500_000) });
    expect(await refusal(buyer, tierIndex(500_000))).toMatchObject({
      status: 409,
      message: contactsAlreadyIncludedMessage(500_000),
    });
    await expect(createCheckout(database.db, buyer, { kind: "scaling", tierIndex: tierIndex(100_000) })).resolves.toMatchObject({
      url: expect.any(String),
    });
  });

  it("Enterprise (unlimited) can buy any tier; so can an account whose plan has ended or who has none", async () => {
    const enterprise = await subscribed({ kind: "plan", planType: "enterprise" });
    for (const t of SCALING_TIERS.keys())
      await expect(createCheckout(database.db, enterprise, { kind: "scaling", tierIndex: t })).resolves.toBeTruthy();

    const lapsed = await subscribed({ kind: "plan", planType: "pro" });
    await database.db
      .update(userSubscriptions)
      .set({ cancelAtPeriodEnd: true, currentPeriodEnd: new Date(Date.now() - 1000) })
      .where(eq(userSubscriptions.userId, lapsed.id));
    await expect(createCheckout(database.db, lapsed, { kind: "scaling", tierIndex: tierIndex(100_000) })).resolves.toBeTruthy();

    const none = await newUser();
    await expect(createCheckout(database.db, none, { kind: "scaling", tierIndex: tierIndex(100_000) })).resolves.toBeTruthy();
  });
});
