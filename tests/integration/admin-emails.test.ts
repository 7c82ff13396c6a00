import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { action as emailAction, loader as emailLoader } from "~/routes/admin/email";
import { loader as exportLoader } from "~/routes/admin/export";
import { loader as tableLoader } from "~/routes/admin/table";
import { initAuth, resetAuth, type Auth } from "~/server/auth/auth.server";
import { setDatabase } from "~/server/db/client.server";
import { adminAudit, mailOutbox, userRoles } from "~/server/db/schema";
import { deliverMail, type MailTransport, setMailTransport } from "~/server/mail/delivery.server";
import { queueEmailInTx } from "~/server/mail/queue-email.server";
import type { Db } from "~/server/db/client.server";
import { engine, freshDatabase, signedInCustomerMaker } from "./support/db";
import { routeAnswer, routeArgs, siteRequests } from "./support/route";
import { enrolTwoFactor } from "./support/two-factor";

process.env.LOG_LEVEL ??= "error";

/**
 * The console's Emails table and an email's page: each outbox row's status (sent, waiting,
 * retrying, stuck, failed) from what its delivery attempts recorded, filtered and searched from
 * the address; Retry on a failed one, audited, which sends it; never the body (it may hold links).
 */
const args = routeArgs;
const { get, post } = siteRequests("10.42.0.1");
type Row = { id: number; to: string; status: string; attempts: number; lastError: string | null; retryable: boolean };
const HOUR = 60 * 60_000;

