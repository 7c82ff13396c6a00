import { and, desc, eq, isNotNull, sql } from "drizzle-orm";
import type { Db } from "../db/client.server";
import { type OrderRow, orders } from "../db/schema";

/**
 * The card a payment was made with, as far as this site knows it. The local test checkout records
 * the last four digits of the test card on the order (`details.paymentMethod`); the full number is
 * never stored. Stripe keeps its customers' cards itself: this site only knows Stripe took the payment.
 */
export type PaymentMethod = { kind: "test_card"; last4: string } | { kind: "stripe" } | { kind: "unknown" };

/** Records the test card that paid the local checkout `sessionId` of `userId` (last four digits only). */
export async function recordTestCard(db: Db, userId: string, sessionId: string, cardNumber: string): Promise<void> {
  const last4 = cardNumber.replace(/\D/g, "").slice(-4);
  if (last4.length !== 4) return;
  await db
    .update(orders)
    .set({ details: sql`${orders.details} || ${JSON.stringify({ paymentMethod: { kind: "test_card", last4 } })}::jsonb` })
    .where(and(eq(orders.providerSessionId, sessionId), eq(orders.userId, userId), eq(orders.provider, "local")));
}

/** How the order was paid: its recorded test card, Stripe, or not known (a local order paid before cards were recorded). */
export function paymentMethodOf(order: Pick<OrderRow, "provider" | "details">): PaymentMethod {
  if (order.provider === "stripe") return { kind: "stripe" };
  const recorded = order.details.paymentMethod as { kind?: unknown; last4?: unknown } | undefined;
  if (recorded?.kind === "test_card" && typeof recorded.last4 === "string" && /^\d{4}$/.test(recorded.last4)) {
    return { kind: "test_card", last4: recorded.last4 };
  }
  return { kind: "unknown" };
}

/** The card on file with the local provider: the one that paid the account's latest local order (refunded or ended ones too), or null. */
export async function testCardOnFile(db: Db, userId: string): Promise<{ last4: string } | null> {
  const [row] = await db
    .select({ provider: orders.provider, details: orders.details })
    .from(orders)
    .where(
      and(
        eq(orders.userId, userId),
        eq(orders.provider, "local"),
        isNotNull(orders.paidAt),
        sql`${orders.details} ? 'paymentMethod'`,
      ),
    )
    .orderBy(desc(orders.paidAt))
    .limit(1);
  const method = row ? paymentMethodOf(row) : null;
  return method?.kind === "test_card" ? { last4: method.last4 } : null;
}
