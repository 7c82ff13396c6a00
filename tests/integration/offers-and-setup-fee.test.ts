import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { checkoutRequestSchema } from "~/lib/checkout-request";
import { loader as billingLoader } from "~/routes/_dashboard/billing";
import { action as packagesAction, loader as packagesLoader } from "~/routes/_marketing/packages";
import { initAuth, resetAuth, type Auth } from "~/server/auth/auth.server";
import { CheckoutError } from "~/server/billing/checkout-error.server";
import { createCheckout } from "~/server/billing/create-checkout.server";
import { fulfilOrder } from "~/server/billing/fulfil-order.server";
import { localProvider, setCheckoutProvider } from "~/server/billing/provider.server";
import { seedCatalogue } from "~/server/catalogue/seed.server";
import { setDatabase } from "~/server/db/client.server";
import {
  affiliates,
  commissionLedger,
  limitCounters,
  orders,
  paymentEvents,
  referrals,
  userSubscriptions,
} from "~/server/db/schema";
import { CLIENT_IP_HEADER } from "~/server/http/client-ip.server";
import { getSubscriptionSummary } from "~/server/billing/subscription-summary.server";
import { hasActiveSubscription } from "~/server/trial/trial.server";
import { engine, freshDatabase, orderById, signedInCustomerMaker } from "./support/db";
import { consoleRows } from "./support/console";
import { routeAnswer, routeArgs } from "./support/route";

process.env.LOG_LEVEL ??= "error";

const SITE = "http://localhost:3000";

const get = (path: string, cookie: string) => new Request(`${SITE}${path}`, { headers: { cookie } });
const post = (path: string, cookie: string, form: Record<string, string>) =>
  new Request(`${SITE}${path}`, {
    method: "POST",
    headers: {
      cookie,
      origin: SITE,
      [CLIENT_IP_HEADER]: "192.0.2.91",
      "content-type": "application/x-www-form-urlencoded",
    },
    body: new URLSearchParams(form),
  });

/** The local checkout's session id in the hosted page address a checkout redirects to. */
const sessionOf = (location: string | null) => /\/checkout\/local\/([A-Za-z0-9_-]+)/.exec(location ?? "")?.[1] ?? "";

/**
 * What the trial chooser offers is bought where it sends the customer (/packages?tier=growth|pro,
 * docs/decisions/0044-member-plans-rush-and-setup-lines.md), and the distributor's order carries both its
 * lines ($997 setup, $199/month after the trial) wherever it is shown or summed.
 */
