import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getAccountAnalytics } from "~/server/analytics/activity.server";
import { activityEvents, supportTickets, user } from "~/server/db/schema";
import { createTicket, listTickets, ticketInput } from "~/server/support/tickets.server";
import { engine, freshDatabase } from "./support/db";

describe(`support tickets (${engine})`, () => {
  let database: Awaited<ReturnType<typeof freshDatabase>>;
  beforeAll(async () => {
    database = await freshDatabase();
    await database.db.insert(user).values([
      { id: "user-a", name: "A", email: "a@example.com", emailVerified: true },
      { id: "user-b", name: "B", email: "b@example.com", emailVerified: true },
    ]);
  });
  afterAll(async () => {
    await database.cleanup();
  });

  it("creates an open ticket with trimmed fields", async () => {
    const ticket = await createTicket(database.db, "user-a", {
      subject: "  Cannot log in  ",
      category: "Account",
      message: "My password reset email never arrives.",
    });
    expect(ticket).toMatchObject({ subject: "Cannot log in", category: "Account", status: "open" });
    expect(ticket.createdAt).toBeInstanceOf(Date);
  });

  it("lists the user's tickets newest first", async () => {
    await createTicket(database.db, "user-a", {
      subject: "Invoice question",
      category: "Billing",
      message: "Where is my invoice?",
    });
    const tickets = await listTickets(database.db, "user-a");
    expect(tickets.map((t) => t.subject)).toEqual(["Invoice question", "Cannot log in"]);
  });

  it("never shows one user's tickets to another", async () => {
    expect(await listTickets(database.db, "user-b")).toEqual([]);
    await createTicket(database.db, "user-b", { subject: "B's ticket", category: "Other", message: "Only B may see this." });
    expect((await listTickets(database.db, "user-b")).map((t) => t.subject)).toEqual(["B's ticket"]);
    expect((await listTickets(database.db, "user-a")).map((t) => t.subject)).not.toContain("B's ticket");
  });

  it("reports closed tickets as closed", async () => {
    await database.db
      .insert(supportTickets)
      .values({ userId: "user-b", subject: "Old", category: "Other", message: "Solved long ago.", status: "closed" });
    const tickets = await listTickets(database.db, "user-b");
    expect(tickets.find((t) => t.subject === "Old")?.status).toBe("closed");
  });

  it("validates subject, category and message with field messages", () => {
    const result = ticketInput.safeParse({ subject: "Hi", category: "Sales", message: "short" });
    expect(result.success).toBe(false);
    const fields = Object.fromEntries(result.error!.issues.map((i) => [i.path[0], i.message]));
    expect(fields).toEqual({
      subject: "Subject must be at least 3 characters",
      category: "Choose a category",
      message: "Message must be at least 10 characters",
    });
    expect(ticketInput.safeParse({ subject: "x".repeat(121), category: "Other", message: "long enough text" }).success).toBe(
      false,
    );
    expect(ticketInput.safeParse({ subject: "Fine", category: "Other", message: "x".repeat(5001) }).success).toBe(false);
  });

  it("refuses invalid input even when called directly", async () => {
    await expect(
      createTicket(database.db, "user-a", { subject: "ab", category: "Billing", message: "long enough message" }),
    ).rejects.toThrow(/Subject must be at least 3 characters/);
    expect(await listTickets(database.db, "user-a")).toHaveLength(2);
  });

  it("records a 'ticket_opened' activity event per ticket, charted on the analytics page", async () => {
    const kinds = async (userId: string) =>
      (await database.db.select().from(activityEvents).where(eq(activityEvents.userId, userId))).map((e) => e.kind);
    // One per ticket created above (user-a's two; the refused one left none).
    expect(await kinds("user-a")).toEqual(["ticket_opened", "ticket_opened"]);
    const ticket = await createTicket(database.db, "user-a", {
      subject: "Chart me",
      category: "Other",
      message: "Does this show on the chart?",
    });
    const [event] = await database.db
      .select()
      .from(activityEvents)
      .where(eq(activityEvents.userId, "user-a"))
      .orderBy(activityEvents.id)
      .offset(2);
    expect(event).toMatchObject({ kind: "ticket_opened", createdAt: ticket.createdAt });
    const analytics = await getAccountAnalytics(database.db, "user-a", ticket.createdAt);
    expect(analytics.kinds).toEqual(["ticket_opened"]);
    expect(analytics.days.at(-1)?.byKind).toEqual({ ticket_opened: 3 });
    expect(analytics.ticketsOpened).toBe(3);
  });
});
