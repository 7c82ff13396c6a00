import { and, desc, eq, gt } from "drizzle-orm";
import { getEntitlements } from "../billing/entitlements.server";
import type { Db } from "../db/client.server";
import {
  affiliates,
  orders,
  paymentEvents,
  referrals,
  session,
  supportTickets,
  trialAccess,
  user,
  userRoles,
} from "../db/schema";
import { type AuditEntry, listAuditOf } from "./audit.server";
import { OPERATOR_ROLE } from "./operators.server";
import { moneyOfOrders } from "./tables/orders.server";

const iso = (d: Date | null | undefined) => d?.toISOString() ?? null;
const item = (i: { id: string; name: string; kind: string; state: string; price: number; isSubscription: boolean }) => ({
  orderId: i.id,
  name: i.name,
  kind: i.kind,
  state: i.state,
  price: i.price,
  isSubscription: i.isSubscription,
});

/**
 * Everything an operator needs about one account on /admin/customers/:id: the account, its trial,
 * what it is entitled to, its orders and receipts, its live sessions (never their tokens), its
 * tickets, who referred it and the console's actions on it. Lists are the newest 100.
 */
export async function getCustomerDetail(db: Db, userId: string, now = new Date()) {
  const [u] = await db.select().from(user).where(eq(user.id, userId)).limit(1);
  if (!u) return null;
  const [trial, entitlements, orderRows, receipts, sessions, tickets, referral, ownAffiliate, role, audit] = await Promise.all([
    db.select().from(trialAccess).where(eq(trialAccess.userId, userId)).limit(1),
    getEntitlements(db, userId, now),
    db.select().from(orders).where(eq(orders.userId, userId)).orderBy(desc(orders.createdAt), desc(orders.id)).limit(100),
    db
      .select()
      .from(paymentEvents)
      .where(eq(paymentEvents.userId, userId))
      .orderBy(desc(paymentEvents.createdAt), desc(paymentEvents.id))
      .limit(100),
    db
      .select({
        id: session.id,
        createdAt: session.createdAt,
        updatedAt: session.updatedAt,
        expiresAt: session.expiresAt,
        ipAddress: session.ipAddress,
        userAgent: session.userAgent,
      })
      .from(session)
      .where(and(eq(session.userId, userId), gt(session.expiresAt, now)))
      .orderBy(desc(session.updatedAt))
      .limit(100),
    db
      .select()
      .from(supportTickets)
      .where(eq(supportTickets.userId, userId))
      .orderBy(desc(supportTickets.createdAt), desc(supportTickets.id))
      .limit(100),
    db
      .select({ username: affiliates.username, affiliateUserId: affiliates.userId, at: referrals.createdAt })
      .from(referrals)
      .innerJoin(affiliates, eq(affiliates.userId, referrals.affiliateUserId))
      .where(eq(referrals.referredUserId, userId))
      .limit(1),
    db.select().from(affiliates).where(eq(affiliates.userId, userId)).limit(1),
    db
      .select({ role: userRoles.role })
      .from(userRoles)
      .where(and(eq(userRoles.userId, userId), eq(userRoles.role, OPERATOR_ROLE)))
      .limit(1),
    listAuditOf(db, "user", userId),
  ]);
  const money = await moneyOfOrders(
    db,
    orderRows.map((o) => o.id),
  );
  const t = trial[0];
  return {
    account: {
      id: u.id,
      email: u.email,
      name: u.name,
      companyName: u.companyName,
      emailVerified: u.emailVerified,
      createdAt: u.createdAt.toISOString(),
      operator: role.length > 0,
    },
    trial: t
      ? {
          started: t.trialStarted,
          activatedAt: iso(t.trialActivatedAt),
          endsAt: iso(t.trialEndsAt),
          selectedPlan: t.selectedPlan,
          dashboardVisits: t.dashboardAccessCount,
          lastDashboardVisit: iso(t.lastDashboardAccess),
        }
      : null,
    entitlements: {
      access: entitlements.dashboardAccess.reason,
      monthlyTotal: entitlements.monthlyTotal,
      items: [
        ...(entitlements.plan ? [item(entitlements.plan)] : []),
        ...(entitlements.scalingTier ? [item(entitlements.scalingTier)] : []),
        ...entitlements.apps.map(item),
        ...entitlements.packages.map(item),
        ...(entitlements.distributor ? [item(entitlements.distributor)] : []),
        ...entitlements.otherSubscriptions.map(item),
      ],
      addons: entitlements.addons.map((a) => ({ id: a.addonId, name: a.name, monthlyPrice: a.monthlyPrice })),
    },
    orders: orderRows.map((o) => ({
      id: o.id,
      itemName: o.itemName,
      kind: o.kind,
      status: o.status,
      amount: o.amount,
      isSubscription: o.isSubscription,
      createdAt: o.createdAt.toISOString(),
      ...money(o.id),
    })),
    receipts: receipts.map((p) => ({
      id: p.id,
      orderId: p.orderId,
      kind: p.kind,
      amount: p.amount,
      currency: p.currency,
      provider: p.provider,
      providerRef: p.providerRef,
      createdAt: p.createdAt.toISOString(),
    })),
    sessions: sessions.map((s) => ({
      id: s.id,
      createdAt: s.createdAt.toISOString(),
      lastSeenAt: s.updatedAt.toISOString(),
      expiresAt: s.expiresAt.toISOString(),
      ipAddress: s.ipAddress,
      userAgent: s.userAgent,
    })),
    tickets: tickets.map((tk) => ({
      id: tk.id,
      subject: tk.subject,
      category: tk.category,
      status: tk.status,
      createdAt: tk.createdAt.toISOString(),
    })),
    referral: referral[0]
      ? { username: referral[0].username, affiliateUserId: referral[0].affiliateUserId, at: referral[0].at.toISOString() }
      : null,
    affiliate: ownAffiliate[0] ? { username: ownAffiliate[0].username, payouts: ownAffiliate[0].stripeConnectStatus } : null,
    audit: audit satisfies AuditEntry[],
  };
}
