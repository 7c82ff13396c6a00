import { and, count, eq, sql } from "drizzle-orm";
import { TABLE_SPECS } from "~/lib/admin/tables";
import { affiliates, commissionLedger, referralClicks, referrals, user } from "../../db/schema";
import { type AdminTable, containsAny, inDayRange, orderOf, total } from "./query.server";

export interface AffiliateListRow {
  userId: string;
  username: string;
  businessName: string | null;
  email: string;
  stripeConnectStatus: string;
  createdAt: string;
  clicks: number;
  signups: number;
  /** Cents of commission pending and paid. */
  pending: number;
  paid: number;
}

export const affiliatesTable: AdminTable<AffiliateListRow> = {
  spec: TABLE_SPECS.affiliates,
  async query(db, params, page) {
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
    const where = and(
      containsAny(params.q, [affiliates.username, affiliates.businessName, user.email]),
      params.filters.payouts ? eq(affiliates.stripeConnectStatus, params.filters.payouts) : undefined,
      ...inDayRange(affiliates.createdAt, params.from, params.to, params.timeZone),
    );
    const [rows, n] = await Promise.all([
      db
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
        .where(where)
        .orderBy(
          ...orderOf(
            params,
            {
              createdAt: affiliates.createdAt,
              username: affiliates.username,
              clicks: sql`coalesce(${clicks.n}, 0)`,
              signups: sql`coalesce(${signups.n}, 0)`,
              pending: sql`coalesce(${money.pending}, 0)`,
              paid: sql`coalesce(${money.paid}, 0)`,
            },
            affiliates.userId,
          ),
        )
        .limit(page.limit)
        .offset(page.offset),
      db.select({ n: count() }).from(affiliates).innerJoin(user, eq(user.id, affiliates.userId)).where(where),
    ]);
    return {
      total: total(n),
      rows: rows.map((r) => ({
        userId: r.a.userId,
        username: r.a.username,
        businessName: r.a.businessName,
        email: r.email,
        stripeConnectStatus: r.a.stripeConnectStatus,
        createdAt: r.a.createdAt.toISOString(),
        clicks: Number(r.clicks ?? 0),
        signups: Number(r.signups ?? 0),
        pending: Number(r.pending ?? 0),
        paid: Number(r.paid ?? 0),
      })),
    };
  },
  csv: [
    { header: "user_id", value: (r) => r.userId },
    { header: "username", value: (r) => r.username },
    { header: "email", value: (r) => r.email },
    { header: "business", value: (r) => r.businessName },
    { header: "payout_account", value: (r) => r.stripeConnectStatus },
    { header: "created_at", value: (r) => r.createdAt },
    { header: "clicks", value: (r) => r.clicks },
    { header: "signups", value: (r) => r.signups },
    { header: "pending_cents", value: (r) => r.pending },
    { header: "paid_cents", value: (r) => r.paid },
  ],
};
