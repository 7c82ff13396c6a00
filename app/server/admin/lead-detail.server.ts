import { desc, eq } from "drizzle-orm";
import type { Db } from "../db/client.server";
import { leadDeliveryAttempts, leads } from "../db/schema";
import { type AuditEntry, listAuditOf } from "./audit.server";

const iso = (d: Date | null) => d?.toISOString() ?? null;

/** One lead for /admin/leads/:id: what the visitor sent, their consent, each delivery attempt and its answer. */
export async function getLeadDetail(db: Db, leadId: string) {
  const [lead] = await db.select().from(leads).where(eq(leads.id, leadId)).limit(1);
  if (!lead) return null;
  const [attempts, audit] = await Promise.all([
    db
      .select()
      .from(leadDeliveryAttempts)
      .where(eq(leadDeliveryAttempts.leadId, leadId))
      .orderBy(desc(leadDeliveryAttempts.at), desc(leadDeliveryAttempts.id))
      .limit(100),
    listAuditOf(db, "lead", leadId),
  ]);
  return {
    lead: {
      id: lead.id,
      firstName: lead.firstName,
      lastName: lead.lastName,
      email: lead.email,
      phone: lead.phone,
      company: lead.company,
      projectType: lead.projectType,
      budget: lead.budget,
      timeframe: lead.timeframe,
      message: lead.message,
      preferredTime: lead.preferredTime,
      source: lead.source,
      userId: lead.userId,
      marketingConsent: lead.marketingConsent,
      marketingConsentText: lead.marketingConsentText,
      marketingConsentAt: iso(lead.marketingConsentAt),
      deliveryStatus: lead.deliveryStatus,
      deliveryAttempts: lead.deliveryAttempts,
      lastError: lead.lastError,
      lastAttemptAt: iso(lead.lastAttemptAt),
      deliveredAt: iso(lead.deliveredAt),
      createdAt: lead.createdAt.toISOString(),
    },
    attempts: attempts.map((a) => ({ id: a.id, outcome: a.outcome, answer: a.answer, at: a.at.toISOString() })),
    audit: audit satisfies AuditEntry[],
  };
}
