import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Stripe } from "stripe";
import { action as webhookAction } from "~/routes/api/webhooks.stripe";
import { createCheckout } from "~/server/billing/create-checkout.server";
import { applyInvoicePaymentFailed } from "~/server/billing/stripe/invoice-events.server";
import { seedCatalogue } from "~/server/catalogue/seed.server";
import { type Db, setDatabase } from "~/server/db/client.server";
import { mailOutbox, userSettings } from "~/server/db/schema";
import { engine, freshDatabase, userMaker } from "./support/db";
import { signedEvent, startFakeStripeForApp, webhookRequest, type FakeStripe } from "../support/fake-stripe";

process.env.LOG_LEVEL ??= "error";

/**
 * invoice.payment_failed: a subscription's renewal the card refused emails the customer what to do
 * (update the card through Manage Billing on the billing page), once per event, whether Stripe
 * delivers the event again or the handler runs twice; a new failed attempt is a new email; the
 * first invoice, an invoice already paid and an unknown subscription send nothing.
 */
const SECRET = "whsec_payment_failed_secret";

const deliver = async (req: Request) => {
  const result = (await webhookAction({ request: req })) as { data: Record<string, unknown>; init?: { status?: number } | null };
  return { status: result.init?.status ?? 200, body: result.data };
};
const send = (type: string, object: unknown, opts: { id?: string } = {}) => {
  const event = signedEvent(SECRET, { type, object, ...opts });
  return deliver(webhookRequest(event.body, event.signature));
};

/** A Stripe invoice of a renewal as events carry it. */
const invoice = (id: string, subscriptionId: string, fields: Record<string, unknown> = {}) => ({
  id,
  object: "invoice",
  billing_reason: "subscription_cycle",
  status: "open",
  amount_due: 9900,
  amount_paid: 0,
  currency: "usd",
  attempt_count: 1,
  next_payment_attempt: Math.floor(Date.UTC(2026, 11, 3, 18, 30) / 1000),
  parent: { type: "subscription_details", subscription_details: { subscription: subscriptionId, metadata: {} } },
  ...fields,
});

describe(`stripe invoice.payment_failed (${engine})`, () => {
  let database: Awaited<ReturnType<typeof freshDatabase>>;
  let stripe: FakeStripe;
  const newUser = userMaker(() => database.db, "pf");

  const subscribedBuyer = async () => {
    const buyer = await newUser();
    const result = await createCheckout(database.db, buyer, { kind: "plan", planType: "basic" });
    const session = stripe.pay(result.sessionId);
    expect((await send("checkout.session.completed", session)).body.outcome).toBe("applied");
    return { buyer, session, subscriptionId: String(session.subscription) };
  };
  const failedMail = (to: string) =>
    database.db
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.to, to), eq(mailOutbox.kind, "paymentFailed")))
      .orderBy(mailOutbox.id);

  beforeAll(async () => {
    stripe = await startFakeStripeForApp(SECRET);
    database = await freshDatabase();
    await seedCatalogue(database.db);
    setDatabase(database);
  });
  afterAll(async () => {
    setDatabase(undefined);
    await database?.cleanup();
    await stripe?.close();
  });

  it("emails the customer once per event what to do, in their time zone, with the billing page's link", async () => {
    const { buyer, subscriptionId } = await subscribedBuyer();
    await database.db
      .insert(userSettings)
      .values({ userId: buyer.id, timeZone: "Asia/Tokyo" })
      .onConflictDoUpdate({
        target: userSettings.userId,
        set: { timeZone: "Asia/Tokyo" },
      });
    const first = invoice("in_pf_1", subscriptionId);
    expect(await send("invoice.payment_failed", first, { id: "evt_pf_1" })).toEqual({
      status: 200,
      body: { received: true, outcome: "applied" },
    });
    // Stripe delivers the same event again: acknowledged, nothing new.
    expect((await send("invoice.payment_failed", first, { id: "evt_pf_1" })).body.outcome).toBe("duplicate");
    // The handler itself run again for the same event (a retried transaction): the email's key holds.
    const again = await database.db.transaction((tx) =>
      applyInvoicePaymentFailed(tx as unknown as Db, first as unknown as Stripe.Invoice, "evt_pf_1"),
    );
    expect(again).toBe("ignored");

    const mails = await failedMail(buyer.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({
      subject: "Payment failed for Basic Plan",
      idempotencyKey: `paymentFailed:renewal:evt_pf_1:${buyer.email}`,
    });
    expect(mails[0]!.text).toContain("Update your card http://localhost:3000/dashboard/billing");
    expect(mails[0]!.text).toContain("Manage Billing");
    expect(mails[0]!.text).toContain("$99.00");
    // 18:30 UTC on Dec 3 is 3:30 AM on Dec 4 in Tokyo.
    expect(mails[0]!.text).toContain("Dec 4, 2026, 3:30 AM GMT+9");
    expect(mails[0]!.html).toContain("Your renewal payment did not go through");

    // Stripe's next failed attempt is a new event: a new email, which says it was the last one.
    const last = invoice("in_pf_1", subscriptionId, { attempt_count: 4, next_payment_attempt: null });
    expect((await send("invoice.payment_failed", last, { id: "evt_pf_2" })).body.outcome).toBe("applied");
    const both = await failedMail(buyer.email);
    expect(both).toHaveLength(2);
    expect(both[1]!.text).toContain("This was the last automatic attempt");
    expect(both[1]!.text).not.toContain("Next attempt");
  });

  it("sends nothing for the first invoice, an invoice already paid, or a subscription that is not ours", async () => {
    const { buyer, session, subscriptionId } = await subscribedBuyer();
    const create = invoice(String(session.invoice), subscriptionId, { billing_reason: "subscription_create" });
    expect((await send("invoice.payment_failed", create)).body.outcome).toBe("ignored");
    // The renewal was paid (its invoice.paid came first); a late failure event of it is stale.
    const renewal = invoice("in_pf_paid", subscriptionId);
    expect((await send("invoice.paid", { ...renewal, status: "paid", amount_paid: 9900 })).body.outcome).toBe("applied");
    expect((await send("invoice.payment_failed", renewal)).body.outcome).toBe("ignored");
    expect((await send("invoice.payment_failed", { ...renewal, id: "in_pf_paid_2", status: "paid" })).body.outcome).toBe(
      "ignored",
    );
    expect((await send("invoice.payment_failed", invoice("in_pf_other", "sub_not_ours"))).body.outcome).toBe("ignored");
    expect(await failedMail(buyer.email)).toEqual([]);
  });
});
