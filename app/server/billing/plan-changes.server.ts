import { and, desc, eq, inArray, sql } from "drizzle-orm";
import { BILLING_PLANS } from "~/catalogue/plans";
import { formatDollars } from "~/catalogue/pricing";
import type { Db } from "../db/client.server";
import { preparedPerHandle } from "../db/prepared.server";
import { type OrderRow, orders, userSubscriptions } from "../db/schema";
import { dueNow } from "./proration.server";
import type { OrderDraft } from "./quote-order.server";
import { recordPayment } from "./record-payment.server";
import { grantsAccessNow } from "./subscriptions.server";

/**
 * A plan change (docs/decisions/0060-plan-changes-with-proration.md): the account's one active plan,
 * scaling tier or member plan moves to another item on the same subscription, with the rest of the
 * period prorated, instead of a second checkout that replaces it. The change is an order of kind
 * 'plan-change': pending while the customer reads its figures (quote-plan-change.server.ts), paid
 * once applied (confirm-plan-change.server.ts, or Stripe's events when they arrive first). The
 * subscription row keeps its id and provider subscription; its item, name, price and reach change.
 */

export const PLAN_CHANGE_KIND = "plan-change";

type PlanKind = "plan" | "scaling" | "member";

/** A plan as a subscription row holds it. */
export interface PlanRef {
  kind: PlanKind;
  itemId: string;
  name: string;
  /** Cents per month. */
  monthlyPrice: number;
  planType: string;
  /** Contacts per month; null = unlimited or not counted. */
  reachLimit: number | null;
}

/** What a plan-change order holds in `details`. */
export interface PlanChangeDetails {
  subscriptionRowId: number;
  providerSubscriptionId: string;
  from: PlanRef;
  to: PlanRef;
  /** The moment the figures were computed for (Stripe's proration_date), seconds since the epoch. */
  prorationDate: number;
  /** End of the current period: the next full charge, at the new price. ISO time. */
  periodEnd: string;
  /** Cents: positive is due now, negative a credit toward the next invoices. */
  net: number;
  /** Stripe: the subscription item that changes price, and the new catalogue Price. */
  stripe?: { itemId: string; priceId: string };
  /** Stripe: confirm attempts so far (a declined card's retry is a new request). */
  attempts?: number;
}

const isPlanKind = (kind: string | null | undefined): kind is PlanKind =>
  kind === "plan" || kind === "scaling" || kind === "member";

/** The plan a checkout draft would make (the row applySubscriptionEntitlement writes). */
export function planRefOfDraft(draft: Pick<OrderDraft, "kind" | "itemId" | "itemName" | "amount" | "details">): PlanRef {
  if (!isPlanKind(draft.kind)) throw new Error(`not a plan: ${draft.kind}`);
  const plan = draft.kind === "plan" ? BILLING_PLANS.find((p) => p.type === draft.itemId) : undefined;
  const contacts = draft.details.contacts;
  return {
    kind: draft.kind,
    itemId: draft.itemId,
    name: plan ? plan.name : draft.itemName,
    monthlyPrice: draft.amount,
    planType: plan ? plan.type : draft.kind,
    reachLimit: typeof contacts === "number" ? contacts : null,
  };
}

type SubscriptionRow = typeof userSubscriptions.$inferSelect;

/** The plan a subscription row is now; null for a row that does not say (written by hand). */
export function planRefOfRow(row: SubscriptionRow): PlanRef | null {
  if (!isPlanKind(row.itemKind) || !row.itemId || row.monthlyPrice === null) return null;
  return {
    kind: row.itemKind,
    itemId: row.itemId,
    name: row.planName ?? row.itemId,
    monthlyPrice: row.monthlyPrice,
    planType: row.planType ?? row.itemKind,
    reachLimit: row.reachLimit,
  };
}

export const planChangeName = (from: Pick<PlanRef, "name">, to: Pick<PlanRef, "name">) =>
  `Changed plan: ${from.name} → ${to.name}`;

/** Where the customer reads a change's figures and confirms it. */
export const planChangePath = (orderId: string) => `/dashboard/billing/change/${orderId}`;

const currentPlanQuery = preparedPerHandle((db) =>
  db
    .select()
    .from(userSubscriptions)
    .where(and(eq(userSubscriptions.userId, sql.placeholder("userId")), grantsAccessNow))
    .orderBy(desc(userSubscriptions.updatedAt))
    .limit(1),
);

