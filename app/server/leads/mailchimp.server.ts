import { createHash } from "node:crypto";
import { env, type Env } from "../env.server";
import type { LeadRow } from "../db/leads-schema";

/** Where and how leads are delivered to the Mailchimp Marketing API. */
export interface MailchimpConfig {
  apiKey: string;
  listId: string;
  /** e.g. https://us21.api.mailchimp.com (no trailing slash, no /3.0). Undefined: the key names no data centre. */
  baseUrl: string | undefined;
  /** Per request; a timeout is a temporary failure (retried). */
  timeoutMs: number;
}

const MAILCHIMP_TIMEOUT_MS = 10_000;

/** The configuration from the environment, or null when no mailing list is configured. */
export function mailchimpConfigFromEnv(e: Env = env()): MailchimpConfig | null {
  if (!e.MAILCHIMP_ENABLED || !e.MAILCHIMP_API_KEY || !e.MAILCHIMP_LIST_ID) return null;
  const dc = /-([a-z]+\d+)$/i.exec(e.MAILCHIMP_API_KEY)?.[1];
  const baseUrl = e.MAILCHIMP_API_URL ?? (dc ? `https://${dc.toLowerCase()}.api.mailchimp.com` : undefined);
  return {
    apiKey: e.MAILCHIMP_API_KEY,
    listId: e.MAILCHIMP_LIST_ID,
    baseUrl: baseUrl?.replace(/\/+$/, ""),
    timeoutMs: MAILCHIMP_TIMEOUT_MS,
  };
}

let override: { config: MailchimpConfig | null } | undefined;

/** The active configuration: the environment's unless a test (or boot) installed another. */
export function mailchimpConfig(): MailchimpConfig | null {
  return override ? override.config : mailchimpConfigFromEnv();
}

/** Installs a configuration (tests point it at a local stand-in); `undefined` goes back to the environment. */
export function setMailchimpConfig(config: MailchimpConfig | null | undefined) {
  override = config === undefined ? undefined : { config };
}

/** A failure that another attempt cannot fix (Mailchimp answered 4xx other than 408/429). */
export class PermanentDeliveryError extends Error {
  override name = "PermanentDeliveryError";
}

/** A failure worth retrying later (429, 5xx, timeout, network). */
class TemporaryDeliveryError extends Error {
  override name = "TemporaryDeliveryError";
}

/** Mailchimp's subscriber hash: MD5 of the lowercased email. */
export const subscriberHash = (email: string) => createHash("md5").update(email.trim().toLowerCase()).digest("hex");

type LeadFields = Pick<
  LeadRow,
  | "email"
  | "firstName"
  | "lastName"
  | "phone"
  | "company"
  | "timeframe"
  | "preferredTime"
  | "message"
  | "budget"
  | "projectType"
  | "marketingConsent"
  | "marketingConsentAt"
>;

/**
 * The member body of the upsert (spec section 7, mailchimp-subscribe). Every lead is added, so the
 * sales team has it in the audience, but as a subscriber only with consent
 * (docs/decisions/0055-marketing-consent.md):
 * - consent: subscribed, a new member and an existing one alike (`status`), with the time of opt-in;
 * - none: a new member is 'transactional' (contacted about this request, never sent campaigns), and
 *   an existing member keeps the status it has: no tick is not an unsubscribe.
 */
export function memberBody(lead: LeadFields) {
  const consent = lead.marketingConsent
    ? {
        status: "subscribed",
        status_if_new: "subscribed",
        ...(lead.marketingConsentAt ? { timestamp_opt: lead.marketingConsentAt.toISOString() } : {}),
      }
    : { status_if_new: "transactional" };
  return {
    email_address: lead.email,
    ...consent,
    merge_fields: {
      FNAME: lead.firstName,
      LNAME: lead.lastName,
      PHONE: lead.phone,
      COMPANY: lead.company,
      TIMEFRAME: lead.timeframe,
      PREFTIME: lead.preferredTime,
      MESSAGE: lead.message,
      BUDGET: lead.budget,
      PROJTYPE: lead.projectType,
    },
  };
}

const LEAD_TAGS = ["callback_request", "lead"] as const;

async function call(config: MailchimpConfig, method: string, path: string, body: unknown): Promise<void> {
  if (!config.baseUrl)
    throw new PermanentDeliveryError("MAILCHIMP_API_KEY has no data-centre suffix (-usN) and MAILCHIMP_API_URL is not set");
  let response: Response;
  try {
    response = await fetch(`${config.baseUrl}/3.0${path}`, {
      method,
      headers: {
        Authorization: `Basic ${Buffer.from(`anystring:${config.apiKey}`).toString("base64")}`,
        "Content-Type": "application/json",
        Accept: "application/json",
      },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(config.timeoutMs),
    });
  } catch (error) {
    const timedOut = error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
    throw new TemporaryDeliveryError(
      timedOut ? `Mailchimp did not answer within ${config.timeoutMs} ms` : `Mailchimp unreachable: ${describe(error)}`,
    );
  }
  if (response.ok) {
    await response.body?.cancel().catch(() => {});
    return;
  }
  const reason = await errorReason(response);
  const status = response.status;
  if (status === 408 || status === 429 || status >= 500) throw new TemporaryDeliveryError(`Mailchimp ${status}: ${reason}`);
  throw new PermanentDeliveryError(`Mailchimp ${status}: ${reason}`);
}

function describe(error: unknown): string {
  if (error instanceof Error) {
    const cause = (error as { cause?: unknown }).cause;
    return cause instanceof Error ? `${error.message} (${cause.message})` : error.message;
  }
  return String(error);
}

/** Mailchimp errors are problem+json: { title, detail, errors: [{ field, message }] }. */
async function errorReason(response: Response): Promise<string> {
  const text = (await response.text().catch(() => "")).slice(0, 2000);
  try {
    const json = JSON.parse(text) as { title?: unknown; detail?: unknown; errors?: { field?: unknown; message?: unknown }[] };
    const parts = [json.title, json.detail].filter((p): p is string => typeof p === "string" && p.length > 0);
    for (const e of Array.isArray(json.errors) ? json.errors.slice(0, 5) : [])
      if (typeof e.message === "string")
        parts.push(typeof e.field === "string" && e.field ? `${e.field}: ${e.message}` : e.message);
    if (parts.length) return parts.join(" - ").slice(0, 500);
  } catch {
    // not JSON
  }
  return (text || response.statusText || "no details").slice(0, 500);
}

/**
 * Upserts the member (PUT by subscriber hash, so a retry never creates a second member) and tags it.
 * Throws TemporaryDeliveryError (retry later) or PermanentDeliveryError (give up, keep the reason).
 */
export async function deliverToMailchimp(config: MailchimpConfig, lead: LeadFields): Promise<void> {
  const member = `/lists/${encodeURIComponent(config.listId)}/members/${subscriberHash(lead.email)}`;
  await call(config, "PUT", member, memberBody(lead));
  await call(config, "POST", `${member}/tags`, { tags: LEAD_TAGS.map((name) => ({ name, status: "active" })) });
}
