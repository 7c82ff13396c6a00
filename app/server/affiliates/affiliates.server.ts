import { and, asc, count, countDistinct, desc, eq, gte, sql } from "drizzle-orm";
import { DASHBOARD_DAYS } from "~/catalogue/affiliates";
import { defaultUsername, isReservedUsername, newUsernameError, normalizeUsername } from "~/catalogue/username";
import type { Db } from "../db/client.server";
import { affiliates, commissionLedger, referralClicks, referrals } from "../db/schema";
import { log, errorMessage } from "../log.server";

export const AFFILIATE_DASHBOARD = "/affiliate-dashboard";

export type AffiliateRow = typeof affiliates.$inferSelect;

export async function getAffiliate(db: Db, userId: string): Promise<AffiliateRow | undefined> {
  const [row] = await db.select().from(affiliates).where(eq(affiliates.userId, userId)).limit(1);
  return row;
}

export async function isUsernameTaken(db: Db, username: string): Promise<boolean> {
  const [row] = await db
    .select({ userId: affiliates.userId })
    .from(affiliates)
    .where(eq(affiliates.username, normalizeUsername(username)))
    .limit(1);
  return Boolean(row);
}

/** A free default username (spec section 5) for these names; tries a few random numbers. */
export async function pickDefaultUsername(
  db: Db,
  firstName: string | null | undefined,
  lastName: string | null | undefined,
  random: () => number = Math.random,
): Promise<string> {
  let candidate = defaultUsername(firstName, lastName, random);
  for (let attempt = 0; attempt < 8; attempt++) {
    if (!isReservedUsername(candidate) && !(await isUsernameTaken(db, candidate))) return candidate;
    candidate = defaultUsername(firstName, lastName, random);
  }
  return candidate;
}

export type CreateAffiliateResult =
  | { ok: true; affiliate: AffiliateRow }
  | { ok: false; reason: "invalid"; message: string }
  | { ok: false; reason: "taken" | "already_affiliate" };

/**
 * Spec section 7 'insert affiliates': user_id, username, business_name, stripe_connect_status
 * 'pending'. The unique username and the user_id primary key decide races: a loser gets 'taken'
 * (or 'already_affiliate'), never a 500.
 */
export async function createAffiliate(
  db: Db,
  userId: string,
  input: { username: string; businessName?: string | null },
): Promise<CreateAffiliateResult> {
  const username = normalizeUsername(input.username);
  // A new row: reserved names are refused here too (the verification link carries a username).
  const message = newUsernameError(username);
  if (message) return { ok: false, reason: "invalid", message };
  const businessName = input.businessName?.trim() || null;
  if (await getAffiliate(db, userId)) return { ok: false, reason: "already_affiliate" };
  const [row] = await db
    .insert(affiliates)
    .values({ userId, username, businessName, stripeConnectStatus: "pending" })
    .onConflictDoNothing()
    .returning();
  if (row) {
    log.info("affiliate created", { username });
    return { ok: true, affiliate: row };
  }
  return (await getAffiliate(db, userId)) ? { ok: false, reason: "already_affiliate" } : { ok: false, reason: "taken" };
}

/**
 * Called by Better Auth when a verification link is opened (`afterEmailVerification`): when the
 * link's callback is the affiliate dashboard with a username, the affiliates row is created now.
 * A username taken in the meantime leaves the user without a row: the dashboard then sends them
 * to the short form with their choice filled in.
 */
export async function completeAffiliateFromVerification(
  db: Db,
  user: { id: string; companyName?: unknown },
  request: Request | undefined,
): Promise<void> {
  if (!request) return;
  try {
    const callback = new URL(request.url).searchParams.get("callbackURL");
    if (!callback) return;
    const target = new URL(callback, "http://internal.invalid");
    if (target.origin !== "http://internal.invalid" || target.pathname !== AFFILIATE_DASHBOARD) return;
    const username = target.searchParams.get("username");
    if (!username) return;
    const businessName = typeof user.companyName === "string" ? user.companyName : null;
    const created = await createAffiliate(db, user.id, { username, businessName });
    if (!created.ok) log.info("affiliate not created at verification", { reason: created.reason });
  } catch (error) {
    log.error("affiliate creation at verification failed", { error: errorMessage(error) });
  }
}

// ---------------------------------------------------------------------------------------------
// The affiliate dashboard: every query is filtered by the signed-in affiliate's own user id.

const LEDGER_LIMIT = 100;

export interface AffiliateDay {
  date: string;
  clicks: number;
  signups: number;
  commission: number;
}

interface LedgerEntry {
  id: number;
  createdAt: string;
  kind: "commission" | "reversal";
  amount: number;
  /** 'held': the payment is disputed, so the entry is not payable (nor in `pending`) until the bank decides. */
  status: "pending" | "paid" | "held";
  customer: string;
}

