import { and, eq, gt, inArray, sql } from "drizzle-orm";
import type { Db } from "../db/client.server";
import { type OrderRow, orders } from "../db/schema";
import { enqueueTrialCapture } from "../jobs/queue.server";
import { emailBuildTrialStarted } from "../mail/event-emails.server";

export interface AuthoriseOptions {
  /** Stripe's PaymentIntent holding the authorisation (captured or voided later). */
  paymentIntentId?: string | null;
  providerCustomerId?: string | null;
  /** Local provider only: the test card whose authorisation later fails to capture. */
  captureFails?: boolean;
}

/**
 * A one-time build's checkout with its free trial (docs/decisions/0045-trial-then-capture.md): the
 * card is authorised, nothing is charged or granted, and the capture job is enqueued in the same
 * transaction with its start at the trial's end, so the order and its capture commit together (the
 * order row is the outbox: the sweeper enqueues it again if its job is lost). One conditional UPDATE,
 * so repeated or concurrent completions authorise once; null for those that changed nothing.
 */
export async function authoriseTrialInTx(tx: Db, sessionId: string, opts: AuthoriseOptions = {}): Promise<OrderRow | null> {
  const extra: Record<string, unknown> = {};
  if (opts.paymentIntentId) extra.paymentIntentId = opts.paymentIntentId;
  if (opts.captureFails) extra.localCaptureFails = true;
  const [order] = await tx
    .update(orders)
    .set({
      status: "authorized",
      captureAt: sql`now() + ${orders.trialDays} * interval '1 day'`,
      details: sql`${orders.details} || ${JSON.stringify(extra)}::jsonb`,
      ...(opts.providerCustomerId ? { providerCustomerId: opts.providerCustomerId } : {}),
    })
    .where(
      and(
        eq(orders.providerSessionId, sessionId),
        inArray(orders.status, ["pending", "declined"]),
        eq(orders.isSubscription, false),
        gt(orders.trialDays, 0),
      ),
    )
    .returning();
  if (!order) return null;
  await enqueueTrialCapture(tx, order.id, order.captureAt!);
  await emailBuildTrialStarted(tx, order);
  return order;
}

/** `authoriseTrialInTx` in a transaction of its own (the local provider's page). */
export function authoriseTrial(db: Db, sessionId: string, opts: AuthoriseOptions = {}): Promise<OrderRow | null> {
  return db.transaction((tx) => authoriseTrialInTx(tx as unknown as Db, sessionId, opts));
}
