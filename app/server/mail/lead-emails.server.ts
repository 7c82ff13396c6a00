import { listOperators } from "../admin/operators.server";
import type { Db } from "../db/client.server";
import type { LeadRow } from "../db/schema";
import { queueEmailInTx } from "./queue-email.server";

/**
 * A new callback request's emails, in the transaction that stores the lead: the acknowledgement to
 * the person who asked, and the new-lead alert to every operator. Keyed by the lead, so each is
 * written once.
 */
export async function emailNewLead(tx: Db, lead: LeadRow): Promise<void> {
  await queueEmailInTx(tx, {
    kind: "callbackAcknowledgement",
    to: lead.email,
    props: { firstName: lead.firstName, preferredTime: lead.preferredTime },
    subjectId: lead.id,
    userId: lead.userId,
  });
  const name = [lead.firstName, lead.lastName].filter(Boolean).join(" ");
  for (const operator of await listOperators(tx)) {
    await queueEmailInTx(tx, {
      kind: "newLeadAlert",
      to: operator.email,
      props: {
        name,
        email: lead.email,
        phone: lead.phone,
        company: lead.company,
        projectType: lead.projectType,
        budget: lead.budget,
        timeframe: lead.timeframe,
        preferredTime: lead.preferredTime,
        message: lead.message,
      },
      subjectId: lead.id,
    });
  }
}
