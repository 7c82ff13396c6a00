import { asc, eq } from "drizzle-orm";
import { orderAmountLines } from "~/catalogue/pricing";
import type { Db } from "../db/client.server";
import { orders, paymentDisputes, paymentEvents, user } from "../db/schema";
import { type AuditEntry, listAuditOf } from "./audit.server";

interface TimelineEvent {
  at: string;
  what: string;
  detail?: string;
}

/**
 * One order for /admin/orders/:id: its lines, payments and refunds, disputes, the provider's ids,
 * a timeline of what happened to it (created, paid, each payment, refund and dispute, each operator
 * action), and the console's audit entries about it.
 */
export async function getOrderDetail(db: Db, orderId: string) {
  const [row] = await db
    .select({ order: orders, email: user.email, name: user.name })
    .from(orders)
    .innerJoin(user, eq(user.id, orders.userId))
    .where(eq(orders.id, orderId))
    .limit(1);
  if (!row) return null;
  const { order } = row;
  const [events, disputes, audit] = await Promise.all([
    db
      .select()
      .from(paymentEvents)
      .where(eq(paymentEvents.orderId, orderId))
      .orderBy(asc(paymentEvents.createdAt), asc(paymentEvents.id)),
    db.select().from(paymentDisputes).where(eq(paymentDisputes.orderId, orderId)).orderBy(asc(paymentDisputes.createdAt)),
    listAuditOf(db, "order", orderId),
  ]);
  const paid = events.filter((e) => e.kind === "payment").reduce((s, e) => s + e.amount, 0);
  const refunded = events.filter((e) => e.kind === "refund").reduce((s, e) => s + e.amount, 0);
  const timeline: TimelineEvent[] = [
    { at: order.createdAt.toISOString(), what: "Order created", detail: `${order.provider} checkout` },
    ...(order.paidAt ? [{ at: order.paidAt.toISOString(), what: "Order paid" }] : []),
    ...events.map((e) => ({
      at: e.createdAt.toISOString(),
      what: e.kind === "payment" ? "Payment received" : "Refund recorded",
      detail: `${(e.amount / 100).toFixed(2)} ${e.currency.toUpperCase()} · ${e.providerRef}`,
    })),
    ...disputes.flatMap((d) => [
      { at: d.createdAt.toISOString(), what: "Dispute opened", detail: d.reason ?? undefined },
      ...(d.closedAt ? [{ at: d.closedAt.toISOString(), what: `Dispute ${d.status}` }] : []),
    ]),
    ...audit.map((a) => ({ at: a.at, what: `Operator: ${a.action}`, detail: a.operatorEmail })),
  ].sort((a, b) => a.at.localeCompare(b.at));
  return {
    order: {
      id: order.id,
      userId: order.userId,
      email: row.email,
      customerName: row.name,
      kind: order.kind,
      itemId: order.itemId,
      itemName: order.itemName,
      pricingTab: order.pricingTab,
      amount: order.amount,
      setupFee: order.setupFee,
      currency: order.currency,
      isSubscription: order.isSubscription,
      trialDays: order.trialDays,
      status: order.status,
      provider: order.provider,
      subscriptionStatus: order.subscriptionStatus,
      details: order.details,
      createdAt: order.createdAt.toISOString(),
      paidAt: order.paidAt?.toISOString() ?? null,
      paid,
      refunded,
    },
    lines: orderAmountLines(order),
    providerIds: {
      session: order.providerSessionId,
      customer: order.providerCustomerId,
      subscription: order.providerSubscriptionId,
    },
    payments: events.map((e) => ({
      id: e.id,
      kind: e.kind,
      amount: e.amount,
      currency: e.currency,
      providerRef: e.providerRef,
      createdAt: e.createdAt.toISOString(),
    })),
    disputes: disputes.map((d) => ({
      id: d.id,
      amount: d.amount,
      status: d.status,
      reason: d.reason,
      evidenceDueBy: d.evidenceDueBy?.toISOString() ?? null,
      createdAt: d.createdAt.toISOString(),
    })),
    timeline,
    audit: audit satisfies AuditEntry[],
  };
}

export type OrderDetail = NonNullable<Awaited<ReturnType<typeof getOrderDetail>>>;
