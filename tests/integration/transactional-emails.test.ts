import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BUDGETS, PREFERRED_TIMES, PROJECT_TYPES, TIMEFRAMES } from "~/catalogue/callback";
import { grantOperator } from "~/server/admin/operators.server";
import { authoriseTrial } from "~/server/billing/authorise-trial.server";
import { cancelSubscription } from "~/server/billing/cancel-subscription.server";
import { captureTrial } from "~/server/billing/capture-trial.server";
import { createCheckout } from "~/server/billing/create-checkout.server";
import { declineOrder } from "~/server/billing/decline-order.server";
import { fulfilOrder } from "~/server/billing/fulfil-order.server";
import { recordRefund } from "~/server/billing/record-payment.server";
import { seedCatalogue } from "~/server/catalogue/seed.server";
import { type Database, type Db, openDatabase, setDatabase } from "~/server/db/client.server";
import {
  affiliates,
  leads,
  mailOutbox,
  orders,
  referrals,
  trialAccess,
  user,
  userSettings,
  userSubscriptions,
} from "~/server/db/schema";
import { submitLead } from "~/server/leads/leads.server";
import { emailNewLead } from "~/server/mail/lead-emails.server";
import { sendDueReminders } from "~/server/mail/send-due-reminders.server";
import { sendPayoutSent } from "~/server/mail/send-payout-sent.server";
import { sendSupportAnswer } from "~/server/mail/send-support-answer.server";
import type { EmailKind } from "~/server/mail/templates";
import { type JobsOptions, MAIL_DELIVERY_QUEUE, startJobs, stopJobs } from "~/server/jobs/queue.server";
import { createSmtpTransport, setMailTransport } from "~/server/mail/delivery.server";
import { startTrial } from "~/server/trial/trial.server";
import { engine } from "./support/db";
import { FakeSmtp } from "./support/fake-smtp";
import { openJobCount } from "./support/jobs";
import { waitFor } from "./support/wait";

process.env.LOG_LEVEL ??= "error";

const HOUR = 3_600_000;

/**
 * Every transactional email is written once per event (docs/decisions/0072-transactional-emails.md):
 * each event below is processed twice, then the database is closed and opened again (a restart)
 * and each is processed a third time; every (recipient, kind) must have exactly one email.
 */
