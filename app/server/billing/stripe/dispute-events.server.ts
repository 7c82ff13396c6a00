import { and, eq, isNull, sql } from "drizzle-orm";
import type { Stripe } from "stripe";
import { tellOperators } from "../../admin/notify-operators.server";
import { type Db } from "../../db/client.server";
import { commissionLedger, paymentDisputes, type PaymentDisputeRow } from "../../db/schema";
import { env } from "../../env.server";
import { log } from "../../log.server";
import { recordRefund } from "../record-payment.server";
import type { EventOutcome } from "./event-outcome.server";
import { idOf } from "./ids.server";
import { endOrder, ownerOfCharge, type ChargeOwner } from "./refund-events.server";

/**
 * Chargebacks (`charge.dispute.*`). Every event of a dispute is only a trigger: the dispute is
 * re-read from Stripe before the transaction (its charge expanded, to find whose payment it was), and
 * the transaction moves our record to Stripe's current state. So events delivered late, twice or out
 * of order converge, and 'won' and 'lost' are final: a stale read never reopens a closed dispute.
 *
 * - open: the referrer's commission on the disputed payment is held (kept out of what is payable);
 * - won (or an inquiry closed without a chargeback): the commission is released;
 * - lost: the disputed amount is recorded as money returned (a refund-kind payment event under the
 *   dispute id, which reverses the commission like a refund), the held commission is released
 *   against that reversal, the order's entitlement ends (endOrder: its subscription is cancelled at
 *   Stripe too) and the operators are told.
 */

export const DISPUTE_EVENTS = new Set([
  "charge.dispute.created",
  "charge.dispute.updated",
  "charge.dispute.closed",
  "charge.dispute.funds_withdrawn",
  "charge.dispute.funds_reinstated",
]);

type DisputeState = "open" | "won" | "lost";

/** Stripe's dispute status as ours. */
function disputeState(status: string): DisputeState {
  if (status === "lost") return "lost";
  // 'prevented': the issuer was answered before a chargeback; 'warning_closed': an inquiry ended without one.
  if (status === "won" || status === "warning_closed" || status === "prevented") return "won";
  return "open";
}

/**
 * Stripe's fee for the dispute: the fees of its balance transactions (the withdrawal carries it; a
 * reinstatement after a won dispute may carry a negative one where Stripe returns it).
 */
function disputeFee(dispute: Pick<Stripe.Dispute, "balance_transactions">): number {
  return (dispute.balance_transactions ?? []).reduce((sum, t) => sum + (typeof t === "object" && t ? t.fee : 0), 0);
}

/** What a dispute event needs from Stripe, fetched before the transaction. */
export interface DisputeRead {
  dispute: Stripe.Dispute;
  owner: ChargeOwner | null;
}

/** The dispute as Stripe holds it now, and whose payment it disputes; null when Stripe no longer knows it. */
export async function readDispute(db: Db, stripe: Stripe, event: Stripe.Event): Promise<DisputeRead | null> {
  const sent = event.data.object as Stripe.Dispute;
  let dispute: Stripe.Dispute;
  try {
    dispute = await stripe.disputes.retrieve(sent.id, { expand: ["charge"] });
  } catch (error) {
    if ((error as { code?: string }).code === "resource_missing") return null;
    throw error;
  }
  const charge =
    typeof dispute.charge === "object" && dispute.charge
      ? dispute.charge
      : await stripe.charges.retrieve(idOf(dispute.charge as string)!);
  return { dispute, owner: await ownerOfCharge(db, stripe, charge) };
}

