import { and, count, eq } from "drizzle-orm";
import type { DashboardAccess } from "~/catalogue/entitlements";
import { TABLE_SPECS } from "~/lib/admin/tables";
import { getEntitlementsOf } from "../../billing/entitlements.server";
import { user } from "../../db/schema";
import { type AdminTable, containsAny, inDayRange, orderOf, total } from "./query.server";

export interface CustomerRow {
  id: string;
  email: string;
  name: string;
  companyName: string | null;
  emailVerified: boolean;
  createdAt: string;
  trial: "not-started" | "active" | "ended";
  trialEndsAt: string | null;
  /** The plan or scaling tier running now, with its state. */
  subscription: { planName: string | null; status: string } | null;
  access: DashboardAccess["reason"];
  /** Cents per month of everything running. */
  monthlyTotal: number;
}

export const customersTable: AdminTable<CustomerRow> = {
  spec: TABLE_SPECS.customers,
  async query(db, params, page) {
    const where = and(
      containsAny(params.q, [user.email, user.name, user.companyName, user.id]),
      params.filters.verified ? eq(user.emailVerified, params.filters.verified === "yes") : undefined,
      ...inDayRange(user.createdAt, params.from, params.to, params.timeZone),
    );
    const [rows, n] = await Promise.all([
      db
        .select()
        .from(user)
        .where(where)
        .orderBy(...orderOf(params, { createdAt: user.createdAt, email: user.email, name: user.name }, user.id))
        .limit(page.limit)
        .offset(page.offset),
      db.select({ n: count() }).from(user).where(where),
    ]);
    // The page's accounts' entitlements in one batch of reads.
    const entitlements = await getEntitlementsOf(
      db,
      rows.map((u) => u.id),
      new Date(),
    );
    return {
      total: total(n),
      rows: rows.map((u) => {
        const e = entitlements.get(u.id)!;
        const trial = e.dashboardTrial;
        const current = e.plan ?? e.scalingTier;
        return {
          id: u.id,
          email: u.email,
          name: u.name,
          companyName: u.companyName,
          emailVerified: u.emailVerified,
          createdAt: u.createdAt.toISOString(),
          trial: trial.state,
          trialEndsAt:
            (trial.state === "active" ? trial.endsAt : trial.state === "ended" ? trial.endedAt : null)?.toISOString() ?? null,
          subscription: current ? { planName: current.name, status: current.state } : null,
          access: e.dashboardAccess.reason,
          monthlyTotal: e.monthlyTotal,
        };
      }),
    };
  },
  csv: [
    { header: "id", value: (r) => r.id },
    { header: "email", value: (r) => r.email },
    { header: "name", value: (r) => r.name },
    { header: "company", value: (r) => r.companyName },
    { header: "email_verified", value: (r) => r.emailVerified },
    { header: "created_at", value: (r) => r.createdAt },
    { header: "trial", value: (r) => r.trial },
    { header: "trial_ends_at", value: (r) => r.trialEndsAt },
    { header: "plan", value: (r) => r.subscription?.planName },
    { header: "plan_status", value: (r) => r.subscription?.status },
    { header: "dashboard_access", value: (r) => r.access },
    { header: "monthly_cents", value: (r) => r.monthlyTotal },
  ],
};
