import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getAffiliatePayouts, setPayoutEmail } from "~/server/affiliates/affiliate-payouts.server";
import { closePayoutRun } from "~/server/affiliates/close-payout-run.server";
import { createPayoutRun } from "~/server/affiliates/create-payout-run.server";
import { payoutRunCsv } from "~/server/affiliates/list-payout-runs.server";
import { previewPayoutRun } from "~/server/affiliates/preview-payout-run.server";
import { recordPayment, recordRefund } from "~/server/billing/record-payment.server";
import { setDatabase } from "~/server/db/client.server";
import { adminAudit, affiliates, commissionLedger, mailOutbox, payoutRuns, payouts, referrals } from "~/server/db/schema";
import { engine, freshDatabase, userMaker } from "./support/db";

process.env.LOG_LEVEL ??= "error";

const DAY = 24 * 60 * 60 * 1000;
/** A moment `days` from now: the hold period (30 days by default) is crossed by asking as of then. */
const later = (days: number) => new Date(Date.now() + days * DAY);

/**
 * Affiliate payouts (docs/decisions/0067-affiliate-payouts.md): the hold period, a run's creation
 * (once, whoever asks twice or at the same time), its confirmation or cancellation, and a refund after
 * a payout carried into the next run as a negative balance.
 */
describe(`affiliate payouts (${engine})`, () => {
  let database: Awaited<ReturnType<typeof freshDatabase>>;
  const db = () => database.db;
  const newUser = userMaker(db, "payouts");
  let operator: { id: string; email: string };
  let refs = 0;

  beforeAll(async () => {
    database = await freshDatabase();
    setDatabase(database);
    operator = await newUser();
  });
  afterAll(async () => {
    setDatabase(undefined);
    await database?.cleanup();
  });

  /** An affiliate (with a payout email unless told otherwise) and a customer they referred. */
  const affiliateWithCustomer = async ({ email = true } = {}) => {
    const affiliate = await newUser();
    await db()
      .insert(affiliates)
      .values({ userId: affiliate.id, username: `aff-${affiliate.id}` });
    if (email) expect(await setPayoutEmail(db(), affiliate.id, `paypal-${affiliate.id}@example.com`)).toBeNull();
    const buyer = await newUser();
    await db().insert(referrals).values({ referredUserId: buyer.id, affiliateUserId: affiliate.id });
    return { affiliate, buyer };
  };
  const pay = (userId: string, amount: number) =>
    db().transaction((tx) =>
      recordPayment(tx, { userId, orderId: null, amount, provider: "test", providerRef: `pay-${++refs}` }),
    );
  const refund = (userId: string, amount: number) =>
    db().transaction((tx) =>
      recordRefund(tx, { userId, orderId: null, amount, provider: "test", providerRef: `refund-${++refs}` }),
    );
  const lineOf = async (affiliateUserId: string, at: Date) =>
    (await previewPayoutRun(db(), at)).lines.find((l) => l.affiliateUserId === affiliateUserId) ?? null;
  const run = (at: Date, key = randomUUID()) => createPayoutRun(db(), { key, operator, now: at });
  const close = (runId: number, outcome: "paid" | "cancelled", at = new Date()) =>
    closePayoutRun(db(), { runId, outcome, operator, now: at });

  it("a commission is pending for the hold period, then payable; the affiliate sees each state", async () => {
    const { affiliate, buyer } = await affiliateWithCustomer();
    await pay(buyer.id, 20_000);
    expect(await lineOf(affiliate.id, later(29))).toBeNull();
    expect(await lineOf(affiliate.id, later(30.01))).toMatchObject({ payable: 6000, decision: "pay" });
    const mine = await getAffiliatePayouts(db(), affiliate.id);
    expect(mine.balances).toEqual({ pending: 6000, held: 0, payable: 0, in_payout: 0, paid: 0 });
    expect(new Date(mine.nextPayableAt!).getTime()).toBeGreaterThan(later(29.9).getTime());
    expect((await getAffiliatePayouts(db(), affiliate.id, later(31))).balances.payable).toBe(6000);
  });

  it("a refund before payout voids the commission: it never becomes payable", async () => {
    const { affiliate, buyer } = await affiliateWithCustomer();
    await pay(buyer.id, 20_000);
    await refund(buyer.id, 20_000);
    expect(await lineOf(affiliate.id, later(31))).toBeNull();
    expect((await getAffiliatePayouts(db(), affiliate.id, later(31))).balances.payable).toBe(0);
  });

  it("creating a run is idempotent and one run is open at a time; the CSV lists its payouts", async () => {
    const at = later(31);
    const key = randomUUID();
    const [first, again] = await Promise.all([run(at, key), run(at, key)]);
    expect(first.ok && again.ok && first.runId === again.runId).toBe(true);
    expect([first, again].filter((r) => r.ok && r.created)).toHaveLength(1);
    const runId = (first as { runId: number }).runId;
    expect(await run(at)).toEqual({ ok: false, code: "open_run", runId });
    const csv = (await payoutRunCsv(db(), runId))!;
    expect(csv).toMatch(
      /^paypal-payouts-user-\d+@example\.com,60\.00,USD,PAYOUT-\d+,AI Automation Apps affiliate commissions \(payout run \d+\),PAYPAL\r\n/,
    );
    expect(await close(runId, "paid")).toEqual({ ok: true, already: false });
    expect(await close(runId, "paid")).toEqual({ ok: true, already: true });
    expect(await close(runId, "cancelled")).toEqual({ ok: false, code: "not_open" });
    expect(await run(at)).toEqual({ ok: false, code: "nothing_to_pay" });
    // The operator's two actions are in the audit log once each, and each affiliate paid is told once.
    const audit = await db()
      .select()
      .from(adminAudit)
      .where(eq(adminAudit.subjectId, String(runId)));
    expect(audit.map((a) => `${a.action} by ${a.operatorEmail}`).sort()).toEqual([
      `payout-run.confirm by ${operator.email}`,
      `payout-run.create by ${operator.email}`,
    ]);
    const paidOut = await db().select().from(payouts).where(eq(payouts.runId, runId));
    const payoutMails = await db().select().from(mailOutbox).where(eq(mailOutbox.kind, "payoutSent"));
    expect(paidOut.length).toBeGreaterThan(0);
    expect(payoutMails).toHaveLength(paidOut.length);
  });

  it("two operators racing: one run, every entry locked into it once", async () => {
    const { affiliate, buyer } = await affiliateWithCustomer();
    await pay(buyer.id, 30_000);
    const at = later(31);
    const results = await Promise.all([run(at), run(at), run(at)]);
    const created = results.filter((r) => r.ok && r.created);
    expect(created).toHaveLength(1);
    expect(results.filter((r) => !r.ok).every((r) => !r.ok && r.code === "open_run")).toBe(true);
    const runId = (created[0] as { runId: number }).runId;
    expect(await db().select().from(payoutRuns).where(eq(payoutRuns.status, "open"))).toHaveLength(1);
    // Cancelled: the entries are payable again, for the next run.
    expect(await close(runId, "cancelled")).toEqual({ ok: true, already: false });
    expect(await lineOf(affiliate.id, at)).toMatchObject({ payable: 9000, decision: "pay" });
    const next = await run(at);
    expect(next.ok).toBe(true);
    await close((next as { runId: number }).runId, "paid");
    const entries = await db().select().from(commissionLedger).where(eq(commissionLedger.affiliateUserId, affiliate.id));
    expect(entries.map((e) => [e.status, e.paidAt !== null])).toEqual([["paid", true]]);
  });

  it("a refund after payout is a negative balance carried into the next run", async () => {
    const { affiliate, buyer } = await affiliateWithCustomer();
    await pay(buyer.id, 20_000);
    const first = await run(later(31));
    expect(first.ok).toBe(true);
    await close((first as { runId: number }).runId, "paid");
    await refund(buyer.id, 10_000);
    // At once, without a hold: the affiliate owes 30.00.
    expect(await lineOf(affiliate.id, new Date())).toMatchObject({ payable: -3000, decision: "negative" });
    expect((await getAffiliatePayouts(db(), affiliate.id)).balances).toMatchObject({ payable: -3000, paid: 6000 });
    // New sales: 60.00 of commission, less the 30.00 carried, is 30.00: under the minimum, carried again.
    await pay(buyer.id, 20_000);
    expect(await lineOf(affiliate.id, later(31))).toMatchObject({ payable: 3000, decision: "below_minimum" });
    await pay(buyer.id, 10_000);
    expect(await lineOf(affiliate.id, later(31))).toMatchObject({ payable: 6000, decision: "pay" });
    const second = await run(later(31));
    const csv = (await payoutRunCsv(db(), (second as { runId: number }).runId))!;
    expect(csv).toContain(`paypal-${affiliate.id}@example.com,60.00,USD`);
    await close((second as { runId: number }).runId, "paid");
    expect((await getAffiliatePayouts(db(), affiliate.id, later(31))).payouts.map((p) => [p.amount, p.status])).toEqual([
      [6000, "paid"],
      [6000, "paid"],
    ]);
  });

  it("an affiliate without a payout email is listed as blocked, not paid and not skipped", async () => {
    const { affiliate, buyer } = await affiliateWithCustomer({ email: false });
    await pay(buyer.id, 20_000);
    expect(await lineOf(affiliate.id, later(31))).toMatchObject({ payable: 6000, decision: "blocked", payoutEmail: null });
    expect(await run(later(31))).toEqual({ ok: false, code: "nothing_to_pay" });
    expect(await setPayoutEmail(db(), affiliate.id, "=HYPERLINK(1)@x.com")).toBe("Enter a valid email address.");
  });
});
