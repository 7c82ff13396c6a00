import { eq } from "drizzle-orm";
import type { Db } from "../db/client.server";
import { mailOutbox, user, userSettings } from "../db/schema";
import { env } from "../env.server";
import { enqueueMailDelivery } from "../jobs/send-job.server";
import { errorMessage, log } from "../log.server";
import { deliverMail, mailTransport, RENDER_FAILED } from "./delivery.server";
import { isRequired, renderEmail } from "./render-email.server";
import type { EmailKind, EmailProps } from "./templates";

/**
 * Transactional email from templates, once per event (docs/decisions/0072-transactional-emails.md).
 *
 * The email is rendered now and written to the outbox in the caller's transaction, with its delivery
 * job when SMTP is configured: it exists exactly when the event commits, and a crash between the two
 * cannot lose it. Its idempotency key (`{kind}:{subject id}:{recipient}`) is unique in the outbox, so
 * an event processed again (a repeated webhook, a retried job, a sweep after a restart) writes
 * nothing the second time.
 */
export interface Email<K extends EmailKind> {
  kind: K;
  to: string;
  props: EmailProps<K>;
  /** The event's own id (an order, a payment event, a lead); null = every call sends (a new link). */
  subjectId: string | number | null;
  /** The account the email is about: its notification settings and time zone apply. */
  userId?: string | null;
}

export type QueuedEmail = { id: number; jobId: string | null } | null;

function idempotencyKey(kind: EmailKind, subjectId: string | number, to: string): string {
  return `${kind}:${subjectId}:${to.trim().toLowerCase()}`;
}

/**
 * Writes the email through `tx`; null when it was already written for this event, or when the
 * recipient switched optional emails off (Email updates in /dashboard/settings).
 */
export async function queueEmailInTx<K extends EmailKind>(tx: Db, email: Email<K>): Promise<QueuedEmail> {
  const settings = email.userId
    ? (await tx.select().from(userSettings).where(eq(userSettings.userId, email.userId)).limit(1))[0]
    : undefined;
  if (!isRequired(email.kind) && settings?.emailUpdates === false) return null;
  const idempotency = email.subjectId === null ? null : idempotencyKey(email.kind, email.subjectId, email.to);
  let content: { subject: string; html: string | null; text: string; error: string | null };
  try {
    const rendered = await renderEmail(email.kind, email.props, {
      siteUrl: env().PUBLIC_SITE_URL,
      timeZone: settings?.timeZone ?? null,
    });
    content = { ...rendered, error: null };
  } catch (error) {
    // A template that throws must not undo the event it reports (a payment): the row is kept,
    // unsent and marked, and the error is logged for an operator.
    log.error("email could not be rendered", { kind: email.kind, error: errorMessage(error) });
    content = { subject: email.kind, html: null, text: "", error: `${RENDER_FAILED}: ${errorMessage(error)}` };
  }
  const [row] = await tx
    .insert(mailOutbox)
    .values({
      to: email.to,
      kind: email.kind,
      idempotencyKey: idempotency,
      ...content,
      failedAt: content.error ? new Date() : null,
    })
    .onConflictDoNothing({ target: mailOutbox.idempotencyKey })
    .returning({ id: mailOutbox.id });
  if (!row) return null;
  const jobId = !content.error && (await mailTransport()) ? await enqueueMailDelivery(tx, row.id) : null;
  return { id: row.id, jobId };
}

/**
 * `queueEmailInTx` for the account `userId` (its address, settings and time zone); null when the
 * account is gone.
 */
export async function queueUserEmailInTx<K extends EmailKind>(
  tx: Db,
  userId: string,
  email: Omit<Email<K>, "to" | "userId">,
): Promise<QueuedEmail> {
  const [account] = await tx.select({ email: user.email }).from(user).where(eq(user.id, userId)).limit(1);
  if (!account) return null;
  return queueEmailInTx(tx, { ...email, to: account.email, userId } as Email<K>);
}

/**
 * An email outside any transaction of the caller's (auth's links): its own transaction, then, when
 * no queue runs in this process, one attempt at once; the unsent-mail sweep retries it.
 */
export async function sendEmail<K extends EmailKind>(db: Db, email: Email<K>): Promise<QueuedEmail> {
  const queued = await db.transaction((tx) => queueEmailInTx(tx as unknown as Db, email));
  if (queued && !queued.jobId && (await mailTransport())) await deliverMail(db, queued.id).catch(() => {});
  return queued;
}
