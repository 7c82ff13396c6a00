import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loader as layoutLoader } from "~/routes/_dashboard/layout";
import { loader as overviewLoader } from "~/routes/_dashboard/overview";
import { action as supportAction } from "~/routes/_dashboard/support";
import { action as webhookAction } from "~/routes/api/webhooks.stripe";
import { SCALING_TIERS } from "~/catalogue/plans";
import { scalingTierName } from "~/catalogue/pricing";
import { initAuth, resetAuth, type Auth } from "~/server/auth/auth.server";
import { createCheckout } from "~/server/billing/create-checkout.server";
import { getEntitlements, getEntitlementsOf } from "~/server/billing/entitlements.server";
import { fulfilOrder } from "~/server/billing/fulfil-order.server";
import { listPurchasedAutomations } from "~/server/billing/list-orders.server";
import { localProvider, setCheckoutProvider } from "~/server/billing/provider.server";
import { seedCatalogue } from "~/server/catalogue/seed.server";
import { setDatabase } from "~/server/db/client.server";
import { supportTickets, trialAccess } from "~/server/db/schema";
import { getTrialStatus, serviceAccessRefusal, startTrial, TRIAL_ENDED_MESSAGE } from "~/server/trial/trial.server";
import { engine, freshDatabase, insertTestAddons, orderById, signedInCustomerMaker } from "./support/db";
import { signedEvent, startFakeStripeForApp, webhookRequest, type FakeStripe } from "../support/fake-stripe";
import { consoleRows } from "./support/console";
import { routeAnswer, routeArgs } from "./support/route";

process.env.LOG_LEVEL ??= "error";

const SITE = "http://localhost:3000";
const SECRET = "whsec_trial_renewal_secret";
const DAY = 24 * 60 * 60 * 1000;
const TICKET = { intent: "create-ticket", subject: "Help", category: "Technical", message: "Please help." };