describe(`operator console: emails (${engine})`, () => {
  let database: Awaited<ReturnType<typeof freshDatabase>>;
  let auth: Auth;
  const newCustomer = signedInCustomerMaker(
    () => auth,
    () => database.db,
    "mails",
  );
  let ops: Awaited<ReturnType<typeof newCustomer>>;
  let customer: Awaited<ReturnType<typeof newCustomer>>;
  const sent: string[] = [];
  let refuse: string | null = null;
  const transport: MailTransport = async (mail) => {
    if (refuse) throw new Error(refuse);
    sent.push(mail.to);
  };
  const table = (query: string, cookie = ops.cookie) =>
    routeAnswer<{ rows: Row[]; total: number }>(tableLoader(args(get(cookie, `/admin/emails${query}`), { table: "emails" })));
  const page = (id: number, cookie = ops.cookie) =>
    routeAnswer<{ email: Row & { idempotencyKey: string | null }; audit: { action: string }[] }>(
      emailLoader(args(get(cookie, `/admin/emails/${id}`), { id: String(id) })),
    );
  const retry = (id: number | string, cookie = ops.cookie) =>
    routeAnswer<{ ok: boolean; message: string }>(
      emailAction(args(post(cookie, `/admin/emails/${id}`, { intent: "retry-email" }), { id: String(id) })),
    );
  const insert = async (values: Partial<typeof mailOutbox.$inferInsert> & { to: string }) => {
    const [row] = await database.db
      .insert(mailOutbox)
      .values({
        subject: "Your receipt",
        text: "Reset link: http://localhost:3000/secret-token",
        kind: "paymentReceipt",
        ...values,
      })
      .returning({ id: mailOutbox.id });
    return row!.id;
  };

  beforeAll(async () => {
    database = await freshDatabase();
    setDatabase(database);
    auth = await initAuth(database.db);
    ops = await newCustomer();
    customer = await newCustomer();
    await database.db.insert(userRoles).values({ userId: ops.id, role: "operator" });
    ops = { ...ops, cookie: (await enrolTwoFactor(auth, ops.cookie, "correct-horse-battery")).cookie };
  });
  afterEach(() => {
    setMailTransport(undefined);
    refuse = null;
  });
  afterAll(async () => {
    resetAuth();
    setDatabase(undefined);
    await database?.cleanup();
  });

  it("says why nothing is sent when no mail server is set up, with the dev mailbox where it can be read", async () => {
    // This suite runs without SMTP_URL, as a fresh clone does.
    const emails = await routeAnswer<{ mailNotDelivered: { devMailbox: boolean } | null }>(
      tableLoader(args(get(ops.cookie, "/admin/emails"), { table: "emails" })),
    );
    expect(emails.body?.mailNotDelivered).toEqual({ devMailbox: true });
    const customers = await routeAnswer<{ mailNotDelivered: unknown }>(
      tableLoader(args(get(ops.cookie, "/admin/customers"), { table: "customers" })),
    );
    expect(customers.body?.mailNotDelivered).toBeNull();
  });

  it("records each attempt: the last retry's failure marks the email failed, a later success clears it", async () => {
    setMailTransport(transport);
    const id = await insert({ to: "bounce@shop.example" });
    refuse = "450 mailbox busy";
    await expect(deliverMail(database.db, id, { retryCount: 3, retryLimit: 20 })).rejects.toThrow("450");
    expect((await page(id)).body!.email).toMatchObject({ status: "retrying", attempts: 1, lastError: "450 mailbox busy" });
    refuse = "550 no such mailbox";
    await expect(deliverMail(database.db, id, { retryCount: 20, retryLimit: 20 })).rejects.toThrow("550");
    const [failed] = await database.db.select().from(mailOutbox).where(eq(mailOutbox.id, id));
    expect(failed).toMatchObject({ attempts: 2, error: "550 no such mailbox", sentAt: null });
    expect(failed!.failedAt).toBeInstanceOf(Date);
    expect((await page(id)).body!.email).toMatchObject({ status: "failed", retryable: true });

    refuse = null;
    await deliverMail(database.db, id, { retryCount: 0, retryLimit: 20 });
    const [delivered] = await database.db.select().from(mailOutbox).where(eq(mailOutbox.id, id));
    expect(delivered).toMatchObject({ attempts: 3, error: null, failedAt: null });
    expect((await page(id)).body!.email).toMatchObject({ status: "sent", retryable: false });
  });

  it("a template that throws leaves a failed email that cannot be retried", async () => {
    const queued = await database.db.transaction((tx) =>
      queueEmailInTx(tx as unknown as Db, {
        kind: "paymentReceipt",
        to: "broken-template@shop.example",
        props: null as never,
        subjectId: "broken-1",
      }),
    );
    const row = (await table("?q=broken-template")).body!.rows;
    expect(row).toMatchObject([{ id: queued!.id, status: "failed", retryable: false }]);
    setMailTransport(transport);
    expect(await retry(queued!.id)).toMatchObject({ status: 409, body: { ok: false } });
  });

  it("filters by status and searches by recipient, and never sends the body to the page or the CSV", async () => {
    const now = Date.now();
    const ids = {
      sent: await insert({ to: "filter-sent@shop.example", sentAt: new Date(now), attempts: 1 }),
      waiting: await insert({ to: "filter-waiting@shop.example" }),
      stuck: await insert({ to: "filter-stuck@shop.example", createdAt: new Date(now - 2 * HOUR) }),
      retrying: await insert({ to: "filter-retrying@shop.example", error: "421 later", attempts: 4 }),
      oldRetrying: await insert({ to: "filter-old@shop.example", error: "421 later", createdAt: new Date(now - 25 * HOUR) }),
      failed: await insert({ to: "filter-failed@shop.example", error: "550 gone", attempts: 21, failedAt: new Date(now) }),
    };
    const statusOf = async (status: string) =>
      (await table(`?q=filter-&status=${status}`)).body!.rows.map((r) => r.id).sort((a, b) => a - b);
    expect(await statusOf("sent")).toEqual([ids.sent]);
    expect(await statusOf("waiting")).toEqual([ids.waiting]);
    expect(await statusOf("stuck")).toEqual([ids.stuck, ids.oldRetrying]);
    expect(await statusOf("retrying")).toEqual([ids.retrying]);
    expect(await statusOf("failed")).toEqual([ids.failed]);
    const all = await table("?q=FILTER-&size=100");
    expect(all.body!.total).toBe(6);
    expect(new Set(all.body!.rows.map((r) => r.status))).toEqual(new Set(["sent", "waiting", "stuck", "retrying", "failed"]));
    expect((await table("?q=filter-failed")).body!.rows).toMatchObject([
      { to: "filter-failed@shop.example", status: "failed", attempts: 21, lastError: "550 gone", retryable: true },
    ]);
    // An unknown status is ignored, not an error.
    expect((await table("?q=filter-&status=exploded")).body!.total).toBe(6);
    expect(JSON.stringify(all.body)).not.toContain("secret-token");
    expect(JSON.stringify((await page(ids.failed)).body)).not.toContain("secret-token");
    const csv = await (await exportLoader(args(get(ops.cookie, "/admin/export/emails?q=filter-"), { table: "emails" }))).text();
    expect(csv.split("\r\n")[0]).toBe("id,created_at,to,kind,subject,status,attempts,last_error,sent_at,failed_at");
    expect(csv).toContain("filter-failed@shop.example");
    expect(csv).not.toContain("secret-token");
  });

  it("retries a failed email once, with an audit entry; it is sent; other states are refused without one", async () => {
    const failed = await insert({ to: "retry-me@shop.example", error: "550 gone", attempts: 21, failedAt: new Date() });
    const delivered = await insert({ to: "retry-sent@shop.example", sentAt: new Date(), attempts: 1 });
    // Without a mail server there is nothing to retry with.
    setMailTransport(null);
    expect(await retry(failed)).toMatchObject({ status: 409, body: { ok: false } });
    setMailTransport(transport);
    expect(await retry(delivered)).toMatchObject({ status: 409, body: { ok: false } });
    expect(await database.db.select().from(adminAudit).where(eq(adminAudit.action, "email.retry"))).toEqual([]);

    expect(await retry(failed)).toMatchObject({ status: 200, body: { ok: true } });
    expect(sent.filter((to) => to === "retry-me@shop.example")).toHaveLength(1);
    const [row] = await database.db.select().from(mailOutbox).where(eq(mailOutbox.id, failed));
    expect(row).toMatchObject({ failedAt: null, error: null, attempts: 22 });
    expect(row!.sentAt).toBeInstanceOf(Date);
    // Again (a double click): it is sent now, so nothing happens and nothing is audited.
    expect(await retry(failed)).toMatchObject({ status: 409 });
    expect(sent.filter((to) => to === "retry-me@shop.example")).toHaveLength(1);
    const entries = await database.db.select().from(adminAudit).where(eq(adminAudit.action, "email.retry"));
    expect(entries).toMatchObject([
      {
        operatorId: ops.id,
        subjectType: "email",
        subjectId: String(failed),
        before: { status: "failed", attempts: 21, lastError: "550 gone" },
      },
    ]);
    expect((await page(failed)).body).toMatchObject({ email: { status: "sent" }, audit: [{ action: "email.retry" }] });
    expect(
      (await routeAnswer(tableLoader(args(get(ops.cookie, "/admin/audit?action=email.retry"), { table: "audit" })))).body,
    ).toMatchObject({ total: 1 });
  });

  it("answers 404 to a customer and a signed-out visitor, and to bad or unknown ids", async () => {
    const id = await insert({ to: "private@shop.example", error: "550", failedAt: new Date() });
    setMailTransport(transport);
    for (const cookie of [customer.cookie, ""]) {
      expect((await table("", cookie)).status).toBe(404);
      expect((await page(id, cookie)).status).toBe(404);
      expect((await retry(id, cookie)).status).toBe(404);
    }
    expect(sent).not.toContain("private@shop.example");
    for (const bad of ["0", "-1", "abc", "99999999999", "1e3", "2147483647"]) {
      expect((await routeAnswer(emailLoader(args(get(ops.cookie, `/admin/emails/x`), { id: bad })))).status).toBe(404);
    }
    expect((await retry("2147483647")).status).toBe(404);
    const bad = await routeAnswer(
      emailAction(args(post(ops.cookie, `/admin/emails/${id}`, { intent: "drop-table" }), { id: String(id) })),
    );
    expect(bad.status).toBe(400);
  });
});
