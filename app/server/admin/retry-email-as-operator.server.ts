import { eq } from "drizzle-orm";
import { emailRetryable, emailStatus } from "~/lib/admin/email-status";
import type { Db } from "../db/client.server";
import { mailOutbox } from "../db/schema";
import { enqueueMailDelivery, jobSenderRunning } from "../jobs/send-job.server";
import { deliverMail, mailTransport, RENDER_FAILED } from "../mail/delivery.server";
import { recordAudit } from "./audit.server";

export type RetryEmailOutcome = "queued" | "not_retryable" | "no_mail_server" | "not_found";

/**
 * The console's Retry on a failed or stuck email: the row is no longer failed and gets a new
 * delivery job, with its audit entry, in one transaction. The row keeps its last error until an
 * attempt replaces or clears it. A row that still has a live job keeps that one (the job is keyed
 * by the row). When no job queue runs in this process, one attempt is made after the commit, as for
 * any new email (mail.server.ts).
 */
export async function retryEmailAsOperator(
  db: Db,
  operator: { id: string; email: string },
  outboxId: number,
  now = new Date(),
): Promise<RetryEmailOutcome> {
  if (!(await mailTransport())) return "no_mail_server";
  const result = await db.transaction(async (txRaw) => {
    const tx = txRaw as unknown as Db;
    const [row] = await tx
      .select({
        sentAt: mailOutbox.sentAt,
        failedAt: mailOutbox.failedAt,
        error: mailOutbox.error,
        createdAt: mailOutbox.createdAt,
        attempts: mailOutbox.attempts,
      })
      .from(mailOutbox)
      .where(eq(mailOutbox.id, outboxId))
      .for("update");
    if (!row) return { outcome: "not_found" as const, jobId: null };
    if (!emailRetryable(row, now, row.error?.startsWith(RENDER_FAILED) ?? false))
      return { outcome: "not_retryable" as const, jobId: null };
    await tx.update(mailOutbox).set({ failedAt: null }).where(eq(mailOutbox.id, outboxId));
    const jobId = await enqueueMailDelivery(tx, outboxId);
    await recordAudit(tx, {
      operator,
      action: "email.retry",
      subjectType: "email",
      subjectId: String(outboxId),
      before: { status: emailStatus(row, now), attempts: row.attempts, lastError: row.error },
      after: { status: "queued", attempts: row.attempts },
    });
    return { outcome: "queued" as const, jobId };
  });
  if (result.outcome === "queued" && !result.jobId && !jobSenderRunning()) await deliverMail(db, outboxId).catch(() => {});
  return result.outcome;
}
