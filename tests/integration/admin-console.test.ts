import { randomUUID } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loader as exportLoader } from "~/routes/admin/export";
import { action as leadAction, loader as leadLoader } from "~/routes/admin/lead";
import { action as orderAction, loader as orderLoader } from "~/routes/admin/order";
import { loader as customerLoader } from "~/routes/admin/customer";
import { loader as tableLoader } from "~/routes/admin/table";
import { action as ticketAction, loader as ticketLoader } from "~/routes/admin/ticket";
import { action as adminAction } from "~/routes/admin";
import { retryLeadAsOperator } from "~/server/admin/retry-lead-as-operator.server";
import { initAuth, resetAuth, type Auth } from "~/server/auth/auth.server";
import { setDatabase } from "~/server/db/client.server";
import { adminAudit, leads, mailOutbox, orders, paymentEvents, supportTickets, user, userRoles } from "~/server/db/schema";
import { listTickets } from "~/server/support/tickets.server";
import { engine, freshDatabase, signedInCustomerMaker } from "./support/db";
import { enrolTwoFactor } from "./support/two-factor";
import { routeAnswer, routeArgs, siteRequests } from "./support/route";

process.env.LOG_LEVEL ??= "error";

/**
 * The operator console's routes as React Router calls them: tables searched, filtered, sorted and
 * paged from the URL (bad input clamped, never a 500), CSV of the filtered rows, record pages, and
 * the audited actions (refund, ticket answer, lead retry, operator grant), 404 for anyone else.
 */
const args = routeArgs;
const { get, post } = siteRequests("10.41.0.1");
type TablePage = { rows: Record<string, unknown>[]; total: number; params: Record<string, unknown> };
const table = (cookie: string, id: string, query = "") =>
  routeAnswer<TablePage>(tableLoader(args(get(cookie, `/admin/${id}${query}`), { table: id })));

/** The database's error text for a statement it refuses, or "done". */
const refusal = (run: Promise<unknown>) =>
  run.then(
    () => "done",
    (error: Error) => String((error.cause as Error | undefined)?.message ?? error.message),
  );