describe(`transactional emails, once per event (${engine})`, () => {
  const dir = engine === "pglite" ? mkdtempSync(path.join(tmpdir(), "it-emails-")) : "unused";
  let database: Database;
  const db = () => database.db;
  const open = async () => {
    database = await openDatabase({ databaseUrl: process.env.TEST_DATABASE_URL, dataDir: dir });
    setDatabase(database);
  };
  const restart = async () => {
    setDatabase(undefined);
    await database.close();
    await open();
  };

  let n = 0;
  const newUser = async (prefix: string) => {
    n += 1;
    const id = `${prefix}-${n}`;
    const email = `${prefix}-${n}@example.com`;
    await db()
      .insert(user)
      .values({ id, name: `User ${n}`, email, emailVerified: true });
    return { id, email };
  };
  const mailsTo = (to: string) => db().select().from(mailOutbox).where(eq(mailOutbox.to, to));
  const kindsOf = async (to: string) => (await mailsTo(to)).map((m) => m.kind as EmailKind).sort();
  const reminders = async (to: string) => (await mailsTo(to)).filter((m) => m.kind === "subscriptionTrialEnding");
  const inTx = <T>(work: (tx: Db) => Promise<T>) => db().transaction((tx) => work(tx as unknown as Db));

  beforeAll(async () => {
    if (engine === "postgres") {
      const pg = await import("pg");
      const admin = new pg.default.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await admin.connect();
      await admin.query(
        "drop schema if exists drizzle cascade; drop schema if exists pgboss cascade; drop schema if exists public cascade; create schema public;",
      );
      await admin.end();
    }
    await open();
    await seedCatalogue(db());
  });
  afterAll(async () => {
    setDatabase(undefined);
    await database?.close();
    if (engine === "pglite") rmSync(dir, { recursive: true, force: true });
  });

  it("each event writes its email once, processed twice and again after a restart", async () => {
    const affiliate = await newUser("affiliate");
    const buyer = await newUser("buyer");
    const trialist = await newUser("trialist");
    const operator = await newUser("operator");
    const asker = `lead-${Date.now()}@example.com`;
    await db().insert(affiliates).values({ userId: affiliate.id, username: affiliate.id });
    await db().insert(referrals).values({ referredUserId: buyer.id, affiliateUserId: affiliate.id });
    expect(await grantOperator(db(), operator.email)).toBe("granted");

    const plan = await createCheckout(db(), buyer, { kind: "plan", planType: "pro" });
    const distributor = await createCheckout(db(), buyer, {
      kind: "distributor",
      email: buyer.email,
      fullName: "Ada <b>Lovelace</b>",
      businessName: "Ada Ltd",
    });
    const declined = await createCheckout(db(), buyer, { kind: "scaling", tierIndex: 1 });
    const build = await createCheckout(db(), buyer, { kind: "app", appId: 7, tab: "standard" });
    const lead = await submitLead(
      db(),
      {
        firstName: "Ana",
        lastName: "Lima",
        email: asker,
        phone: "+1 555 0100",
        company: "Bright Smile Dental",
        projectType: PROJECT_TYPES[4],
        budget: BUDGETS[1],
        timeframe: TIMEFRAMES[2],
        message: "Book appointments from our website chat.",
        preferredTime: PREFERRED_TIMES[0],
      },
      { ip: "10.9.9.9", mailchimp: null },
    );
    expect(lead.status).toBe("accepted");
    const leadId = lead.status === "accepted" ? lead.leadId! : "";

    /** Every event once; the test runs it three times. */
    const processEvents = async () => {
      await startTrial(db(), trialist.id, "starter");
      await fulfilOrder(db(), plan.sessionId);
      await fulfilOrder(db(), distributor.sessionId);
      await declineOrder(db(), buyer.id, declined.sessionId);
      await authoriseTrial(db(), build.sessionId);
      await inTx((tx) =>
        recordRefund(tx, { userId: buyer.id, orderId: plan.orderId, amount: 1_000, provider: "local", providerRef: "refund-1" }),
      );
      const [row] = await db().select().from(userSubscriptions).where(eq(userSubscriptions.orderId, plan.orderId));
      await cancelSubscription(db(), buyer.id, `plan:${row!.id}`);
      const [stored] = await db().select().from(leads).where(eq(leads.id, leadId));
      await inTx((tx) => emailNewLead(tx, stored!));
      await inTx((tx) =>
        sendSupportAnswer(tx, { userId: buyer.id, ticketId: 5, answerId: 9, ticketSubject: "CRM sync", answer: "Reconnect it." }),
      );
      await inTx((tx) =>
        sendPayoutSent(tx, { affiliateUserId: affiliate.id, payoutId: "p1", amount: 14_970, sentAt: new Date() }),
      );
      await sendDueReminders(db());
      await captureTrial(db(), build.orderId);
    };

    // The trial and the held payment end within a day: their reminders are due.
    const dueSoon = async () => {
      await db()
        .update(trialAccess)
        .set({ trialEndsAt: new Date(Date.now() + 12 * HOUR) })
        .where(eq(trialAccess.userId, trialist.id));
      await db()
        .update(orders)
        .set({ captureAt: sql`now() + interval '12 hours'` })
        .where(eq(orders.id, build.orderId));
    };
    await startTrial(db(), trialist.id, "starter");
    await authoriseTrial(db(), build.sessionId);
    await dueSoon();
    await processEvents();
    await processEvents();
    await restart();
    // The capture falls due after the restart: charged once, whatever ran before.
    await db()
      .update(orders)
      .set({ captureAt: sql`now() - interval '1 minute'` })
      .where(eq(orders.id, build.orderId));
    await processEvents();
    await processEvents();

    expect(await kindsOf(buyer.email)).toEqual(
      [
        "buildCharged",
        "chargeComing",
        "distributorWelcome",
        "paymentFailed",
        // The plan's payment and the distributor program's setup fee: one receipt each.
        "paymentReceipt",
        "paymentReceipt",
        "refundIssued",
        "subscriptionCancelled",
        "supportAnswer",
        "trialStarted",
      ].sort(),
    );
    expect(await kindsOf(trialist.email)).toEqual(["trialEnding", "trialStarted"]);
    expect(await kindsOf(affiliate.email)).toEqual(["commissionEarned", "commissionEarned", "commissionEarned", "payoutSent"]);
    expect(await kindsOf(asker)).toEqual(["callbackAcknowledgement"]);
    expect(await kindsOf(operator.email)).toEqual(["newLeadAlert"]);
    // Payments of the referred buyer (the plan; the distributor fee): one commission email each.
    const keys = (await mailsTo(affiliate.email)).concat(await mailsTo(buyer.email)).map((m) => m.idempotencyKey);
    expect(new Set(keys).size).toBe(keys.length);

    // What the customer typed is text in the HTML part, never markup.
    const welcome = (await mailsTo(buyer.email)).find((m) => m.kind === "distributorWelcome")!;
    expect(welcome.html).toContain("Ada &lt;b&gt;Lovelace&lt;/b&gt;");
    const receipt = (await mailsTo(buyer.email)).find((m) => m.kind === "paymentReceipt")!;
    expect(receipt.text).toMatch(/\/dashboard\/billing\/receipts\/\d+/);
  });

  it("a subscription's free trial: one reminder with its monthly price a day before the first charge, none once cancelled", async () => {
    const subscriber = await newUser("sub-trial");
    const quitter = await newUser("sub-quitter");
    // Email updates off: the reminder is required, money is about to move.
    await db().insert(userSettings).values({ userId: subscriber.id, emailUpdates: false });
    const bought = [];
    for (const who of [subscriber, quitter]) {
      const checkout = await createCheckout(db(), who, { kind: "app", appId: 9, tab: "monthly" });
      await fulfilOrder(db(), checkout.sessionId);
      bought.push(checkout.orderId);
    }
    // Three days of trial left: not yet.
    await sendDueReminders(db());
    expect(await reminders(subscriber.email)).toEqual([]);
    // Both trials end in 20 hours; the quitter cancels first.
    await db()
      .update(orders)
      .set({ paidAt: new Date(Date.now() - (3 * 24 - 20) * HOUR) })
      .where(inArray(orders.id, bought));
    expect(await cancelSubscription(db(), quitter.id, `order:${bought[1]}`)).toBe("ended");
    await sendDueReminders(db());
    await sendDueReminders(db());
    await restart();
    await sendDueReminders(db());
    const [reminder, ...more] = await reminders(subscriber.email);
    expect(more).toEqual([]);
    const [order] = await db().select().from(orders).where(eq(orders.id, bought[0]!));
    expect(reminder!.text).toContain(`$${(order!.amount / 100).toFixed(2)}`);
    expect(reminder!.text).toContain("/dashboard/billing");
    expect(await reminders(quitter.email)).toEqual([]);
  });

  it("optional emails follow Email updates; required ones always go", async () => {
    const affiliate = await newUser("quiet-affiliate");
    const buyer = await newUser("quiet-buyer");
    for (const who of [affiliate, buyer]) await db().insert(userSettings).values({ userId: who.id, emailUpdates: false });
    await db().insert(affiliates).values({ userId: affiliate.id, username: affiliate.id });
    await db().insert(referrals).values({ referredUserId: buyer.id, affiliateUserId: affiliate.id });
    await startTrial(db(), buyer.id, "starter");
    await db()
      .update(trialAccess)
      .set({ trialEndsAt: new Date(Date.now() + 12 * HOUR) })
      .where(eq(trialAccess.userId, buyer.id));
    await sendDueReminders(db());
    expect(await kindsOf(buyer.email)).toEqual(["trialStarted"]);

    const plan = await createCheckout(db(), buyer, { kind: "plan", planType: "basic" });
    await fulfilOrder(db(), plan.sessionId);
    // The receipt is required; the affiliate's commission email is not.
    expect(await kindsOf(buyer.email)).toEqual(["paymentReceipt", "trialStarted"]);
    expect(await kindsOf(affiliate.email)).toEqual([]);
    await sendDueReminders(db());
    expect(await kindsOf(buyer.email)).toEqual(["paymentReceipt", "trialStarted"]);
  });

  it("through SMTP and the mail job: each email is sent once, across a restart of the queue and the database", async () => {
    const FAST: JobsOptions = {
      mailDelivery: { retryLimit: 3, retryDelay: 1, retryBackoff: true, retryDelayMax: 2, expireInSeconds: 30 },
      pollingIntervalSeconds: 0.5,
      schedules: false,
      sweepMinAgeMs: 0,
      stopTimeoutMs: 10_000,
    };
    const smtp = new FakeSmtp();
    setMailTransport(await createSmtpTransport(await smtp.start()));
    try {
      await startJobs(database, FAST);
      const buyer = await newUser("smtp-buyer");
      const plan = await createCheckout(db(), buyer, { kind: "plan", planType: "enterprise" });
      const events = async () => {
        await startTrial(db(), buyer.id, "starter");
        await fulfilOrder(db(), plan.sessionId);
      };
      await events();
      await events();
      // A restart: the queue stops, the database closes and opens again, the queue starts.
      await stopJobs();
      await restart();
      await startJobs(database, FAST);
      await events();
      const sentTo = () => smtp.received.filter((m) => m.to.some((rcpt) => rcpt.includes(buyer.email)));
      await waitFor(
        async () => (await mailsTo(buyer.email)).filter((m) => m.sentAt === null).length,
        (unsent) => unsent === 0,
      );
      // Nothing more arrives later: every mail job has ended (a second job for the same email has
      // found it sent), and with everything sent a sweep has nothing to queue.
      await waitFor(
        () => openJobCount(db(), MAIL_DELIVERY_QUEUE),
        (open) => open === 0,
      );
      expect(sentTo()).toHaveLength(2);
      expect((await mailsTo(buyer.email)).map((m) => m.kind).sort()).toEqual(["paymentReceipt", "trialStarted"]);
    } finally {
      await stopJobs();
      setMailTransport(undefined);
      await smtp.stop();
    }
  });
});
