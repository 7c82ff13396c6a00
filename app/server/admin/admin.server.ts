import { and, count, desc, eq, inArray, sql } from "drizzle-orm";
import { data, redirect } from "react-router";
import { getUser, type SessionUser } from "../auth/session.server";
import { db as currentDb, type Db } from "../db/client.server";
import {
  affiliates,
  commissionLedger,
  leads,
  orders,
  paymentDisputes,
  paymentEvents,
  referralClicks,
  referrals,
  user,
  userRoles,
} from "../db/schema";
import type { DashboardAccess } from "~/catalogue/entitlements";
import { getEntitlementsOf } from "../billing/entitlements.server";
import { env } from "../env.server";
import { retryLead } from "../leads/leads.server";
import { OPERATOR_ROLE } from "./operators.server";
import { log } from "../log.server";

/**
 * The operator's /admin (docs/decisions/0011-affiliates.md, and the decision on granting operators
 * from /admin). The role is 'operator' in user_roles (granted from /admin → Operators or by
 * `npm run grant-operator -- <email>`) OR a verified email listed in OPERATOR_EMAILS, checked live
 * at every request, so removing an address from the list revokes it at once. No sign-up path
 * writes user_roles.
 */
export { grantOperator, OPERATOR_ROLE } from "./operators.server";
const TWO_FACTOR_SETTINGS = "/dashboard/settings";
export const ADMIN_LIST_LIMIT = 100;

export async function isOperator(db: Db, u: Pick<SessionUser, "id" | "email" | "emailVerified">): Promise<boolean> {
  if (u.emailVerified && env().OPERATOR_EMAIL_LIST.includes(u.email.trim().toLowerCase())) return true;
  const [row] = await db
    .select({ role: userRoles.role })
    .from(userRoles)
    .where(and(eq(userRoles.userId, u.id), eq(userRoles.role, OPERATOR_ROLE)))
    .limit(1);
  return Boolean(row);
}

/**
 * First line of every /admin loader and action, in place of requireUser: the same session lookup,
 * but anyone who is not a signed-in operator (signed out included) gets the site's 404, status and
 * "404 not found" log line alike, for pages and `.data` requests. requireUser's redirect to
 * /auth?next=/admin would tell a visitor the page exists.
 */
export async function requireOperator(request: Request, db: Db = currentDb()): Promise<SessionUser> {
  const u = await getUser(request);
  if (u && (await isOperator(db, u))) {
    // An operator's session must have been opened with a second factor (docs/decisions/0073-two-factor.md).
    // Without one the operator is told what to do on Settings: the page exists for them.
    if (!u.twoFactorEnabled) throw redirect(`${TWO_FACTOR_SETTINGS}?two-factor=required`);
    if (!u.sessionTwoFactorVerified) throw redirect(`${TWO_FACTOR_SETTINGS}?two-factor=sign-in-again`);
    return u;
  }
  const url = new URL(request.url);
  log.warn("404 not found", { path: url.pathname, referer: request.headers.get("referer") ?? undefined });
  throw data(null, { status: 404 });
}

export interface AdminLead {
  id: string;
  name: string;
  email: string;
  source: string;
  createdAt: string;
  deliveryStatus: string;
  attempts: number;
  lastError: string | null;
  /** Whether the visitor ticked the marketing box; the words and the time when they did. */
  marketingConsent: boolean;
  marketingConsentText: string | null;
  marketingConsentAt: string | null;
}

export async function listLeads(db: Db, limit = ADMIN_LIST_LIMIT): Promise<AdminLead[]> {
  const rows = await db.select().from(leads).orderBy(desc(leads.createdAt), desc(leads.id)).limit(limit);
  return rows.map((r) => ({
    id: r.id,
    name: [r.firstName, r.lastName].filter(Boolean).join(" "),
    email: r.email,
    source: r.source,
    createdAt: r.createdAt.toISOString(),
    deliveryStatus: r.deliveryStatus,
    attempts: r.deliveryAttempts,
    lastError: r.lastError,
    marketingConsent: r.marketingConsent,
    marketingConsentText: r.marketingConsentText,
    marketingConsentAt: r.marketingConsentAt?.toISOString() ?? null,
  }));
}

