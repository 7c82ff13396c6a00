import { and, eq, sql } from "drizzle-orm";
import type { Db } from "../db/client.server";
import { leadDeliveryAttempts, leads } from "../db/leads-schema";
import { log, errorMessage } from "../log.server";
import { deliverToMailchimp, type MailchimpConfig, mailchimpConfig, PermanentDeliveryError } from "./mailchimp.server";

export interface DeliveryAttempt {
  /** pg-boss's retry count of this run (0 on the first run). */
  retryCount: number;
  /** The job's retry limit: when retryCount reaches it, this is the last run. */
  retryLimit: number;
}

export type DeliveryOutcome = "delivered" | "failed" | "skipped" | "retry";

const clip = (s: string) => s.slice(0, 1000);

/**
 * Delivers one lead (the 'deliver-lead' job's handler). Idempotent: a lead that is no longer
 * 'pending' is left alone, and Mailchimp is written by upsert. A temporary failure is recorded on the
 * lead and rethrown so the queue retries with backoff; a permanent one (or the last retry) ends the
 * lead as 'failed' with the reason.
 */
export async function deliverLead(
  db: Db,
  leadId: string,
  attempt: DeliveryAttempt,
  config: MailchimpConfig | null = mailchimpConfig(),
): Promise<DeliveryOutcome> {
  const [lead] = await db.select().from(leads).where(eq(leads.id, leadId)).limit(1);
  if (!lead || lead.deliveryStatus !== "pending") return "skipped";
  if (!config) {
    // The mailing list was switched off after the lead was taken: keep it, as if it came in now.
    await db
      .update(leads)
      .set({ deliveryStatus: "kept" })
      .where(and(eq(leads.id, leadId), eq(leads.deliveryStatus, "pending")));
    return "skipped";
  }

  const attemptFields = { deliveryAttempts: sql`${leads.deliveryAttempts} + 1`, lastAttemptAt: new Date() };
  try {
    await deliverToMailchimp(config, lead);
  } catch (error) {
    const reason = clip(errorMessage(error));
    const permanent = error instanceof PermanentDeliveryError;
    const last = attempt.retryCount >= attempt.retryLimit;
    const status = permanent || last ? "failed" : "pending";
    await db.insert(leadDeliveryAttempts).values({ leadId, outcome: status === "failed" ? "failed" : "retry", answer: reason });
    await db
      .update(leads)
      .set({
        ...attemptFields,
        lastError: last && !permanent ? `${reason} (gave up after ${attempt.retryCount + 1} attempts)` : reason,
        deliveryStatus: status,
      })
      .where(and(eq(leads.id, leadId), eq(leads.deliveryStatus, "pending")));
    if (status === "failed") {
      log.warn("lead delivery failed", { leadId, reason, attempts: attempt.retryCount + 1 });
      return "failed";
    }
    log.info("lead delivery will be retried", { leadId, reason, retryCount: attempt.retryCount });
    throw error;
  }
  await db.insert(leadDeliveryAttempts).values({ leadId, outcome: "delivered", answer: "Accepted by the mailing list" });
  await db
    .update(leads)
    .set({ ...attemptFields, lastError: null, deliveryStatus: "delivered", deliveredAt: new Date() })
    .where(and(eq(leads.id, leadId), eq(leads.deliveryStatus, "pending")));
  return "delivered";
}
