import { desc, eq } from "drizzle-orm";
import { db, type Db } from "../db/client.server";
import { mailOutbox } from "../db/schema";
import { env } from "../env.server";
import { log } from "../log.server";
import { PEER_IP_HEADER } from "../http/client-ip.server";

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

type Transport = (mail: OutgoingMail & { from: string }) => Promise<void>;

let smtp: Transport | null | undefined;

async function smtpTransport(): Promise<Transport | null> {
  if (smtp !== undefined) return smtp;
  const url = env().SMTP_URL;
  if (!url) {
    smtp = null;
    return smtp;
  }
  const nodemailer = await import("nodemailer");
  const transporter = nodemailer.createTransport(url);
  smtp = async (mail) => {
    await transporter.sendMail(mail);
  };
  return smtp;
}

/**
 * Records the mail in the outbox (the durable copy), then sends it through SMTP when configured.
 * A failed SMTP send is recorded on the row and logged; it never fails the caller's request.
 */
export async function sendMail(db: Db, mail: OutgoingMail): Promise<void> {
  const [row] = await db.insert(mailOutbox).values(mail).returning({ id: mailOutbox.id });
  const transport = await smtpTransport();
  if (!transport || !row) return;
  try {
    await transport({ ...mail, from: env().MAIL_FROM });
    await db.update(mailOutbox).set({ sentAt: new Date() }).where(eq(mailOutbox.id, row.id));
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    log.error("smtp send failed", { outboxId: row.id, error: message });
    await db.update(mailOutbox).set({ error: message }).where(eq(mailOutbox.id, row.id));
  }
}

/**
 * The local dev mailbox is readable only when no SMTP server is configured and the site is not
 * public: outside production, or served on localhost (a fresh clone's `npm start`). It shows
 * sign-in and reset links, and the server listens on every interface: a production build also
 * answers it only to a client on this machine (see isLoopbackClient).
 */
export function devMailboxEnabled(): boolean {
  const e = env();
  if (e.SMTP_URL) return false;
  if (e.NODE_ENV !== "production") return true;
  const host = new URL(e.PUBLIC_SITE_URL).hostname;
  return host === "localhost" || host === "127.0.0.1" || host === "[::1]";
}

/**
 * The connection came from this machine (the socket's peer, which the HTTP server puts in
 * PEER_IP_HEADER). A proxy on this machine counts as this machine: behind one, the site has a public
 * address and the mailbox is off anyway (devMailboxEnabled).
 */
export function isLoopbackClient(request: Request): boolean {
  if (env().NODE_ENV !== "production") return true;
  const ip = request.headers.get(PEER_IP_HEADER) ?? "";
  return ip === "::1" || /^(::ffff:)?127\./.test(ip);
}

export async function listOutbox(db: Db, limit = 50) {
  return db.select().from(mailOutbox).orderBy(desc(mailOutbox.id)).limit(limit);
}

/** Mailbox rows for the dev mailbox, optionally only those sent to one address. */
export async function mailboxRows(to?: string | null) {
  const wanted = to?.trim().toLowerCase();
  const mails = (await listOutbox(db(), 100)).filter((m) => !wanted || m.to.toLowerCase() === wanted);
  return mails.map((m) => ({ id: m.id, to: m.to, subject: m.subject, text: m.text, createdAt: m.createdAt.toISOString() }));
}
