import { desc } from "drizzle-orm";
import { db, type Db } from "../db/client.server";
import { mailOutbox } from "../db/schema";
import { env, isLoopbackHost } from "../env.server";
import { PEER_IP_HEADER } from "../http/client-ip.server";
import { enqueueMailDelivery } from "../jobs/send-job.server";
import { deliverMail, mailTransport, type OutgoingMail } from "./delivery.server";

export type { OutgoingMail } from "./delivery.server";

/**
 * Records the mail in the outbox (the durable copy) and, when SMTP is configured, queues its delivery
 * in the same transaction: the job sends it, retrying with backoff through a mail-server outage, and
 * the caller's request never waits on the mail server. Without a running job queue in this process
 * one attempt is made now; the queue's sweeper retries unsent mail at its next start. A failure never
 * fails the caller's request.
 */
export async function sendMail(db: Db, mail: OutgoingMail): Promise<void> {
  if (!(await mailTransport())) {
    await db.insert(mailOutbox).values(mail);
    return;
  }
  const queued = await db.transaction(async (tx) => {
    const [row] = await tx.insert(mailOutbox).values(mail).returning({ id: mailOutbox.id });
    if (!row) throw new Error("mail_outbox insert returned no row");
    return { id: row.id, jobId: await enqueueMailDelivery(tx, row.id) };
  });
  if (queued.jobId) return;
  await deliverMail(db, queued.id).catch(() => {});
}

/**
 * The local dev mailbox is readable only when no SMTP server is configured and the site is not
 * public: outside production, or served on localhost (a fresh clone's `npm start`). It shows
 * sign-in and reset links, and the server listens on every interface: a production build also
 * answers it only to a client on this machine (see isLoopbackClient).
 */
/**
 * Why unsent mail stays unsent, for the console's Emails table: null when a mail server is set up
 * (SMTP_URL); otherwise mail is kept in the outbox and never leaves, and `devMailbox` says whether
 * this server's dev mailbox can show it.
 */
export function mailNotDelivered(): { devMailbox: boolean } | null {
  return env().SMTP_URL ? null : { devMailbox: devMailboxEnabled() };
}

export function devMailboxEnabled(): boolean {
  const e = env();
  if (e.SMTP_URL) return false;
  if (e.NODE_ENV !== "production") return true;
  return isLoopbackHost(new URL(e.PUBLIC_SITE_URL).hostname);
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

async function listOutbox(db: Db, limit = 50) {
  return db.select().from(mailOutbox).orderBy(desc(mailOutbox.id)).limit(limit);
}

/** Mailbox rows for the dev mailbox, optionally only those sent to one address. */
export async function mailboxRows(to?: string | null) {
  const wanted = to?.trim().toLowerCase();
  const mails = (await listOutbox(db(), 100)).filter((m) => !wanted || m.to.toLowerCase() === wanted);
  return mails.map((m) => ({
    id: m.id,
    to: m.to,
    subject: m.subject,
    text: m.text,
    html: m.html,
    kind: m.kind,
    error: m.error,
    createdAt: m.createdAt.toISOString(),
  }));
}