export async function applyDispute(tx: Db, eventId: string, read: DisputeRead | null): Promise<EventOutcome> {
  if (!read) return "ignored";
  const { dispute, owner } = read;
  if (!owner) {
    // Another integration's charge on the same Stripe account, or a payment we never recorded.
    log.warn("stripe dispute of an unknown charge", { eventId, disputeId: dispute.id, chargeId: idOf(dispute.charge) });
    return "ignored";
  }
  const state = disputeState(dispute.status);
  const dueBy = dispute.evidence_details?.due_by;
  const values = {
    id: dispute.id,
    userId: owner.userId,
    orderId: owner.orderId,
    paymentEventId: owner.paymentEventId,
    provider: "stripe",
    chargeId: idOf(dispute.charge),
    amount: dispute.amount,
    fee: disputeFee(dispute),
    currency: dispute.currency,
    reason: dispute.reason,
    providerStatus: dispute.status,
    evidenceDueBy: dueBy ? new Date(dueBy * 1000) : null,
  };
  // A concurrent delivery of another event of this dispute waits here until the first commits.
  const inserted = await tx
    .insert(paymentDisputes)
    .values({ ...values, status: state, closedAt: state === "open" ? null : sql`now()` })
    .onConflictDoNothing({ target: paymentDisputes.id })
    .returning();
  const [stored] = inserted.length
    ? inserted
    : await tx.select().from(paymentDisputes).where(eq(paymentDisputes.id, dispute.id)).for("update");
  if (!stored) throw new Error(`payment_disputes row ${dispute.id} vanished`);
  const before: DisputeState | null = inserted.length ? null : (stored.status as DisputeState);

  if (before !== null) {
    // 'won' and 'lost' are final; an open dispute only takes Stripe's newer status and deadline.
    // Its fee is Stripe's latest word whatever the state (funds reinstated after the close).
    if (before !== "open") {
      if (stored.fee === values.fee) return "ignored";
      await tx
        .update(paymentDisputes)
        .set({ fee: values.fee, updatedAt: sql`now()` })
        .where(eq(paymentDisputes.id, dispute.id));
      return "applied";
    }
    await tx
      .update(paymentDisputes)
      .set({
        status: state,
        providerStatus: dispute.status,
        evidenceDueBy: values.evidenceDueBy,
        fee: values.fee,
        updatedAt: sql`now()`,
        ...(state === "open" ? {} : { closedAt: sql`now()` }),
      })
      .where(eq(paymentDisputes.id, dispute.id));
    if (state === "open") return stored.providerStatus === dispute.status && stored.fee === values.fee ? "ignored" : "applied";
  }

  if (state === "open") {
    await holdCommission(tx, stored);
    await tellOperators(tx, openedNotice(stored));
    return "applied";
  }
  await releaseCommission(tx, stored);
  if (state === "won") {
    log.info("stripe dispute closed in our favour", { disputeId: dispute.id, orderId: stored.orderId, status: dispute.status });
    return "applied";
  }
  await recordRefund(tx, {
    userId: stored.userId,
    orderId: stored.orderId,
    amount: dispute.amount,
    provider: "stripe",
    providerRef: dispute.id,
    currency: dispute.currency,
  });
  const ended = stored.orderId ? await endOrder(tx, stored.orderId) : false;
  await tellOperators(tx, lostNotice(stored, ended));
  return "applied";
}

/** The commission earned on the disputed payment stops counting as payable ('pending') while it is held. */
async function holdCommission(tx: Db, dispute: PaymentDisputeRow) {
  if (dispute.paymentEventId === null) return;
  await tx
    .update(commissionLedger)
    .set({ status: "held" })
    .where(
      and(
        eq(commissionLedger.paymentEventId, dispute.paymentEventId),
        eq(commissionLedger.kind, "commission"),
        eq(commissionLedger.status, "pending"),
        // A commission already locked into a payout run goes with it; a lost dispute reverses it later.
        isNull(commissionLedger.payoutId),
      ),
    );
}

/**
 * A held commission becomes payable again: after a won dispute as it was, after a lost one next to
 * the reversal the dispute's refund event wrote, so the two net out.
 */
async function releaseCommission(tx: Db, dispute: PaymentDisputeRow) {
  if (dispute.paymentEventId === null) return;
  await tx
    .update(commissionLedger)
    .set({ status: "pending" })
    .where(and(eq(commissionLedger.paymentEventId, dispute.paymentEventId), eq(commissionLedger.status, "held")));
}

const dollars = (cents: number, currency: string) => `${(cents / 100).toFixed(2)} ${currency.toUpperCase()}`;
const adminUrl = () => new URL("/admin#disputes", env().PUBLIC_SITE_URL).toString();

function openedNotice(d: PaymentDisputeRow) {
  const due = d.evidenceDueBy ? d.evidenceDueBy.toISOString().slice(0, 10) : "the date Stripe shows";
  return {
    subject: "A payment was disputed: respond in Stripe",
    text: [
      `The buyer's bank disputed a payment of ${dollars(d.amount, d.currency)} (reason: ${d.reason ?? "not given"}).`,
      `Submit evidence in the Stripe dashboard for dispute ${d.id} before ${due}.`,
      `The affiliate commission on this payment is held until the dispute closes.`,
      `Order: ${d.orderId ?? "not found"}. Operations: ${adminUrl()}`,
    ].join("\n\n"),
    fields: { disputeId: d.id, orderId: d.orderId, userId: d.userId, amount: d.amount, evidenceDueBy: d.evidenceDueBy },
  };
}

function lostNotice(d: PaymentDisputeRow, ended: boolean) {
  return {
    subject: "A payment dispute was lost",
    text: [
      `Dispute ${d.id} of ${dollars(d.amount, d.currency)} was lost: the money went back to the buyer.`,
      ended
        ? `Order ${d.orderId} is now refunded: what it granted has ended, and the affiliate commission on it is reversed.`
        : `No order of ours was ended (${d.orderId ? `order ${d.orderId} had already ended` : "the payment names no order"}); the affiliate commission on it is reversed.`,
      ended
        ? `If the order is a subscription, it is cancelled at Stripe: this buyer is not charged again for it.`
        : `Check in the Stripe dashboard that no subscription of this payment still bills the buyer.`,
      `Operations: ${adminUrl()}`,
    ].join("\n\n"),
    fields: { disputeId: d.id, orderId: d.orderId, userId: d.userId, amount: d.amount, orderEnded: ended },
  };
}
