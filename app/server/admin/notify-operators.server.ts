import type { Db } from "../db/client.server";
import { log } from "../log.server";
import { queueEmailInTx } from "../mail/queue-email.server";
import { listOperators } from "./operators.server";

export interface OperatorNotice {
  subject: string;
  text: string;
  /** Logged with the notice (ids, amounts), for the operator reading the log instead. */
  fields: Record<string, unknown>;
}

/**
 * Tells every operator (granted in /admin, or listed in OPERATOR_EMAILS) about something that needs
 * a person: one mail each, queued in the caller's transaction so it goes out exactly when the change
 * it reports commits, and one error line in the log, which is where an operator without mail looks.
 */
export async function tellOperators(tx: Db, notice: OperatorNotice): Promise<number> {
  const operators = await listOperators(tx);
  log.error(notice.subject, { ...notice.fields, operatorsMailed: operators.length });
  for (const operator of operators) {
    await queueEmailInTx(tx, {
      kind: "operatorNotice",
      to: operator.email,
      props: { heading: notice.subject, text: notice.text },
      subjectId: null,
    });
  }
  return operators.length;
}
