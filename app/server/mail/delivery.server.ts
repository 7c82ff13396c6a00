import { eq, sql } from "drizzle-orm";
import type { Db } from "../db/client.server";
import { mailOutbox } from "../db/schema";
import { env } from "../env.server";
import { log, errorMessage } from "../log.server";

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

/** The `error` of an outbox row whose template threw: kept for an operator, never sent. */
export const RENDER_FAILED = "render failed";

export type MailTransport = (mail: OutgoingMail & { from: string }) => Promise<void>;

/**
 * nodemailer's defaults wait up to 2 minutes for a connection and 10 minutes on a silent socket; a
 * mail server that is down must cost a delivery attempt seconds, then the job's retry takes over.
 */
const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 };

/** An SMTP transport for an smtp:// or smtps:// URL. */
export async function createSmtpTransport(url: string): Promise<MailTransport> {
  const nodemailer = await import("nodemailer");
  const transporter = nodemailer.createTransport({ url, ...SMTP_TIMEOUTS });
  return async (mail) => {
    await transporter.sendMail(mail);
  };
}

let transport: MailTransport | null | undefined;

/** The configured transport (SMTP_URL), or null: mail then stays in the outbox for the dev mailbox. */
export async function mailTransport(): Promise<MailTransport | null> {
  if (transport !== undefined) return transport;
  const url = env().SMTP_URL;
  transport = url ? await createSmtpTransport(url) : null;
  return transport;
}

/** Replaces the transport (tests); undefined reads SMTP_URL again. */
export function setMailTransport(next: MailTransport | null | undefined) {
  transport = next;
}

/**
 * Sends one outbox row through the transport and marks it sent. A row already sent is skipped, so a
 * repeated job never mails twice after a recorded success. A failure is recorded on the row, logged,
 * and thrown, so the job queue retries it with backoff; each attempt is counted on the row.
 */
export async function deliverMail(db: Db, outboxId: number, attempt?: { retryCount: number; retryLimit: number }) {
  const [row] = await db.select().from(mailOutbox).where(eq(mailOutbox.id, outboxId));
  // A row whose template failed to render holds no email to send (queue-email.server.ts).
  if (!row || row.sentAt || row.error?.startsWith(RENDER_FAILED)) return;
  const send = await mailTransport();
  if (!send) return;
  try {
    await send({ to: row.to, subject: row.subject, text: row.text, html: row.html ?? undefined, from: env().MAIL_FROM });
  } catch (error) {
    const message = errorMessage(error);
    const final = attempt ? attempt.retryCount >= attempt.retryLimit : false;
    if (final) log.error("mail delivery failed for good", { outboxId, error: message, attempts: attempt!.retryCount + 1 });
    else log.warn("mail delivery failed, will be retried", { outboxId, error: message, ...attempt });
    // The last retry marks the row failed for the console's Emails table; a later attempt (the
    // unsent-mail sweep, an operator's retry) clears it again.
    await db
      .update(mailOutbox)
      .set({ error: message, attempts: sql`${mailOutbox.attempts} + 1`, failedAt: final ? new Date() : null })
      .where(eq(mailOutbox.id, outboxId));
    throw error;
  }
  await db
    .update(mailOutbox)
    .set({ sentAt: new Date(), error: null, failedAt: null, attempts: sql`${mailOutbox.attempts} + 1` })
    .where(eq(mailOutbox.id, outboxId));
}
