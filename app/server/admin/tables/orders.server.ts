import { and, count, eq, inArray, sql } from "drizzle-orm";
import { TABLE_SPECS } from "~/lib/admin/tables";
import type { Db } from "../../db/client.server";
import { orders, paymentEvents, user } from "../../db/schema";
import { type AdminTable, containsAny, inDayRange, orderOf, total } from "./query.server";

export interface OrderListRow {
  id: string;
  userId: string;
  email: string;
  kind: string;
  itemName: string;
  /** Cents; monthly for a subscription. */
  amount: number;
  setupFee: number;
  isSubscription: boolean;
  trialDays: number;
  status: string;
  provider: string;
  createdAt: string;
  paidAt: string | null;
  /** Cents received for the order, and returned (refunds, lost disputes). */
  paid: number;
  refunded: number;
}

/** Cents paid and refunded per order, for the given orders only (payment_events grows with every payment). */
export async function moneyOfOrders(db: Db, ids: string[]) {
  const money = ids.length
    ? await db
        .select({
          orderId: paymentEvents.orderId,
          paid: sql<string>`coalesce(sum(${paymentEvents.amount}) filter (where ${paymentEvents.kind} = 'payment'), 0)`,
          refunded: sql<string>`coalesce(sum(${paymentEvents.amount}) filter (where ${paymentEvents.kind} = 'refund'), 0)`,
        })
        .from(paymentEvents)
        .where(inArray(paymentEvents.orderId, ids))
        .groupBy(paymentEvents.orderId)
    : [];
  const byId = new Map(money.map((m) => [m.orderId, { paid: Number(m.paid), refunded: Number(m.refunded) }]));
  return (id: string) => byId.get(id) ?? { paid: 0, refunded: 0 };
}

export const ordersTable: AdminTable<OrderListRow> = {
  spec: TABLE_SPECS.orders,
  async query(db, params, page) {
    const where = and(
      containsAny(params.q, [
        user.email,
        orders.itemName,
        orders.id,
        orders.providerSessionId,
        orders.providerCustomerId,
        orders.providerSubscriptionId,
      ]),
      params.filters.status ? eq(orders.status, params.filters.status) : undefined,
      params.filters.kind ? eq(orders.kind, params.filters.kind) : undefined,
      params.filters.provider ? eq(orders.provider, params.filters.provider) : undefined,
      ...inDayRange(orders.createdAt, params.from, params.to, params.timeZone),
    );
    const [rows, n] = await Promise.all([
      db
        .select({ order: orders, email: user.email })
        .from(orders)
        .innerJoin(user, eq(user.id, orders.userId))
        .where(where)
        .orderBy(
          ...orderOf(
            params,
            {
              createdAt: orders.createdAt,
              amount: orders.amount,
              email: user.email,
              status: orders.status,
              itemName: orders.itemName,
            },
            orders.id,
          ),
        )
        .limit(page.limit)
        .offset(page.offset),
      db.select({ n: count() }).from(orders).innerJoin(user, eq(user.id, orders.userId)).where(where),
    ]);
    const money = await moneyOfOrders(
      db,
      rows.map((r) => r.order.id),
    );
    return {
      total: total(n),
      rows: rows.map(({ order, email }) => ({
        id: order.id,
        userId: order.userId,
        email,
        kind: order.kind,
        itemName: order.itemName,
        amount: order.amount,
        setupFee: order.setupFee,
        isSubscription: order.isSubscription,
        trialDays: order.trialDays,
        status: order.status,
        provider: order.provider,
        createdAt: order.createdAt.toISOString(),
        paidAt: order.paidAt?.toISOString() ?? null,
        ...money(order.id),
      })),
    };
  },
  csv: [
    { header: "id", value: (r) => r.id },
    { header: "created_at", value: (r) => r.createdAt },
    { header: "email", value: (r) => r.email },
    { header: "kind", value: (r) => r.kind },
    { header: "item", value: (r) => r.itemName },
    { header: "status", value: (r) => r.status },
    { header: "provider", value: (r) => r.provider },
    { header: "subscription", value: (r) => r.isSubscription },
    { header: "amount_cents", value: (r) => r.amount },
    { header: "setup_fee_cents", value: (r) => r.setupFee },
    { header: "paid_cents", value: (r) => r.paid },
    { header: "refunded_cents", value: (r) => r.refunded },
    { header: "paid_at", value: (r) => r.paidAt },
  ],
};
