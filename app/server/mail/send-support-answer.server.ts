import type { Db } from "../db/client.server";
import { type QueuedEmail, queueUserEmailInTx } from "./queue-email.server";

export interface SupportAnswer {
  /** The customer who opened the ticket. */
  userId: string;
  ticketId: string | number;
  /** The answer's own id: each answer is one email, a repeated save of the same answer none. */
  answerId: string | number;
  ticketSubject: string;
  /** The operator's words, as typed (escaped by the template; blank lines make paragraphs). */
  answer: string;
}

/**
 * Emails a support ticket's answer to its customer, written through `tx`: call it in the
 * transaction that stores the answer, so the email exists exactly when the answer does. Required
 * (an answer to the customer's own question). Null when already written for this answer.
 */
export function sendSupportAnswer(tx: Db, answer: SupportAnswer): Promise<QueuedEmail> {
  return queueUserEmailInTx(tx, answer.userId, {
    kind: "supportAnswer",
    props: { ticketSubject: answer.ticketSubject, answer: answer.answer },
    subjectId: `${answer.ticketId}:${answer.answerId}`,
  });
}
