import { eq } from "drizzle-orm";
import { z } from "zod";
import { INVALID_CHARACTERS, noControlChars } from "~/lib/text";
import type { Db } from "../db/client.server";
import { supportTicketAnswers, supportTickets, user } from "../db/schema";
import { sendSupportAnswer } from "../mail/send-support-answer.server";
import { recordAudit } from "./audit.server";

export const answerBody = z
  .string({ error: "Write the answer." })
  .trim()
  .min(2, "Write the answer.")
  .max(5000, "The answer must be at most 5000 characters.")
  .refine(noControlChars, INVALID_CHARACTERS);

export type AnswerTicketResult = { ok: true; answerId: number } | { ok: false; code: "not_found" };

/**
 * An operator answers a support ticket: the answer, the ticket's new status ('answered'), the
 * customer's email ("Re: <subject>", through the mail outbox) and the audit entry commit together.
 * The customer reads the answer on /dashboard/support.
 */
export async function answerTicket(
  db: Db,
  operator: { id: string; email: string },
  ticketId: number,
  body: string,
): Promise<AnswerTicketResult> {
  const text = answerBody.parse(body);
  return db.transaction(async (txRaw) => {
    const tx = txRaw as unknown as Db;
    const [ticket] = await tx
      .select({ t: supportTickets, email: user.email })
      .from(supportTickets)
      .innerJoin(user, eq(user.id, supportTickets.userId))
      .where(eq(supportTickets.id, ticketId))
      .for("update", { of: supportTickets });
    if (!ticket) return { ok: false, code: "not_found" } as const;
    const [answer] = await tx
      .insert(supportTicketAnswers)
      .values({ ticketId, operatorId: operator.id, body: text })
      .returning({ id: supportTicketAnswers.id });
    if (!answer) throw new Error("support_ticket_answers insert returned no row");
    await tx.update(supportTickets).set({ status: "answered", updatedAt: new Date() }).where(eq(supportTickets.id, ticketId));
    await sendSupportAnswer(tx, {
      userId: ticket.t.userId,
      ticketId,
      answerId: answer.id,
      ticketSubject: ticket.t.subject,
      answer: text,
    });
    await recordAudit(tx, {
      operator,
      action: "ticket.answer",
      subjectType: "ticket",
      subjectId: String(ticketId),
      before: { status: ticket.t.status },
      after: { status: "answered", answerId: answer.id, answer: text },
    });
    return { ok: true, answerId: answer.id } as const;
  });
}
