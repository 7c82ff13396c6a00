import { eq } from "drizzle-orm";
import type { Db } from "../db/client.server";
import { mailOutbox } from "../db/schema";
import { mailTransport } from "../mail/delivery.server";
import { listAuditOf } from "./audit.server";
import { toEmailListRow } from "./tables/emails.server";

/**
 * One outbox row for /admin/emails/:id: where it stands, why it failed, and the operator actions
 * on it. Not its body: password-reset and sign-in links must not reach the console.
 */
export async function getEmailDetail(db: Db, id: number, now = new Date()) {
  const [row] = await db
    .select({
      id: mailOutbox.id,
      to: mailOutbox.to,
      subject: mailOutbox.subject,
      kind: mailOutbox.kind,
      idempotencyKey: mailOutbox.idempotencyKey,
      attempts: mailOutbox.attempts,
      error: mailOutbox.error,
      createdAt: mailOutbox.createdAt,
      sentAt: mailOutbox.sentAt,
      failedAt: mailOutbox.failedAt,
    })
    .from(mailOutbox)
    .where(eq(mailOutbox.id, id))
    .limit(1);
  if (!row) return null;
  return {
    email: { ...toEmailListRow(row, now), idempotencyKey: row.idempotencyKey },
    /** Without a mail server nothing is sent: emails stay in the outbox for the dev mailbox. */
    mailServer: Boolean(await mailTransport()),
    audit: await listAuditOf(db, "email", String(id)),
  };
}