/**
 * The account's plan a change would move: the newest row that grants access now and is not set to
 * cancel (a cancelled plan is bought again through checkout, like no plan at all).
 */
export async function currentPlanRow(db: Db, userId: string): Promise<SubscriptionRow | undefined> {
  const [row] = await currentPlanQuery(db).execute({ userId });
  return row && !row.cancelAtPeriodEnd ? row : undefined;
}

/** The user's plan change `orderId`, only when it is theirs. */
export async function getPlanChange(db: Db, userId: string, orderId: string): Promise<OrderRow | undefined> {
  // Only a well-formed id reaches the uuid column: PostgreSQL refuses anything else with an error.
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(orderId)) return undefined;
  const [row] = await db
    .select()
    .from(orders)
    .where(and(eq(orders.id, orderId), eq(orders.userId, userId), eq(orders.kind, PLAN_CHANGE_KIND)))
    .limit(1);
  return row;
}

export const changeDetails = (order: Pick<OrderRow, "details">) => order.details as unknown as PlanChangeDetails;

/**
 * Applies a plan change once: the order pending (or declined) -> paid and the subscription row moved
 * to the new plan in the same statement order, then the money the change took, under its unique
 * reference (so the confirm, Stripe's invoice.paid and its customer.subscription.updated can each
 * arrive first, again or never, and the change and its payment are recorded once). Answers the order
 * when this call applied it, null when it was applied before (a payment given is still recorded).
 */
export async function applyPlanChangeInTx(
  tx: Db,
  orderId: string,
  opts: { payment?: { amount: number; ref: string }; currentPeriodEnd?: Date | null } = {},
): Promise<OrderRow | null> {
  const [paid] = await tx
    .update(orders)
    .set({ status: "paid", paidAt: sql`now()` })
    .where(and(eq(orders.id, orderId), eq(orders.kind, PLAN_CHANGE_KIND), inArray(orders.status, ["pending", "declined"])))
    .returning();
  if (paid) {
    const d = changeDetails(paid);
    await tx
      .update(userSubscriptions)
      .set({
        planName: d.to.name,
        planType: d.to.planType,
        monthlyPrice: d.to.monthlyPrice,
        reachLimit: d.to.reachLimit,
        itemKind: d.to.kind,
        itemId: d.to.itemId,
        ...(opts.currentPeriodEnd ? { currentPeriodEnd: opts.currentPeriodEnd } : {}),
        updatedAt: sql`now()`,
      })
      .where(
        and(
          eq(userSubscriptions.id, d.subscriptionRowId),
          eq(userSubscriptions.providerSubscriptionId, d.providerSubscriptionId),
          eq(userSubscriptions.status, "active"),
        ),
      );
  }
  const [order] = paid ? [paid] : await tx.select().from(orders).where(eq(orders.id, orderId)).limit(1);
  if (order && opts.payment && opts.payment.amount > 0) {
    await recordPayment(tx, {
      userId: order.userId,
      orderId: order.id,
      amount: opts.payment.amount,
      provider: order.provider,
      providerRef: opts.payment.ref,
    });
  }
  return paid ?? null;
}

/** The figures the confirmation page shows. */
export interface PlanChangeView {
  id: string;
  status: string;
  from: PlanRef;
  to: PlanRef;
  upgrade: boolean;
  /** Cents charged now (0 for a downgrade). */
  dueNow: number;
  /** Cents credited toward the next invoices (0 for an upgrade). */
  credit: number;
  /** ISO time of the next full charge, at the new price. */
  nextChargeAt: string;
  /** Whole days left in the period the proration covers. */
  daysLeft: number;
  createdAt: string;
}

export function planChangeView(order: OrderRow): PlanChangeView {
  const d = changeDetails(order);
  const daysLeft = Math.max(0, Math.round((Date.parse(d.periodEnd) / 1000 - d.prorationDate) / 86_400));
  return {
    id: order.id,
    status: order.status,
    from: d.from,
    to: d.to,
    upgrade: d.to.monthlyPrice >= d.from.monthlyPrice,
    dueNow: dueNow(d.net),
    credit: Math.max(0, -d.net),
    nextChargeAt: d.periodEnd,
    daysLeft,
    createdAt: order.createdAt.toISOString(),
  };
}

/** A plan change's amount as billing history shows it: what it took, or what it credited. */
export function planChangeAmountText(order: Pick<OrderRow, "details">): string {
  const { net } = changeDetails(order);
  return net < 0 ? `${formatDollars(-net)} credit` : `${formatDollars(net)} prorated`;
}