const get = (path: string, cookie: string) => new Request(`${SITE}${path}`, { headers: { cookie } });
const post = (path: string, cookie: string, form: Record<string, string>) =>
  new Request(`${SITE}${path}`, {
    method: "POST",
    headers: { cookie, origin: SITE, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(form),
  });

const overlay = async (cookie: string) =>
  (await routeAnswer<{ overlay: string }>(layoutLoader(routeArgs(get("/dashboard", cookie))))).body?.overlay;
const ticket = (cookie: string) => routeAnswer(supportAction(routeArgs(post("/dashboard/support", cookie, TICKET))));

/**
 * The one 7-day dashboard trial per account cannot be renewed by free item trials: after it ends,
 * a $0 3-day monthly app or package trial grants that app or package, never the dashboard (trial
 * gate, overlay, support tickets); only something paid for reopens it. Both providers.
 */
describe(`entitlements: the trial-renewal hole and the overview (${engine})`, () => {
  let database: Awaited<ReturnType<typeof freshDatabase>>;
  let auth: Auth;
  let stripe: FakeStripe;
  const customer = signedInCustomerMaker(
    () => auth,
    () => database.db,
    "renewal",
  );

  const tickets = async (userId: string) => database.db.select().from(supportTickets).where(eq(supportTickets.userId, userId));

  /** A customer whose dashboard trial started 8 days ago and has ended. */
  const trialEnded = async () => {
    const buyer = await customer();
    expect((await startTrial(database.db, buyer.id, "starter", new Date(Date.now() - 8 * DAY))).ok).toBe(true);
    expect(await overlay(buyer.cookie)).toBe("expired");
    return buyer;
  };

  const payLocally = async (buyer: { id: string; email: string }, req: Parameters<typeof createCheckout>[2]) => {
    setCheckoutProvider(localProvider);
    try {
      const { sessionId } = await createCheckout(database.db, buyer, req);
      expect(await fulfilOrder(database.db, sessionId)).toMatchObject({ status: "paid" });
    } finally {
      setCheckoutProvider(undefined);
    }
  };
  const payWithStripe = async (buyer: { id: string; email: string }, req: Parameters<typeof createCheckout>[2]) => {
    const { sessionId, orderId } = await createCheckout(database.db, buyer, req);
    expect(sessionId).toMatch(/^cs_/);
    const session = stripe.pay(sessionId);
    const event = signedEvent(SECRET, { type: "checkout.session.completed", object: session });
    await webhookAction({ request: webhookRequest(event.body, event.signature) } as never);
    expect(await orderById(database.db, orderId)).toMatchObject({ status: "paid", provider: "stripe" });
  };

  beforeAll(async () => {
    stripe = await startFakeStripeForApp(SECRET);
    database = await freshDatabase();
    await seedCatalogue(database.db);
    setDatabase(database);
    auth = await initAuth(database.db);
  });
  afterAll(async () => {
    resetAuth();
    setDatabase(undefined);
    await database?.cleanup();
    await stripe?.close();
  });

  for (const [provider, pay] of [
    ["local", payLocally],
    ["stripe", payWithStripe],
  ] as const) {
    it(`${provider}: monthly app and package trials, one after another, never reopen an ended dashboard trial`, async () => {
      const buyer = await trialEnded();
      for (const appId of [7, 8, 9]) await pay(buyer, { kind: "app", appId, tab: "monthly" });
      await pay(buyer, { kind: "package", planId: "starter", mode: "monthly", rush: false });

      // Each app and package is the customer's while its own trial runs...
      const entitlements = await getEntitlements(database.db, buyer.id);
      expect(entitlements.apps.map((a) => a.state)).toEqual(["trialing", "trialing", "trialing"]);
      expect(entitlements.packages.map((p) => p.state)).toEqual(["trialing"]);
      expect(await listPurchasedAutomations(database.db, buyer.id)).toHaveLength(4);
      // ...but the dashboard stays closed: overlay, gate and services.
      expect(entitlements.dashboardAccess).toEqual({ granted: false, reason: "trial-ended" });
      expect(await overlay(buyer.cookie)).toBe("expired");
      expect(await getTrialStatus(database.db, buyer.id)).toMatchObject({ active: false, overlay: "expired" });
      const refused = await ticket(buyer.cookie);
      expect(refused).toMatchObject({ status: 403, body: { ok: false, errors: { form: TRIAL_ENDED_MESSAGE } } });
      expect(await tickets(buyer.id)).toHaveLength(0);
      expect(await consoleRows(database.db, "customers", { q: buyer.id })).toMatchObject([
        { access: "trial-ended", subscription: null },
      ]);
      // The trial record itself is untouched: no second dashboard trial.
      const [trial] = await database.db.select().from(trialAccess).where(eq(trialAccess.userId, buyer.id));
      expect(trial!.trialEndsAt!.getTime()).toBeLessThan(Date.now());

      // Once an app's trial is over and it is charged, the customer pays for something: access.
      const charged = new Date(Date.now() + 3 * DAY + 60_000);
      expect(await serviceAccessRefusal(database.db, buyer.id, charged)).toBeNull();
      expect((await getEntitlements(database.db, buyer.id, charged)).dashboardAccess).toEqual({
        granted: true,
        reason: "paid",
      });
    });

    it(`${provider}: a paid plan reopens the ended dashboard trial at once`, async () => {
      const buyer = await trialEnded();
      await pay(buyer, { kind: "plan", planType: "basic" });
      const e = await getEntitlements(database.db, buyer.id);
      expect(e.plan).toMatchObject({ name: "Basic", state: "active" });
      expect(e.dashboardAccess).toEqual({ granted: true, reason: "paid" });
      expect(await overlay(buyer.cookie)).toBe("none");
      expect(await ticket(buyer.cookie)).toMatchObject({ status: 200, body: { ok: true } });
      const overview = await routeAnswer<{ value: { planName: string; monthlyTotal: number } }>(
        overviewLoader(routeArgs(get("/dashboard", buyer.cookie))),
      );
      expect(overview.body?.value).toMatchObject({ planName: "Basic", monthlyTotal: e.plan!.price });
      expect(await consoleRows(database.db, "customers", { q: buyer.id })).toMatchObject([
        { access: "paid", subscription: { planName: "Basic", status: "active" }, monthlyTotal: e.plan!.price },
      ]);
    });
  }

  it("the overview shows the scaling tier, the add-ons and the monthly total the customer pays", async () => {
    const buyer = await customer();
    await insertTestAddons(database.db, [
      { id: "e-seo", name: "SEO Booster", category: "Marketing", monthlyPrice: 4900 },
      { id: "e-crm", name: "CRM Sync", category: "Sales", monthlyPrice: 7900 },
    ]);
    await payLocally(buyer, { kind: "scaling", tierIndex: 3 });
    await payLocally(buyer, { kind: "addons", addonIds: ["e-seo", "e-crm"] });
    const tier = SCALING_TIERS[3]!;
    const overview = await routeAnswer<{
      active: boolean;
      value: { planName: string; tierContacts: number | null; addons: string[]; monthlyTotal: number };
    }>(overviewLoader(routeArgs(get("/dashboard", buyer.cookie))));
    expect(overview.body).toMatchObject({
      active: true,
      value: {
        planName: scalingTierName(tier),
        tierContacts: tier.contacts,
        addons: ["CRM Sync", "SEO Booster"],
        monthlyTotal: tier.monthlyPrice + 4900 + 7900,
      },
    });
    const e = await getEntitlements(database.db, buyer.id);
    expect(e).toMatchObject({ plan: null, scalingTier: { name: scalingTierName(tier), state: "active" } });
    expect(e.addons.map((a) => a.addonId)).toEqual(["e-crm", "e-seo"]);
  });

  it("reads several accounts in one go, each its own rows, and a transaction reads what it wrote", async () => {
    const [planOwner, trialOwner, newcomer] = [await customer(), await customer(), await customer()];
    await payLocally(planOwner, { kind: "scaling", tierIndex: 1 });
    expect((await startTrial(database.db, trialOwner.id, "starter")).ok).toBe(true);
    const ids = [planOwner.id, trialOwner.id, newcomer.id, "no-such-account"];
    const many = await getEntitlementsOf(database.db, ids);
    expect([...many.keys()]).toEqual(ids);
    for (const id of ids.slice(0, 3)) {
      expect(many.get(id)).toEqual(await getEntitlements(database.db, id));
    }
    expect(many.get(planOwner.id)).toMatchObject({ scalingTier: { name: scalingTierName(SCALING_TIERS[1]!), state: "active" } });
    expect(many.get(trialOwner.id)?.scalingTier).toBeNull();
    expect(many.get("no-such-account")).toEqual(many.get(newcomer.id));

    // The pool and a transaction are two handles: the transaction's read runs on its own connection.
    let inTransaction: Awaited<ReturnType<typeof getEntitlements>> | undefined;
    const rolledBack = database.db.transaction(async (tx) => {
      await tx.insert(trialAccess).values({
        userId: newcomer.id,
        trialStarted: true,
        trialActivatedAt: new Date(),
        trialEndsAt: new Date(Date.now() + DAY),
        selectedPlan: "starter",
      });
      inTransaction = await getEntitlements(tx, newcomer.id);
      throw new Error("roll back");
    });
    await expect(rolledBack).rejects.toThrow("roll back");
    expect(many.get(newcomer.id)!.dashboardAccess).toEqual({ granted: false, reason: "trial-not-started" });
    expect(inTransaction?.dashboardAccess).toEqual({ granted: true, reason: "trial" });
    expect(await getEntitlements(database.db, newcomer.id)).toEqual(many.get(newcomer.id));
  });
});
