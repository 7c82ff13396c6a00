import { and, count, eq, sql } from "drizzle-orm";
import { TABLE_SPECS } from "~/lib/admin/tables";
import { supportTicketAnswers, supportTickets, user } from "../../db/schema";
import { type AdminTable, containsAny, inDayRange, orderOf, total } from "./query.server";

export interface TicketListRow {
  id: number;
  userId: string;
  email: string;
  subject: string;
  category: string;
  status: string;
  answers: number;
  createdAt: string;
  updatedAt: string;
}

export const ticketsTable: AdminTable<TicketListRow> = {
  spec: TABLE_SPECS.tickets,
  async query(db, params, page) {
    const answers = db
      .select({ id: supportTicketAnswers.ticketId, n: count().as("answers_n") })
      .from(supportTicketAnswers)
      .groupBy(supportTicketAnswers.ticketId)
      .as("a");
    const where = and(
      containsAny(params.q, [supportTickets.subject, user.email, sql`${supportTickets.id}::text`]),
      params.filters.status ? eq(supportTickets.status, params.filters.status) : undefined,
      params.filters.category ? eq(supportTickets.category, params.filters.category) : undefined,
      ...inDayRange(supportTickets.createdAt, params.from, params.to, params.timeZone),
    );
    const [rows, n] = await Promise.all([
      db
        .select({ t: supportTickets, email: user.email, answers: answers.n })
        .from(supportTickets)
        .innerJoin(user, eq(user.id, supportTickets.userId))
        .leftJoin(answers, eq(answers.id, supportTickets.id))
        .where(where)
        .orderBy(
          ...orderOf(
            params,
            { createdAt: supportTickets.createdAt, updatedAt: supportTickets.updatedAt, subject: supportTickets.subject },
            supportTickets.id,
          ),
        )
        .limit(page.limit)
        .offset(page.offset),
      db.select({ n: count() }).from(supportTickets).innerJoin(user, eq(user.id, supportTickets.userId)).where(where),
    ]);
    return {
      total: total(n),
      rows: rows.map(({ t, email, answers: a }) => ({
        id: t.id,
        userId: t.userId,
        email,
        subject: t.subject,
        category: t.category,
        status: t.status,
        answers: Number(a ?? 0),
        createdAt: t.createdAt.toISOString(),
        updatedAt: t.updatedAt.toISOString(),
      })),
    };
  },
  csv: [
    { header: "id", value: (r) => r.id },
    { header: "created_at", value: (r) => r.createdAt },
    { header: "email", value: (r) => r.email },
    { header: "subject", value: (r) => r.subject },
    { header: "category", value: (r) => r.category },
    { header: "status", value: (r) => r.status },
    { header: "answers", value: (r) => r.answers },
    { header: "updated_at", value: (r) => r.updatedAt },
  ],
};