export interface AdminOrder {
  id: string;
  email: string;
  kind: string;
  itemName: string;
  /** Cents; monthly for a subscription. */
  amount: number;
  /** Cents charged once with the first payment (the distributor's setup fee). */
  setupFee: number;
  isSubscription: boolean;
  trialDays: number;
  status: string;
  provider: string;
  createdAt: string;
  paidAt: string | null;
  /** Cents received for the order (every payment event), and returned (refunds, lost disputes). */
  paid: number;
  refunded: number;
}

export async function listOrders(db: Db, limit = ADMIN_LIST_LIMIT): Promise<AdminOrder[]> {
  const rows = await db
    .select({ order: orders, email: user.email })
    .from(orders)
    .innerJoin(user, eq(user.id, orders.userId))
    .orderBy(desc(orders.createdAt), desc(orders.id))
    .limit(limit);
  // The money of the listed orders only (payment_events grows with every payment of every customer).
  const ids = rows.map((r) => r.order.id);
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
  const moneyOf = new Map(money.map((m) => [m.orderId, m]));
  return rows.map(({ order, email }) => ({
    id: order.id,
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
    paid: Number(moneyOf.get(order.id)?.paid ?? 0),
    refunded: Number(moneyOf.get(order.id)?.refunded ?? 0),
  }));
}

export interface AdminDispute {
  id: string;
  email: string;
  orderId: string | null;
  itemName: string | null;
  amount: number;
  /** Cents the provider charged for the dispute. */
  fee: number;
  reason: string | null;
  status: string;
  providerStatus: string;
  evidenceDueBy: string | null;
  createdAt: string;
}

/** Chargebacks, newest first: open ones need evidence in the provider's dashboard before their deadline. */
export async function listDisputes(db: Db, limit = ADMIN_LIST_LIMIT): Promise<AdminDispute[]> {
  const rows = await db
    .select({ d: paymentDisputes, email: user.email, itemName: orders.itemName })
    .from(paymentDisputes)
    .innerJoin(user, eq(user.id, paymentDisputes.userId))
    .leftJoin(orders, eq(orders.id, paymentDisputes.orderId))
    .orderBy(desc(paymentDisputes.createdAt), desc(paymentDisputes.id))
    .limit(limit);
  return rows.map(({ d, email, itemName }) => ({
    id: d.id,
    email,
    orderId: d.orderId,
    itemName,
    amount: d.amount,
    fee: d.fee,
    reason: d.reason,
    status: d.status,
    providerStatus: d.providerStatus,
    evidenceDueBy: d.evidenceDueBy?.toISOString() ?? null,
    createdAt: d.createdAt.toISOString(),
  }));
}

export interface AdminCustomer {
  id: string;
  email: string;
  name: string;
  emailVerified: boolean;
  createdAt: string;
  trialStarted: boolean;
  trialEndsAt: string | null;
  /** The plan or scaling tier the account has now (its entitlements), with its state. */
  subscription: { planName: string | null; status: string; currentPeriodEnd: string | null } | null;
  /** Whether the dashboard is open, and why (the gate's answer). */
  access: DashboardAccess["reason"];
  /** Cents per month of everything running. */
  monthlyTotal: number;
}

