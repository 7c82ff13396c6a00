import { randomUUID } from "node:crypto";
import { and, count, eq, gte, inArray, sql } from "drizzle-orm";
import type { Db } from "../db/client.server";
import { leads } from "../db/leads-schema";
import { enqueueLeadDelivery } from "../jobs/queue.server";
import { emailNewLead } from "../mail/lead-emails.server";
import { RATE_LIMITS, takeAttempt } from "../limits/rate-limits.server";
import { log } from "../log.server";
import { mailchimpConfig, type MailchimpConfig } from "./mailchimp.server";
import { HONEYPOT_FIELD, validateCallbackRequest, type FieldErrors } from "./validation.server";
import { MARKETING_CONSENT_TEXT } from "~/catalogue/callback";

/** Public-form limits: the form is open to anybody, so repeats must not cost deliveries. */
export const LEAD_LIMITS = {
  /** Accepted submissions per client IP per window (RATE_LIMITS.lead). */
  perIp: RATE_LIMITS.lead.perAddress[0].max,
  ipWindowMs: RATE_LIMITS.lead.perAddress[0].seconds * 1000,
  /** Stored leads per email per window; past this the answer is 429. */
  perEmail: 3,
  emailWindowMs: 60 * 60_000,
};

const TOO_MANY_REQUESTS_MESSAGE = "Too many requests. Please try again later.";

export type SubmitResult =
  | { status: "accepted"; leadId: string | null; delivery: "pending" | "kept" | "repeat" | "discarded" }
  | { status: "invalid"; error: string; fields: FieldErrors }
  | { status: "limited"; error: string };

export interface SubmitContext {
  /** The client address as the server determined it (X-Forwarded-For only from trusted proxies). */
  ip: string;
  userId?: string | null;
  source?: string;
  /** Defaults to the configured list; null = keep leads only. */
  mailchimp?: MailchimpConfig | null;
  now?: Date;
}

/**
 * Takes a callback request from the public form: validates it, applies the honeypot and the limits,
 * and stores the lead together with its delivery job in one transaction, so an acknowledged lead is
 * always delivered.
 *
 * - a filled honeypot answers like a success and stores nothing;
 * - more than LEAD_LIMITS.perIp requests per IP window, or perEmail leads per email window: 'limited';
 * - a repeat of an email already taken within the email window is stored as 'kept' (the operator sees
 *   it) but not delivered again;
 * - without a mailing list the lead is stored as 'kept' and no job is created.
 */
export async function submitLead(db: Db, input: unknown, context: SubmitContext): Promise<SubmitResult> {
  const validated = validateCallbackRequest(input);
  if (!validated.ok) return { status: "invalid", error: validated.error, fields: validated.fields };
  const value = validated.value;
  const now = context.now ?? new Date();

  if (!(await takeAttempt(db, RATE_LIMITS.lead, { ip: context.ip }, now.getTime())).allowed)
    return { status: "limited", error: TOO_MANY_REQUESTS_MESSAGE };

  if (value[HONEYPOT_FIELD]) {
    log.info("lead honeypot filled", { ip: context.ip });
    return { status: "accepted", leadId: null, delivery: "discarded" };
  }

  const deliver = (context.mailchimp === undefined ? mailchimpConfig() : context.mailchimp) !== null;
  const since = new Date(now.getTime() - LEAD_LIMITS.emailWindowMs);
  return db.transaction(async (tx) => {
    // Serialises submissions for one email, so two at once cannot both count zero and both deliver.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`lead:${value.email}`}))`);
    const [recent] = await tx
      .select({ n: count() })
      .from(leads)
      .where(and(eq(leads.email, value.email), gte(leads.createdAt, since)));
    const previous = Number(recent?.n ?? 0);
    if (previous >= LEAD_LIMITS.perEmail) return { status: "limited", error: TOO_MANY_REQUESTS_MESSAGE } as const;
    const repeat = previous > 0;

    const id = randomUUID();
    const [lead] = await tx
      .insert(leads)
      .values({
        id,
        firstName: value.firstName,
        lastName: value.lastName,
        email: value.email,
        phone: value.phone,
        company: value.company,
        projectType: value.projectType,
        budget: value.budget,
        timeframe: value.timeframe,
        message: value.message,
        preferredTime: value.preferredTime,
        // The server's own copy of the words next to the checkbox, with the time it was given.
        marketingConsent: value.marketingConsent,
        marketingConsentText: value.marketingConsent ? MARKETING_CONSENT_TEXT : null,
        marketingConsentAt: value.marketingConsent ? now : null,
        source: context.source ?? "live-training",
        userId: context.userId ?? null,
        deliveryStatus: deliver && !repeat ? "pending" : "kept",
        createdAt: now,
      })
      .returning();
    if (repeat) return { status: "accepted", leadId: id, delivery: "repeat" } as const;
    // A repeat within the window is not acknowledged or announced again.
    if (lead) await emailNewLead(tx as unknown as Db, lead);
    if (!deliver) return { status: "accepted", leadId: id, delivery: "kept" } as const;
    await enqueueLeadDelivery(tx, id);
    return { status: "accepted", leadId: id, delivery: "pending" } as const;
  });
}

/**
 * Sends a lead again (operator view): a 'failed' lead, or a 'kept' one once a mailing list is
 * configured, goes back to 'pending' with a new delivery job in the same transaction. Answers false
 * when the lead does not exist, is not in one of those states, or no mailing list is configured.
 */
export async function retryLead(db: Db, leadId: string, config: MailchimpConfig | null = mailchimpConfig()): Promise<boolean> {
  if (!config) return false;
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(leads)
      .set({ deliveryStatus: "pending", lastError: null })
      .where(and(eq(leads.id, leadId), inArray(leads.deliveryStatus, ["failed", "kept"])))
      .returning({ id: leads.id });
    if (!row) return false;
    await enqueueLeadDelivery(tx, leadId);
    return true;
  });
}
