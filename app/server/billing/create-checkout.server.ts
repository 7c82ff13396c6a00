import { and, desc, eq, inArray, sql } from "drizzle-orm";
import { randomUUID } from "node:crypto";
import type { CheckoutRequest } from "~/lib/checkout-request";
import type { Db } from "../db/client.server";
import { type OrderRow, orders } from "../db/schema";
import { env } from "../env.server";
import { errorMessage, log } from "../log.server";
import { ALREADY_PAYING, CheckoutError } from "./checkout-error.server";
import { checkoutProvider } from "./provider.server";
import { type OrderDraft, quoteOrder } from "./quote-order.server";

/**
 * Checkout (DESIGN.md section 4): the browser says *what* it buys; the server computes the amount
 * from the catalogue (quote-order.server.ts), inserts a pending order, then asks the provider for a
 * hosted session.
 */

export interface CheckoutResult {
  url: string;
  sessionId: string;
  orderId: string;
}

/** Kinds an account holds once at a time: a second checkout of the same item resumes the open one. */
const HELD_ONCE_KINDS = new Set<string>(["addons", "plan", "scaling", "member", "distributor"]);

/** What makes two orders the same purchase: kind, item (an add-on bundle as a set), option and price. */
function purchaseKey(o: Pick<OrderRow, "kind" | "itemId" | "pricingTab" | "amount" | "setupFee" | "isSubscription">) {
  const item = o.kind === "addons" ? o.itemId.split(",").sort().join(",") : o.itemId;
  return JSON.stringify([o.kind, item, o.pricingTab, o.amount, o.setupFee, o.isSubscription]);
}

/**
 * The account's payable (pending or declined) order of the same purchase, else a new pending
 * order, chosen under a per-account-and-kind lock so two concurrent clicks agree on one order.
 */
async function openOrderFor(
  db: Db,
  userId: string,
  draft: OrderDraft,
  providerName: string,
): Promise<{ order: OrderRow; reused: boolean }> {
  return db.transaction(async (txRaw) => {
    const tx = txRaw as unknown as Db;
    if (HELD_ONCE_KINDS.has(draft.kind)) {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`checkout:${userId}:${draft.kind}`}))`);
      const open = await tx
        .select()
        .from(orders)
        .where(
          and(
            eq(orders.userId, userId),
            eq(orders.kind, draft.kind),
            eq(orders.provider, providerName),
            inArray(orders.status, ["pending", "declined"]),
          ),
        )
        .orderBy(desc(orders.createdAt));
      const key = purchaseKey(draft);
      const same = open.find((o) => purchaseKey(o) === key);
      if (same) return { order: same, reused: true };
    }
    const id = randomUUID();
    const [order] = await tx
      .insert(orders)
      .values({
        id,
        userId,
        ...draft,
        currency: "usd",
        status: "pending",
        provider: providerName,
        // Replaced by the provider's id below; unique, so it cannot collide with a real session.
        providerSessionId: `pending_${id}`,
      })
      .returning();
    return { order: order!, reused: false };
  });
}

/**
 * Starts the checkout of `req` for `user`: a pending order first (so a provider session never
 * exists without its order), then the provider's hosted session, whose id is written back.
 *
 * An add-on bundle, plan, scaling tier or the distributor program is held once: while the account
 * has a payable order of the same purchase (a second click, a second tab), that order's checkout is
 * answered again (the provider's session while it is still open) instead of a second order whose
 * payment would charge twice (docs/decisions/0009). Fulfilment checks add-ons again (fulfilOrderInTx).
 */
export async function createCheckout(
  db: Db,
  user: { id: string; email: string; name?: string | null },
  req: CheckoutRequest,
): Promise<CheckoutResult> {
  // Priced without a free trial the account already had of the item (one per item and account).
  const draft = await quoteOrder(db, user.id, req);
  const provider = await checkoutProvider();
  for (let attempt = 0; ; attempt++) {
    const { order, reused } = await openOrderFor(db, user.id, draft, provider.name);
    if (reused && !order.providerSessionId.startsWith("pending_") && provider.resumeSession) {
      const resumed = await resumeOrNull(db, provider.resumeSession.bind(provider), order);
      if (resumed) return resumed;
      // Expired (now 'canceled') or not resumable: a new order, once.
      if (attempt === 0) continue;
    }
    return startSession(db, provider, user, draft, order);
  }
}

/** The open session of a reused order; null after marking an expired one canceled. */
async function resumeOrNull(
  db: Db,
  resume: NonNullable<Awaited<ReturnType<typeof checkoutProvider>>["resumeSession"]>,
  order: OrderRow,
): Promise<CheckoutResult | null> {
  let resumed;
  try {
    resumed = await resume(order.providerSessionId);
  } catch (error) {
    log.error("checkout session could not be resumed", { orderId: order.id, error: errorMessage(error) });
    throw new CheckoutError("provider_unavailable", "Payment system is currently unavailable. Please try again later.", 503);
  }
  if (resumed.status === "open" && resumed.url)
    return { url: resumed.url, sessionId: order.providerSessionId, orderId: order.id };
  if (resumed.status === "complete") {
    // Paid at the provider; its event is on the way. A new order would be a second payment.
    throw new CheckoutError("already_owned", ALREADY_PAYING, 409);
  }
  await db
    .update(orders)
    .set({ status: "canceled" })
    .where(and(eq(orders.id, order.id), inArray(orders.status, ["pending", "declined"])));
  return null;
}

async function startSession(
  db: Db,
  provider: Awaited<ReturnType<typeof checkoutProvider>>,
  user: { id: string; email: string; name?: string | null },
  draft: OrderDraft,
  order: OrderRow,
): Promise<CheckoutResult> {
  const id = order.id;
  const base = env().PUBLIC_SITE_URL;
  let session: { sessionId: string; url: string };
  try {
    session = await provider.createSession({
      order,
      customer: { userId: user.id, email: user.email, name: user.name ?? "" },
      successUrl: base + order.successPath,
      cancelUrl: base + order.cancelPath,
    });
  } catch (error) {
    await db.update(orders).set({ status: "failed" }).where(eq(orders.id, id));
    if (error instanceof CheckoutError) throw error;
    log.error("checkout provider failed", {
      orderId: id,
      kind: draft.kind,
      error: errorMessage(error),
    });
    throw new CheckoutError("provider_unavailable", "Payment system is currently unavailable. Please try again later.", 503);
  }
  const [written] = await db
    .update(orders)
    .set({ providerSessionId: session.sessionId })
    .where(and(eq(orders.id, id), eq(orders.providerSessionId, `pending_${id}`)))
    .returning({ id: orders.id });
  if (!written) {
    // A concurrent click on the same order wrote its session first (Stripe answers the same session
    // for the same order; the local provider made a second id): answer the winner's.
    const [current] = await db.select().from(orders).where(eq(orders.id, id)).limit(1);
    if (current && current.providerSessionId !== session.sessionId && provider.resumeSession) {
      const resumed = await provider.resumeSession(current.providerSessionId);
      if (resumed.url) return { url: resumed.url, sessionId: current.providerSessionId, orderId: id };
    }
  }
  return { url: session.url, sessionId: session.sessionId, orderId: id };
}
