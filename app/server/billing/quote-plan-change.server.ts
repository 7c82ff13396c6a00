import { and, eq, inArray } from "drizzle-orm";
import { randomUUID } from "node:crypto";
import type { CheckoutRequest } from "~/lib/checkout-request";
import type { Db } from "../db/client.server";
import { type OrderRow, orders } from "../db/schema";
import { errorMessage, log } from "../log.server";
import { CheckoutError } from "./checkout-error.server";
import {
  currentPlanRow,
  PLAN_CHANGE_KIND,
  type PlanChangeDetails,
  planChangeName,
  planRefOfDraft,
  planRefOfRow,
} from "./plan-changes.server";
import { prorate } from "./proration.server";
import { checkoutProvider } from "./provider.server";
import { quoteOrder } from "./quote-order.server";
import { stripeClient } from "./stripe/client.server";
import { previewStripePlanChange } from "./stripe/plan-change.server";
import { MONTH_MS } from "./subscriptions.server";

/** Says the same as the checkout's refusal when the provider cannot answer. */
const UNAVAILABLE = "Payment system is currently unavailable. Please try again later.";

/**
 * When the account already pays for a plan, scaling tier or member plan through the provider that
 * checkouts go to now, a request for another one is a plan change: this prices it (the rest of the
 * period on both prices) and records the figures as a pending 'plan-change' order the customer
 * confirms on its page. Null when `req` is an ordinary checkout: not a plan, no current plan, a plan
 * set to cancel, or one paid through another provider (its checkout replaces it, and a replaced
 * Stripe subscription is cancelled after: follow-ups.server.ts). The same plan is refused as owned.
 */
export async function quotePlanChange(db: Db, userId: string, req: CheckoutRequest, now = new Date()): Promise<OrderRow | null> {
  if (req.kind !== "plan" && req.kind !== "scaling" && req.kind !== "member") return null;
  const row = await currentPlanRow(db, userId);
  const from = row ? planRefOfRow(row) : null;
  if (!row?.providerSubscriptionId || !from) return null;
  const provider = await checkoutProvider();
  if (row.provider !== provider.name) return null;
  const to = planRefOfDraft(await quoteOrder(db, userId, req));
  if (from.kind === to.kind && from.itemId === to.itemId)
    throw new CheckoutError("already_owned", "Your account already has this plan", 409);

  let figures: Pick<PlanChangeDetails, "prorationDate" | "periodEnd" | "net" | "stripe">;
  if (provider.name === "stripe") {
    try {
      const q = await previewStripePlanChange(stripeClient(), row.providerSubscriptionId, to, now);
      figures = { prorationDate: q.prorationDate, periodEnd: q.periodEnd.toISOString(), net: q.net, stripe: q.stripe };
    } catch (error) {
      log.error("plan change preview failed", { userId, error: errorMessage(error) });
      throw new CheckoutError("provider_unavailable", UNAVAILABLE, 503);
    }
  } else {
    // The local provider's periods are the month applySubscriptionEntitlement gives them.
    const periodEnd = row.currentPeriodEnd ?? new Date(now.getTime() + MONTH_MS);
    const p = prorate({
      oldAmount: from.monthlyPrice,
      newAmount: to.monthlyPrice,
      periodStart: new Date(periodEnd.getTime() - MONTH_MS),
      periodEnd,
      at: now,
    });
    figures = { prorationDate: Math.floor(now.getTime() / 1000), periodEnd: periodEnd.toISOString(), net: p.net };
  }
  const details: PlanChangeDetails = {
    subscriptionRowId: row.id,
    providerSubscriptionId: row.providerSubscriptionId,
    from,
    to,
    ...figures,
  };
  return db.transaction(async (txRaw) => {
    const tx = txRaw as unknown as Db;
    // One open change per account: figures shown before are no longer the ones to confirm.
    await tx
      .update(orders)
      .set({ status: "canceled" })
      .where(and(eq(orders.userId, userId), eq(orders.kind, PLAN_CHANGE_KIND), inArray(orders.status, ["pending", "declined"])));
    const id = randomUUID();
    const [order] = await tx
      .insert(orders)
      .values({
        id,
        userId,
        kind: PLAN_CHANGE_KIND,
        itemId: `${to.kind}:${to.itemId}`,
        itemName: planChangeName(from, to),
        pricingTab: null,
        // What the change takes now; a downgrade's credit is in details.net.
        amount: Math.max(0, figures.net),
        currency: "usd",
        isSubscription: false,
        trialDays: 0,
        setupFee: 0,
        status: "pending",
        provider: provider.name,
        // Not a checkout session; unique like one.
        providerSessionId: `change_${id}`,
        providerSubscriptionId: null,
        details: details as unknown as Record<string, unknown>,
        successPath: "/dashboard/billing",
        cancelPath: "/dashboard/billing",
      })
      .returning();
    return order!;
  });
}

/**
 * Whether picking another plan, tier or member plan is a plan change for this account (the same
 * rule as quotePlanChange), so the pages say "Switch to …" and open the confirmation in this tab.
 */
export async function offersPlanChange(db: Db, userId: string): Promise<boolean> {
  const row = await currentPlanRow(db, userId);
  if (!row?.providerSubscriptionId || !planRefOfRow(row)) return false;
  return row.provider === (await checkoutProvider()).name;
}