describe(`operator console (${engine})`, () => {
  let database: Awaited<ReturnType<typeof freshDatabase>>;
  let auth: Auth;
  const newCustomer = signedInCustomerMaker(
    () => auth,
    () => database.db,
    "console",
  );
  let ops: Awaited<ReturnType<typeof newCustomer>>;
  let customer: Awaited<ReturnType<typeof newCustomer>>;
  const orderIds: string[] = [];

  beforeAll(async () => {
    database = await freshDatabase();
    setDatabase(database);
    auth = await initAuth(database.db);
    ops = await newCustomer();
    customer = await newCustomer();
    await database.db.insert(userRoles).values({ userId: ops.id, role: "operator" });
    // /admin takes only a session signed in with a second factor.
    ops = { ...ops, cookie: (await enrolTwoFactor(auth, ops.cookie, "correct-horse-battery")).cookie };
    // 60 buyers, one of them with a name a spreadsheet would run and one with a literal %.
    await database.db.insert(user).values(
      Array.from({ length: 60 }, (_, i) => ({
        id: `buyer-${i}`,
        name: i === 7 ? '=HYPERLINK("http://evil")' : i === 8 ? "100% Real" : `Buyer ${i}`,
        email: `buyer-${String(i).padStart(2, "0")}@shop.example`,
        emailVerified: i % 2 === 0,
        createdAt: new Date(Date.UTC(2026, 0, 1 + i)),
      })),
    );
    for (let i = 0; i < 30; i++) {
      const id = randomUUID();
      orderIds.push(id);
      await database.db.insert(orders).values({
        id,
        userId: `buyer-${i}`,
        kind: "app",
        itemId: String(i),
        itemName: `App ${i}`,
        amount: 1000 + i * 100,
        status: i % 3 === 0 ? "pending" : "paid",
        provider: "local",
        providerSessionId: `cs_local_${id}`,
        createdAt: new Date(Date.UTC(2026, 1, 1 + i)),
        paidAt: i % 3 === 0 ? null : new Date(Date.UTC(2026, 1, 1 + i)),
      });
      if (i % 3 !== 0)
        await database.db.insert(paymentEvents).values({
          userId: `buyer-${i}`,
          orderId: id,
          kind: "payment",
          amount: 1000 + i * 100,
          provider: "local",
          providerRef: `local:${id}`,
        });
    }
  });
  afterAll(async () => {
    resetAuth();
    setDatabase(undefined);
    await database?.cleanup();
  });

  it("answers 404 to a signed-out visitor and a customer, on every page, export and action", async () => {
    for (const cookie of ["", customer.cookie]) {
      expect((await table(cookie, "customers")).status).toBe(404);
      expect((await routeAnswer(exportLoader(args(get(cookie, "/admin/export/orders"), { table: "orders" })))).status).toBe(404);
      expect(
        (await routeAnswer(orderLoader(args(get(cookie, `/admin/orders/${orderIds[1]}`), { id: orderIds[1]! })))).status,
      ).toBe(404);
      expect((await routeAnswer(customerLoader(args(get(cookie, "/admin/customers/buyer-1"), { id: "buyer-1" })))).status).toBe(
        404,
      );
      const refund = post(cookie, `/admin/orders/${orderIds[1]}`, {
        intent: "refund-order",
        orderId: orderIds[1]!,
        amount: "100",
        reason: "duplicate",
        key: randomUUID(),
        confirm: "yes",
      });
      expect((await routeAnswer(orderAction(args(refund, { id: orderIds[1]! })))).status).toBe(404);
      const answer = post(cookie, "/admin/tickets/1", { intent: "answer-ticket", body: "Hello there" });
      expect((await routeAnswer(ticketAction(args(answer, { id: "1" })))).status).toBe(404);
      const retry = post(cookie, "/admin/leads/x", { intent: "retry-lead" });
      expect((await routeAnswer(leadAction(args(retry, { id: "x" })))).status).toBe(404);
    }
    expect(await database.db.select().from(adminAudit)).toEqual([]);
    expect((await table(ops.cookie, "no-such-table")).status).toBe(404);
  });

  it("searches customers by part of an email, any case, and takes % and _ literally", async () => {
    const found = await table(ops.cookie, "customers", "?q=BUYER-4");
    expect(found.status).toBe(200);
    expect(found.body!.rows.map((r) => r.email).sort()).toEqual(
      Array.from({ length: 10 }, (_, i) => `buyer-${40 + i}@shop.example`)
        .concat("buyer-04@shop.example")
        .sort(),
    );
    expect((await table(ops.cookie, "customers", "?q=100%25")).body!.rows.map((r) => r.id)).toEqual(["buyer-8"]);
    expect((await table(ops.cookie, "customers", "?q=%25")).body!.rows.map((r) => r.id)).toEqual(["buyer-8"]);
    expect((await table(ops.cookie, "customers", "?q=buyer_0")).body!.total).toBe(0);
    expect((await table(ops.cookie, "customers", "?q=%27%3B%20drop%20table%20user%3B--")).body!.total).toBe(0);
  });

  it("filters, sorts and pages with a total, and clamps a bad address instead of failing", async () => {
    const paid = await table(ops.cookie, "orders", "?status=paid&sort=amount&dir=asc&size=25");
    expect(paid.body!.total).toBe(20);
    const amounts = paid.body!.rows.map((r) => r.amount as number);
    expect(amounts).toEqual([...amounts].sort((a, b) => a - b));
    expect(paid.body!.rows.every((r) => r.status === "paid" && r.paid === r.amount)).toBe(true);

    const page1 = await table(ops.cookie, "customers", "?sort=email&dir=asc");
    const page3 = await table(ops.cookie, "customers", "?sort=email&dir=asc&page=3");
    expect(page1.body!.total).toBe(62);
    expect(page1.body!.rows).toHaveLength(25);
    expect(page3.body!.rows).toHaveLength(12);
    expect(new Set([...page1.body!.rows, ...page3.body!.rows].map((r) => r.id)).size).toBe(37);

    const verified = await table(ops.cookie, "customers", "?verified=no&from=2026-01-01&to=2026-01-10");
    expect(verified.body!.rows.map((r) => r.id).sort()).toEqual(["buyer-1", "buyer-3", "buyer-5", "buyer-7", "buyer-9"]);

    const bad = await table(ops.cookie, "orders", "?sort=password&dir=up&page=-3&size=7&status=hacked&from=2026-13-45");
    expect(bad.status).toBe(200);
    expect(bad.body!.params).toMatchObject({ sort: "createdAt", dir: "desc", page: 1, size: 25, filters: {}, from: null });
    expect(bad.body!.total).toBe(30);
    const beyond = await table(ops.cookie, "orders", "?page=99");
    expect(beyond.status).toBe(200);
    expect(beyond.body!.rows).toEqual([]);
  });

  it("exports every filtered row as CSV (not just one page), with formulas defused", async () => {
    const answer = await exportLoader(
      args(get(ops.cookie, "/admin/export/customers?q=shop.example&sort=email&dir=asc"), { table: "customers" }),
    );
    expect(answer).toBeInstanceOf(Response);
    const response = answer as Response;
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("content-disposition")).toMatch(/^attachment; filename="customers-\d{4}-\d{2}-\d{2}\.csv"$/);
    const lines = (await response.text()).trimEnd().split("\r\n");
    expect(lines[0]).toBe(
      "id,email,name,company,email_verified,created_at,trial,trial_ends_at,plan,plan_status,dashboard_access,monthly_cents",
    );
    expect(lines).toHaveLength(61);
    expect(lines.find((l) => l.startsWith("buyer-7,"))).toContain(`"'=HYPERLINK(""http://evil"")"`);
    const paid = (
      await (
        (await exportLoader(args(get(ops.cookie, "/admin/export/orders?status=paid"), { table: "orders" }))) as Response
      ).text()
    )
      .trimEnd()
      .split("\r\n");
    expect(paid).toHaveLength(21);
  });

  it("refunds an order from its page with an audit entry of the before and after, which nobody can change", async () => {
    const id = orderIds[4]!;
    const before = await routeAnswer<{ order: { paid: number; refunded: number } }>(
      orderLoader(args(get(ops.cookie, `/admin/orders/${id}`), { id })),
    );
    expect(before.body!.order).toMatchObject({ paid: 1400, refunded: 0 });
    const form = {
      intent: "refund-order",
      orderId: id,
      amount: "400",
      reason: "duplicate",
      note: "",
      key: randomUUID(),
      confirm: "yes",
    };
    const refunded = await routeAnswer(orderAction(args(post(ops.cookie, `/admin/orders/${id}`, form), { id })));
    expect(refunded).toEqual({
      status: 200,
      body: { intent: "refund-order", orderId: id, ok: true, refunded: 400, ended: false },
    });
    // The same confirmed refund sent again refunds and audits once.
    await routeAnswer(orderAction(args(post(ops.cookie, `/admin/orders/${id}`, form), { id })));

    const entries = await database.db.select().from(adminAudit).where(eq(adminAudit.subjectId, id));
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      operatorId: ops.id,
      operatorEmail: ops.email,
      action: "order.refund",
      subjectType: "order",
      before: { status: "paid", paid: 1400, refunded: 0 },
      after: { status: "paid", paid: 1400, refunded: 400, amount: 400, ended: false, reason: "duplicate" },
    });
    const page = await routeAnswer<{ audit: unknown[]; order: { refunded: number } }>(
      orderLoader(args(get(ops.cookie, `/admin/orders/${id}`), { id })),
    );
    expect(page.body!.order.refunded).toBe(400);
    expect(page.body!.audit).toHaveLength(1);
    const log = await table(ops.cookie, "audit", `?action=order.refund&q=${encodeURIComponent(ops.email)}`);
    expect(log.body!.rows.map((r) => r.subjectId)).toEqual([id]);

    // Append-only: the database refuses to rewrite or remove history.
    expect(await refusal(database.db.update(adminAudit).set({ action: "nothing" }))).toMatch(/append-only: UPDATE refused/);
    expect(await refusal(database.db.delete(adminAudit))).toMatch(/append-only: DELETE refused/);
    expect(await refusal(database.db.execute(sql`truncate admin_audit`))).toMatch(/append-only: TRUNCATE refused/);
    expect(await database.db.select().from(adminAudit).where(eq(adminAudit.subjectId, id))).toHaveLength(1);

    // A refused refund writes no entry.
    const tooMuch = { ...form, amount: "5000", key: randomUUID() };
    expect((await routeAnswer(orderAction(args(post(ops.cookie, `/admin/orders/${id}`, tooMuch), { id })))).status).toBe(409);
    expect(await database.db.select().from(adminAudit).where(eq(adminAudit.subjectId, id))).toHaveLength(1);
  });

  it("answers a ticket: the customer sees it, gets an email, and the answer is audited", async () => {
    const [ticket] = await database.db
      .insert(supportTickets)
      .values({ userId: customer.id, subject: "Cannot log in", category: "Account", message: "It says my password is wrong." })
      .returning();
    const path = `/admin/tickets/${ticket!.id}`;
    const params = { id: String(ticket!.id) };
    expect(
      (await routeAnswer(ticketAction(args(post(ops.cookie, path, { intent: "answer-ticket", body: " " }), params)))).status,
    ).toBe(400);
    const answered = await routeAnswer(
      ticketAction(
        args(post(ops.cookie, path, { intent: "answer-ticket", body: "Use the reset link on the sign-in page." }), params),
      ),
    );
    expect(answered.status).toBe(200);
    const mine = await listTickets(database.db, customer.id);
    expect(mine[0]).toMatchObject({ status: "answered", answers: [{ body: "Use the reset link on the sign-in page." }] });
    const [mail] = await database.db
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.to, customer.email), eq(mailOutbox.subject, "Re: Cannot log in")));
    expect(mail).toMatchObject({ subject: "Re: Cannot log in" });
    expect(mail!.text).toContain("Use the reset link on the sign-in page.");
    const [entry] = await database.db.select().from(adminAudit).where(eq(adminAudit.action, "ticket.answer"));
    expect(entry).toMatchObject({ subjectType: "ticket", subjectId: String(ticket!.id), before: { status: "open" } });
    const page = await routeAnswer<{ answers: unknown[] }>(ticketLoader(args(get(ops.cookie, path), params)));
    expect(page.body!.answers).toHaveLength(1);
    expect((await table(ops.cookie, "tickets", "?status=answered")).body!.rows.map((r) => r.id)).toEqual([ticket!.id]);
    expect((await routeAnswer(ticketLoader(args(get(ops.cookie, "/admin/tickets/abc"), { id: "abc" })))).status).toBe(404);
  });

  it("retries a failed lead with an audit entry; a delivered one is refused without one", async () => {
    await database.db.insert(leads).values([
      {
        id: "lead-failed",
        firstName: "Fay",
        email: "fay@example.com",
        phone: "1",
        source: "live-training",
        deliveryStatus: "failed",
        lastError: "400 bad",
      },
      {
        id: "lead-ok",
        firstName: "Ole",
        email: "ole@example.com",
        phone: "1",
        source: "live-training",
        deliveryStatus: "delivered",
      },
    ]);
    const config = { apiKey: "k-us1", serverPrefix: "us1", audienceId: "a", baseUrl: "http://127.0.0.1:9" } as never;
    expect(await retryLeadAsOperator(database.db, ops, "lead-ok", config)).toBe(false);
    expect(await retryLeadAsOperator(database.db, ops, "lead-failed", config)).toBe(true);
    const entries = await database.db.select().from(adminAudit).where(eq(adminAudit.action, "lead.retry"));
    expect(entries).toMatchObject([
      {
        subjectId: "lead-failed",
        before: { deliveryStatus: "failed", lastError: "400 bad" },
        after: { deliveryStatus: "pending" },
      },
    ]);
    const page = await routeAnswer<{ lead: { deliveryStatus: string }; audit: unknown[] }>(
      leadLoader(args(get(ops.cookie, "/admin/leads/lead-failed"), { id: "lead-failed" })),
    );
    expect(page.body!.lead.deliveryStatus).toBe("pending");
    expect(page.body!.audit).toHaveLength(1);
    expect((await table(ops.cookie, "leads", "?delivery=delivered")).body!.rows.map((r) => r.id)).toEqual(["lead-ok"]);
  });

  it("audits granting and revoking the operator role", async () => {
    const form = (f: Record<string, string>) => routeAnswer(adminAction(args(post(ops.cookie, "/admin", f))));
    expect((await form({ intent: "grant-operator", email: customer.email })).status).toBe(200);
    expect((await form({ intent: "revoke-operator", userId: customer.id })).status).toBe(200);
    const entries = await database.db.select().from(adminAudit).where(eq(adminAudit.subjectId, customer.id));
    expect(entries.map((e) => [e.action, e.before, e.after])).toEqual([
      ["operator.grant", { email: customer.email, operator: false }, { email: customer.email, operator: true }],
      ["operator.revoke", { email: customer.email, operator: true }, { email: customer.email, operator: false }],
    ]);
    const page = await routeAnswer<{ audit: unknown[] }>(
      customerLoader(args(get(ops.cookie, `/admin/customers/${customer.id}`), { id: customer.id })),
    );
    expect(page.body!.audit).toHaveLength(2);
  });
});