describe(`member plans and the distributor's two lines (${engine})`, () => {
  let database: Awaited<ReturnType<typeof freshDatabase>>;
  let auth: Auth;
  const customer = signedInCustomerMaker(
    () => auth,
    () => database.db,
    "offers",
  );

  beforeAll(async () => {
    database = await freshDatabase();
    await seedCatalogue(database.db);
    setDatabase(database);
    auth = await initAuth(database.db);
    setCheckoutProvider(localProvider);
  });
  afterAll(async () => {
    setCheckoutProvider(undefined);
    resetAuth();
    setDatabase(undefined);
    await database?.cleanup();
  });
  beforeEach(async () => {
    await database.db.delete(limitCounters);
  });

  it("/packages?tier=growth sells Growth at $3,500/month, and buying it makes it the account's plan", async () => {
    const buyer = await customer();
    const page = await routeAnswer<{ quickPick: { tier: { id: string; price: number; originalPrice: number } } }>(
      packagesLoader(routeArgs(get("/packages?tier=growth", buyer.cookie))),
    );
    expect(page.body?.quickPick.tier).toMatchObject({ id: "growth", price: 350000, originalPrice: 500000 });

    // The offer's button (the no-JavaScript form) posts the tier alone; the server prices it.
    const bought = await routeAnswer(packagesAction(routeArgs(post("/packages?tier=growth", buyer.cookie, { tier: "growth" }))));
    expect(bought.status).toBe(302);
    const sessionId = sessionOf(bought.location);
    const [order] = await database.db.select().from(orders).where(eq(orders.providerSessionId, sessionId));
    expect(order).toMatchObject({
      kind: "member",
      itemId: "growth",
      itemName: "Growth Member Plan",
      amount: 350000,
      setupFee: 0,
      isSubscription: true,
      trialDays: 0,
      status: "pending",
    });
    expect(await hasActiveSubscription(database.db, buyer.id)).toBe(false);

    await fulfilOrder(database.db, sessionId);
    expect(await hasActiveSubscription(database.db, buyer.id)).toBe(true);
    const summary = await getSubscriptionSummary(database.db, buyer.id);
    expect(summary).toMatchObject({ active: true, planName: "Growth Member Plan", planType: "member", monthlyPrice: 350000 });
    // The plan is its subscription row, not a second 'other subscription'.
    expect(summary.otherSubscriptions).toEqual([]);
    expect(await database.db.select().from(paymentEvents).where(eq(paymentEvents.orderId, order!.id))).toMatchObject([
      { kind: "payment", amount: 350000 },
    ]);

    // Held once: the page says so and a second checkout is refused.
    const again = await routeAnswer<{ memberOwned: boolean }>(
      packagesLoader(routeArgs(get("/packages?tier=growth", buyer.cookie))),
    );
    expect(again.body?.memberOwned).toBe(true);
    const refused = await routeAnswer<{ code: string }>(
      packagesAction(routeArgs(post("/packages?tier=growth", buyer.cookie, { tier: "growth" }))),
    );
    expect({ status: refused.status, code: refused.body?.code }).toEqual({ status: 409, code: "already_owned" });
  });

  it("Pro is the chooser's $7,000/month plan, not the billing page's $499 one, and replaces Growth", async () => {
    const buyer = await customer();
    const growth = await createCheckout(database.db, buyer, { kind: "member", tier: "growth" });
    await fulfilOrder(database.db, growth.sessionId);
    const pro = await createCheckout(database.db, buyer, { kind: "member", tier: "pro" });
    expect(await orderById(database.db, pro.orderId)).toMatchObject({ itemName: "Pro Member Plan", amount: 700000 });
    await fulfilOrder(database.db, pro.sessionId);
    const rows = await database.db.select().from(userSubscriptions).where(eq(userSubscriptions.userId, buyer.id));
    expect(rows.map((r) => [r.planName, r.status, r.monthlyPrice]).sort()).toEqual([
      ["Growth Member Plan", "replaced", 350000],
      ["Pro Member Plan", "active", 700000],
    ]);
    // The billing page's Pro is another plan: buying it is still possible and priced at $499.
    const billingPro = await createCheckout(database.db, buyer, { kind: "plan", planType: "pro" });
    expect(await orderById(database.db, billingPro.orderId)).toMatchObject({ itemName: "Pro Plan", amount: 49900 });
  });

  it("the free Starter is a trial, not a checkout; no amount is taken from the request", async () => {
    expect(checkoutRequestSchema.safeParse({ kind: "member", tier: "starter" }).success).toBe(false);
    expect(checkoutRequestSchema.safeParse({ kind: "member", tier: "pro", amount: 1 }).success).toBe(false);
    const buyer = await customer();
    await expect(createCheckout(database.db, buyer, { kind: "member", tier: "enterprise" })).rejects.toBeInstanceOf(
      CheckoutError,
    );
  });

  it("the distributor's order shows and sums both lines: billing history, /admin, the payment and its commission", async () => {
    const affiliate = await customer();
    const buyer = await customer();
    await database.db.insert(affiliates).values({ userId: affiliate.id, username: `aff-${affiliate.id.slice(0, 12)}` });
    await database.db.insert(referrals).values({ referredUserId: buyer.id, affiliateUserId: affiliate.id });
    const joined = await createCheckout(database.db, buyer, {
      kind: "distributor",
      email: buyer.email,
      fullName: "Dee Stributor",
      businessName: "Dee Ltd",
    });
    await fulfilOrder(database.db, joined.sessionId);

    const billing = await routeAnswer<{ history: Record<string, unknown>[] }>(
      billingLoader(routeArgs(get("/dashboard/billing", buyer.cookie))),
    );
    expect(billing.body?.history).toEqual([
      expect.objectContaining({
        kind: "distributor",
        status: "paid",
        setupFee: 99700,
        amount: 19900,
        trialDays: 7,
        isSubscription: true,
      }),
    ]);
    expect(await consoleRows(database.db, "orders", { q: joined.orderId })).toMatchObject([
      { setupFee: 99700, amount: 19900, trialDays: 7, isSubscription: true },
    ]);

    // The money received today is the setup fee, and the affiliate's 30% is of it.
    const [payment] = await database.db.select().from(paymentEvents).where(eq(paymentEvents.orderId, joined.orderId));
    expect(payment).toMatchObject({ kind: "payment", amount: 99700 });
    const ledger = await database.db.select().from(commissionLedger).where(eq(commissionLedger.affiliateUserId, affiliate.id));
    expect(ledger.map((l) => [l.kind, l.amount])).toEqual([["commission", 29910]]);
  });
});
