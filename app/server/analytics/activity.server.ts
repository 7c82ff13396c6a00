import { and, count, eq, gte, sql } from "drizzle-orm";
import type { Db } from "~/server/db/client.server";
import { activityEvents, supportTickets, trialAccess } from "~/server/db/schema";

import { ANALYTICS_DAYS } from "~/catalogue/dashboard";

interface DayRow {
  /** YYYY-MM-DD (UTC). */
  date: string;
  total: number;
  /** Events of that day per kind. */
  byKind: Record<string, number>;
}

export interface AccountAnalytics {
  days: DayRow[];
  kinds: string[];
  totalEvents: number;
  dashboardVisits: number;
  ticketsOpened: number;
  /** Null when no trial was started. */
  trialDaysLeft: number | null;
}

const dayKey = (d: Date) => d.toISOString().slice(0, 10);

/**
 * The account's own activity for the last 30 UTC days (today included), one row per day even
 * when it is empty so the chart's x axis is continuous, plus the headline numbers.
 */
export async function getAccountAnalytics(db: Db, userId: string, now = new Date()): Promise<AccountAnalytics> {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - (ANALYTICS_DAYS - 1)));
  const day = sql<string>`to_char(${activityEvents.createdAt} at time zone 'UTC', 'YYYY-MM-DD')`;
  const [grouped, [tickets], [trial], [visits]] = await Promise.all([
    db
      .select({ day, kind: activityEvents.kind, n: count() })
      .from(activityEvents)
      .where(and(eq(activityEvents.userId, userId), gte(activityEvents.createdAt, start)))
      .groupBy(day, activityEvents.kind),
    db.select({ n: count() }).from(supportTickets).where(eq(supportTickets.userId, userId)),
    db.select().from(trialAccess).where(eq(trialAccess.userId, userId)).limit(1),
    // Every visit ever, not trial_access.dashboard_access_count: that counter stops once a trial starts.
    db
      .select({ n: count() })
      .from(activityEvents)
      .where(and(eq(activityEvents.userId, userId), eq(activityEvents.kind, "dashboard_visit"))),
  ]);

  const days: DayRow[] = [];
  const index = new Map<string, DayRow>();
  for (let i = 0; i < ANALYTICS_DAYS; i++) {
    const row: DayRow = { date: dayKey(new Date(start.getTime() + i * 86_400_000)), total: 0, byKind: {} };
    days.push(row);
    index.set(row.date, row);
  }
  const kinds = new Set<string>();
  let totalEvents = 0;
  for (const g of grouped) {
    const row = index.get(g.day);
    if (!row) continue;
    const n = Number(g.n);
    row.byKind[g.kind] = (row.byKind[g.kind] ?? 0) + n;
    row.total += n;
    totalEvents += n;
    kinds.add(g.kind);
  }

  let trialDaysLeft: number | null = null;
  if (trial?.trialStarted && trial.trialEndsAt) {
    trialDaysLeft = Math.max(0, Math.ceil((trial.trialEndsAt.getTime() - now.getTime()) / 86_400_000));
  }

  return {
    days,
    kinds: [...kinds].sort(),
    totalEvents,
    dashboardVisits: Number(visits?.n ?? 0),
    ticketsOpened: Number(tickets?.n ?? 0),
    trialDaysLeft,
  };
}
