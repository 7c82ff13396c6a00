import { asc, desc, eq, inArray } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "~/server/db/client.server";
import { activityEvents, supportTicketAnswers, supportTickets } from "~/server/db/schema";
import { INVALID_CHARACTERS, noControlChars } from "~/lib/text";

import { TICKET_CATEGORIES } from "~/catalogue/dashboard";

/** The support form's rules; the route re-renders the form with these messages on a 400. */
export const ticketInput = z.object({
  subject: z
    .string()
    .trim()
    .min(3, "Subject must be at least 3 characters")
    .max(120, "Subject must be at most 120 characters")
    .refine(noControlChars, INVALID_CHARACTERS),
  category: z.enum(TICKET_CATEGORIES, { error: "Choose a category" }),
  message: z
    .string()
    .trim()
    .min(10, "Message must be at least 10 characters")
    .max(5000, "Message must be at most 5000 characters")
    .refine(noControlChars, INVALID_CHARACTERS),
});
export type TicketInput = z.infer<typeof ticketInput>;

export interface Ticket {
  id: number;
  subject: string;
  category: string;
  message: string;
  status: "open" | "answered" | "closed";
  createdAt: Date;
  /** The support team's answers, oldest first. */
  answers: { id: number; body: string; createdAt: Date }[];
}

const toTicket = (row: typeof supportTickets.$inferSelect, answers: Ticket["answers"] = []): Ticket => ({
  id: row.id,
  subject: row.subject,
  category: row.category,
  message: row.message,
  status: row.status === "closed" ? "closed" : row.status === "answered" ? "answered" : "open",
  createdAt: row.createdAt,
  answers,
});

/**
 * Validates again (callers other than the form exist: tests, future API) and stores an open ticket,
 * with a 'ticket_opened' activity event (charted on /dashboard/analytics) in the same transaction.
 */
export async function createTicket(db: Db, userId: string, input: TicketInput): Promise<Ticket> {
  const data = ticketInput.parse(input);
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(supportTickets)
      .values({ userId, subject: data.subject, category: data.category, message: data.message })
      .returning();
    if (!row) throw new Error("insert returned no row");
    await tx.insert(activityEvents).values({ userId, kind: "ticket_opened", createdAt: row.createdAt });
    return toTicket(row);
  });
}

/** The user's own tickets, newest first (id breaks ties within one timestamp). */
export async function listTickets(db: Db, userId: string): Promise<Ticket[]> {
  const rows = await db
    .select()
    .from(supportTickets)
    .where(eq(supportTickets.userId, userId))
    .orderBy(desc(supportTickets.createdAt), desc(supportTickets.id));
  const answers = rows.length
    ? await db
        .select()
        .from(supportTicketAnswers)
        .where(
          inArray(
            supportTicketAnswers.ticketId,
            rows.map((r) => r.id),
          ),
        )
        .orderBy(asc(supportTicketAnswers.createdAt), asc(supportTicketAnswers.id))
    : [];
  return rows.map((r) =>
    toTicket(
      r,
      answers.filter((a) => a.ticketId === r.id).map((a) => ({ id: a.id, body: a.body, createdAt: a.createdAt })),
    ),
  );
}
