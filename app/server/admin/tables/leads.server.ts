import { and, count, eq } from "drizzle-orm";
import { TABLE_SPECS } from "~/lib/admin/tables";
import { leads } from "../../db/schema";
import { type AdminTable, containsAny, inDayRange, orderOf, total } from "./query.server";

export interface LeadListRow {
  id: string;
  name: string;
  email: string;
  phone: string;
  company: string;
  source: string;
  createdAt: string;
  deliveryStatus: string;
  attempts: number;
  lastError: string | null;
  marketingConsent: boolean;
}

export const leadsTable: AdminTable<LeadListRow> = {
  spec: TABLE_SPECS.leads,
  async query(db, params, page) {
    const where = and(
      containsAny(params.q, [leads.firstName, leads.lastName, leads.email, leads.phone, leads.company, leads.id]),
      params.filters.delivery ? eq(leads.deliveryStatus, params.filters.delivery) : undefined,
      params.filters.consent ? eq(leads.marketingConsent, params.filters.consent === "yes") : undefined,
      ...inDayRange(leads.createdAt, params.from, params.to, params.timeZone),
    );
    const [rows, n] = await Promise.all([
      db
        .select()
        .from(leads)
        .where(where)
        .orderBy(
          ...orderOf(params, { createdAt: leads.createdAt, email: leads.email, attempts: leads.deliveryAttempts }, leads.id),
        )
        .limit(page.limit)
        .offset(page.offset),
      db.select({ n: count() }).from(leads).where(where),
    ]);
    return {
      total: total(n),
      rows: rows.map((r) => ({
        id: r.id,
        name: [r.firstName, r.lastName].filter(Boolean).join(" "),
        email: r.email,
        phone: r.phone,
        company: r.company,
        source: r.source,
        createdAt: r.createdAt.toISOString(),
        deliveryStatus: r.deliveryStatus,
        attempts: r.deliveryAttempts,
        lastError: r.lastError,
        marketingConsent: r.marketingConsent,
      })),
    };
  },
  csv: [
    { header: "id", value: (r) => r.id },
    { header: "created_at", value: (r) => r.createdAt },
    { header: "name", value: (r) => r.name },
    { header: "email", value: (r) => r.email },
    { header: "phone", value: (r) => r.phone },
    { header: "company", value: (r) => r.company },
    { header: "source", value: (r) => r.source },
    { header: "marketing_consent", value: (r) => r.marketingConsent },
    { header: "delivery_status", value: (r) => r.deliveryStatus },
    { header: "delivery_attempts", value: (r) => r.attempts },
    { header: "last_error", value: (r) => r.lastError },
  ],
};