export interface AffiliateStats {
  clicks: number;
  signups: number;
  payingCustomers: number;
  pending: number;
  paid: number;
}

export interface AffiliateDashboard {
  stats: AffiliateStats;
  days: AffiliateDay[];
  ledger: LedgerEntry[];
}

const num = (v: unknown) => Number(v ?? 0);
const dayOf = (column: unknown) => sql<string>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD')`;
const isoDay = (d: Date) => d.toISOString().slice(0, 10);

export async function getAffiliateStats(db: Db, affiliateUserId: string): Promise<AffiliateStats> {
  const [clicks] = await db
    .select({ n: count() })
    .from(referralClicks)
    .where(eq(referralClicks.affiliateUserId, affiliateUserId));
  const [signups] = await db.select({ n: count() }).from(referrals).where(eq(referrals.affiliateUserId, affiliateUserId));
  const [money] = await db
    .select({
      paying: countDistinct(sql`case when ${commissionLedger.kind} = 'commission' then ${commissionLedger.referredUserId} end`),
      pending: sql<string>`coalesce(sum(case when ${commissionLedger.status} = 'pending' then ${commissionLedger.amount} end), 0)`,
      paid: sql<string>`coalesce(sum(case when ${commissionLedger.status} = 'paid' then ${commissionLedger.amount} end), 0)`,
    })
    .from(commissionLedger)
    .where(eq(commissionLedger.affiliateUserId, affiliateUserId));
  return {
    clicks: num(clicks?.n),
    signups: num(signups?.n),
    payingCustomers: num(money?.paying),
    pending: num(money?.pending),
    paid: num(money?.paid),
  };
}

export async function getAffiliateDashboard(db: Db, affiliateUserId: string, now = new Date()): Promise<AffiliateDashboard> {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - (DASHBOARD_DAYS - 1)));
  const [stats, clickDays, signupDays, commissionDays, ledgerRows, referred] = await Promise.all([
    getAffiliateStats(db, affiliateUserId),
    db
      .select({ day: dayOf(referralClicks.createdAt), n: count() })
      .from(referralClicks)
      .where(and(eq(referralClicks.affiliateUserId, affiliateUserId), gte(referralClicks.createdAt, start)))
      .groupBy(sql`1`),
    db
      .select({ day: dayOf(referrals.createdAt), n: count() })
      .from(referrals)
      .where(and(eq(referrals.affiliateUserId, affiliateUserId), gte(referrals.createdAt, start)))
      .groupBy(sql`1`),
    db
      .select({ day: dayOf(commissionLedger.createdAt), total: sql<string>`sum(${commissionLedger.amount})` })
      .from(commissionLedger)
      .where(and(eq(commissionLedger.affiliateUserId, affiliateUserId), gte(commissionLedger.createdAt, start)))
      .groupBy(sql`1`),
    db
      .select()
      .from(commissionLedger)
      .where(eq(commissionLedger.affiliateUserId, affiliateUserId))
      .orderBy(desc(commissionLedger.createdAt), desc(commissionLedger.id))
      .limit(LEDGER_LIMIT),
    db
      .select({ userId: referrals.referredUserId })
      .from(referrals)
      .where(eq(referrals.affiliateUserId, affiliateUserId))
      .orderBy(asc(referrals.createdAt), asc(referrals.referredUserId)),
  ]);

  const byDay = new Map<string, AffiliateDay>();
  for (let i = 0; i < DASHBOARD_DAYS; i++) {
    const date = isoDay(new Date(start.getTime() + i * 24 * 60 * 60 * 1000));
    byDay.set(date, { date, clicks: 0, signups: 0, commission: 0 });
  }
  for (const r of clickDays) {
    const d = byDay.get(r.day);
    if (d) d.clicks = num(r.n);
  }
  for (const r of signupDays) {
    const d = byDay.get(r.day);
    if (d) d.signups = num(r.n);
  }
  for (const r of commissionDays) {
    const d = byDay.get(r.day);
    if (d) d.commission = num(r.total);
  }

  // Affiliates see their customers as "Customer 1, 2, …" (order of sign-up), never their emails.
  const label = new Map(referred.map((r, i) => [r.userId, `Customer ${i + 1}`]));
  const ledger: LedgerEntry[] = ledgerRows.map((r) => ({
    id: r.id,
    createdAt: r.createdAt.toISOString(),
    kind: r.kind === "reversal" ? "reversal" : "commission",
    amount: r.amount,
    status: r.status === "paid" ? "paid" : r.status === "held" ? "held" : "pending",
    customer: label.get(r.referredUserId) ?? "Customer",
  }));

  return { stats, days: [...byDay.values()], ledger };
}