export async function listCustomers(db: Db, limit = ADMIN_LIST_LIMIT, now = new Date()): Promise<AdminCustomer[]> {
  const rows = await db.select().from(user).orderBy(desc(user.createdAt), desc(user.id)).limit(limit);
  // Every listed account's entitlements in one batch of reads.
  const entitlements = await getEntitlementsOf(
    db,
    rows.map((u) => u.id),
    now,
  );
  return rows.map((u) => {
    const e = entitlements.get(u.id)!;
    const trial = e.dashboardTrial;
    const current = e.plan ?? e.scalingTier;
    return {
      id: u.id,
      email: u.email,
      name: u.name,
      emailVerified: u.emailVerified,
      createdAt: u.createdAt.toISOString(),
      trialStarted: trial.state !== "not-started",
      trialEndsAt:
        (trial.state === "active" ? trial.endsAt : trial.state === "ended" ? trial.endedAt : null)?.toISOString() ?? null,
      subscription: current
        ? {
            planName: current.name,
            status: current.state,
            currentPeriodEnd: (current.renewsAt ?? current.endsAt)?.toISOString() ?? null,
          }
        : null,
      access: e.dashboardAccess.reason,
      monthlyTotal: e.monthlyTotal,
    };
  });
}

export interface AdminAffiliate {
  userId: string;
  username: string;
  businessName: string | null;
  email: string;
  stripeConnectStatus: string;
  clicks: number;
  signups: number;
  pending: number;
  paid: number;
}

export async function listAffiliates(db: Db, limit = ADMIN_LIST_LIMIT): Promise<AdminAffiliate[]> {
  const clicks = db
    .select({ id: referralClicks.affiliateUserId, n: count().as("clicks_n") })
    .from(referralClicks)
    .groupBy(referralClicks.affiliateUserId)
    .as("c");
  const signups = db
    .select({ id: referrals.affiliateUserId, n: count().as("signups_n") })
    .from(referrals)
    .groupBy(referrals.affiliateUserId)
    .as("s");
  const money = db
    .select({
      id: commissionLedger.affiliateUserId,
      pending:
        sql<string>`coalesce(sum(case when ${commissionLedger.status} = 'pending' then ${commissionLedger.amount} end), 0)`.as(
          "pending_sum",
        ),
      paid: sql<string>`coalesce(sum(case when ${commissionLedger.status} = 'paid' then ${commissionLedger.amount} end), 0)`.as(
        "paid_sum",
      ),
    })
    .from(commissionLedger)
    .groupBy(commissionLedger.affiliateUserId)
    .as("m");
  const rows = await db
    .select({
      a: affiliates,
      email: user.email,
      clicks: clicks.n,
      signups: signups.n,
      pending: money.pending,
      paid: money.paid,
    })
    .from(affiliates)
    .innerJoin(user, eq(user.id, affiliates.userId))
    .leftJoin(clicks, eq(clicks.id, affiliates.userId))
    .leftJoin(signups, eq(signups.id, affiliates.userId))
    .leftJoin(money, eq(money.id, affiliates.userId))
    .orderBy(desc(affiliates.createdAt), affiliates.username)
    .limit(limit);
  return rows.map((r) => ({
    userId: r.a.userId,
    username: r.a.username,
    businessName: r.a.businessName,
    email: r.email,
    stripeConnectStatus: r.a.stripeConnectStatus,
    clicks: Number(r.clicks ?? 0),
    signups: Number(r.signups ?? 0),
    pending: Number(r.pending ?? 0),
    paid: Number(r.paid ?? 0),
  }));
}

export interface AdminOverview {
  leads: AdminLead[];
  orders: AdminOrder[];
  disputes: AdminDispute[];
  customers: AdminCustomer[];
  affiliates: AdminAffiliate[];
}

export async function getAdminOverview(db: Db): Promise<AdminOverview> {
  const [l, o, d, c, a] = await Promise.all([
    listLeads(db),
    listOrders(db),
    listDisputes(db),
    listCustomers(db),
    listAffiliates(db),
  ]);
  return { leads: l, orders: o, disputes: d, customers: c, affiliates: a };
}

/**
 * The admin's Retry button: the leads module puts a failed lead back to 'pending' with a new
 * delivery job in one transaction. False when the lead is not retryable or no mailing list is set.
 */
export async function retryLeadDelivery(db: Db, leadId: string): Promise<boolean> {
  return retryLead(db, leadId);
}
