import { eq } from "drizzle-orm";
import type { Db } from "../db/client.server";
import { leads } from "../db/schema";
import { mailchimpConfig, type MailchimpConfig } from "../leads/mailchimp.server";
import { retryLead } from "../leads/leads.server";
import { recordAudit } from "./audit.server";

/**
 * The console's Retry on a failed (or kept) lead: the leads module puts it back to 'pending' with a
 * new delivery job, and the audit entry commits in the same transaction. False when the lead is
 * not retryable or no mailing list is configured.
 */
export async function retryLeadAsOperator(
  db: Db,
  operator: { id: string; email: string },
  leadId: string,
  config: MailchimpConfig | null = mailchimpConfig(),
): Promise<boolean> {
  if (!config) return false;
  return db.transaction(async (txRaw) => {
    const tx = txRaw as unknown as Db;
    const [before] = await tx
      .select({ deliveryStatus: leads.deliveryStatus, attempts: leads.deliveryAttempts, lastError: leads.lastError })
      .from(leads)
      .where(eq(leads.id, leadId))
      .for("update");
    if (!before || !(await retryLead(tx, leadId, config))) return false;
    await recordAudit(tx, {
      operator,
      action: "lead.retry",
      subjectType: "lead",
      subjectId: leadId,
      before,
      after: { deliveryStatus: "pending", attempts: before.attempts, lastError: null },
    });
    return true;
  });
}
