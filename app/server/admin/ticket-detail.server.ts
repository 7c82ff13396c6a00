import { asc, eq } from "drizzle-orm";
import type { Db } from "../db/client.server";
import { supportTicketAnswers, supportTickets, user } from "../db/schema";
import { type AuditEntry, listAuditOf } from "./audit.server";

/** One support ticket for /admin/tickets/:id: the customer's message and every answer, oldest first. */
export async function getTicketDetail(db: Db, ticketId: number) {
  const [row] = await db
    .select({ t: supportTickets, email: user.email, name: user.name })
    .from(supportTickets)
    .innerJoin(user, eq(user.id, supportTickets.userId))
    .where(eq(supportTickets.id, ticketId))
    .limit(1);
  if (!row) return null;
  const [answers, audit] = await Promise.all([
    db
      .select({ a: supportTicketAnswers, operatorEmail: user.email })
      .from(supportTicketAnswers)
      .leftJoin(user, eq(user.id, supportTicketAnswers.operatorId))
      .where(eq(supportTicketAnswers.ticketId, ticketId))
      .orderBy(asc(supportTicketAnswers.createdAt), asc(supportTicketAnswers.id)),
    listAuditOf(db, "ticket", String(ticketId)),
  ]);
  return {
    ticket: {
      id: row.t.id,
      userId: row.t.userId,
      email: row.email,
      name: row.name,
      subject: row.t.subject,
      category: row.t.category,
      message: row.t.message,
      status: row.t.status,
      createdAt: row.t.createdAt.toISOString(),
    },
    answers: answers.map(({ a, operatorEmail }) => ({
      id: a.id,
      body: a.body,
      operatorEmail,
      createdAt: a.createdAt.toISOString(),
    })),
    audit: audit satisfies AuditEntry[],
  };
}
