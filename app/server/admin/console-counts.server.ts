import { and, count, desc, isNotNull, isNull } from "drizzle-orm";
import type { Db } from "../db/client.server";
import { adminAudit, affiliates, leads, mailOutbox, orders, supportTickets, user } from "../db/schema";
import { toAuditEntry } from "./audit.server";

const of = (rows: { status: string; n: number }[], status?: string) =>
  rows.filter((r) => status === undefined || r.status === status).reduce((s, r) => s + Number(r.n), 0);

/** The console overview's counts (each a link to its filtered table) and the latest operator actions. */
export async function getConsoleOverview(db: Db) {
  const [customers, orderCounts, leadCounts, ticketCounts, affiliateCount, recent, failedEmails] = await Promise.all([
    db.select({ n: count() }).from(user),
    db.select({ status: orders.status, n: count() }).from(orders).groupBy(orders.status),
    db.select({ status: leads.deliveryStatus, n: count() }).from(leads).groupBy(leads.deliveryStatus),
    db.select({ status: supportTickets.status, n: count() }).from(supportTickets).groupBy(supportTickets.status),
    db.select({ n: count() }).from(affiliates),
    db.select().from(adminAudit).orderBy(desc(adminAudit.at), desc(adminAudit.id)).limit(5),
    // The console's "failed" emails (tables/emails.server.ts), through the partial index on failed_at.
    db
      .select({ n: count() })
      .from(mailOutbox)
      .where(and(isNotNull(mailOutbox.failedAt), isNull(mailOutbox.sentAt))),
  ]);
  return {
    counts: {
      customers: Number(customers[0]?.n ?? 0),
      orders: of(orderCounts),
      paidOrders: of(orderCounts, "paid"),
      leads: of(leadCounts),
      failedLeads: of(leadCounts, "failed"),
      tickets: of(ticketCounts),
      openTickets: of(ticketCounts, "open"),
      affiliates: Number(affiliateCount[0]?.n ?? 0),
      failedEmails: Number(failedEmails[0]?.n ?? 0),
    },
    recentAudit: recent.map(toAuditEntry),
  };
}
