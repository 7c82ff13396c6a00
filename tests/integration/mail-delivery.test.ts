import { eq, sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { queryRows } from "~/server/db/client.server";
import { mailOutbox } from "~/server/db/schema";
import { type JobsOptions, MAIL_DELIVERY_QUEUE, startJobs, stopJobs, sweepUnsentMail } from "~/server/jobs/queue.server";
import { createSmtpTransport, setMailTransport } from "~/server/mail/delivery.server";
import { sendMail } from "~/server/mail/mail.server";
import { engine, freshDatabase } from "./support/db";
import { FakeSmtp } from "./support/fake-smtp";
import { waitFor } from "./support/wait";

process.env.LOG_LEVEL ??= "error";

/** Second-long retries instead of production's 30 s .. 1 h backoff. */
const FAST: JobsOptions = {
  mailDelivery: { retryLimit: 5, retryDelay: 1, retryBackoff: true, retryDelayMax: 2, expireInSeconds: 30 },
  pollingIntervalSeconds: 0.5,
  schedules: false,
  sweepMinAgeMs: 0,
  stopTimeoutMs: 10_000,
};

describe(`mail delivery through SMTP (${engine})`, () => {
  let database: Awaited<ReturnType<typeof freshDatabase>>;
  const smtp = new FakeSmtp();
  let smtpUrl = "";
  let n = 0;
  const mail = (subject: string) => ({ to: `mail-${++n}@example.com`, subject, text: `Body of ${subject}` });
  const rowTo = async (to: string) => (await database.db.select().from(mailOutbox).where(eq(mailOutbox.to, to)))[0]!;
  const sentTo = (to: string) => smtp.received.filter((m) => m.to.some((rcpt) => rcpt.includes(to)));
  const whenSent = (to: string) =>
    waitFor(
      () => rowTo(to),
      (r) => r.sentAt !== null,
    );

  beforeAll(async () => {
    smtpUrl = await smtp.start();
    setMailTransport(await createSmtpTransport(smtpUrl));
    database = await freshDatabase();
    await startJobs(database, FAST);
  });
  afterAll(async () => {
    await stopJobs();
    setMailTransport(undefined);
    await database.cleanup();
    await smtp.stop();
  });
  beforeEach(() => {
    smtp.failNext(0);
  });
  afterEach(async () => {
    await startJobs(database, FAST);
  });

  it("queues the mail with its outbox row and sends it once", async () => {
    const m = mail("Verify your email address");
    await sendMail(database.db, m);
    const row = await whenSent(m.to);
    expect(row.error).toBeNull();
    const received = sentTo(m.to);
    expect(received).toHaveLength(1);
    expect(received[0]!.data).toContain("Subject: Verify your email address");
    expect(received[0]!.data).toContain(m.text);
  });

  it("answers at once while the mail server is down, then delivers once it is back", async () => {
    smtp.failNext(3);
    const m = mail("Reset your password");
    const connectionsBefore = smtp.connections;
    await sendMail(database.db, m);
    // The caller was not held up by the failing server: no attempt had been made when sendMail returned.
    expect(smtp.connections).toBe(connectionsBefore);
    const row = await whenSent(m.to);
    expect(smtp.connections - connectionsBefore).toBe(4);
    expect(row.error).toBeNull();
    expect(sentTo(m.to)).toHaveLength(1);
  });

  it("records the failure on the row while the mail server stays down", async () => {
    await stopJobs();
    await startJobs(database, { ...FAST, mailDelivery: { ...FAST.mailDelivery, retryLimit: 1 } });
    smtp.failNext(2);
    const m = mail("You already have an account");
    await sendMail(database.db, m);
    const row = await waitFor(
      () => rowTo(m.to),
      (r) => r.error !== null,
    );
    expect(row.sentAt).toBeNull();
    expect(row.error).toMatch(/421|Service not available/);
    expect(sentTo(m.to)).toHaveLength(0);
  });

  it("mail written while the queue is not running is sent once it starts (the sweeper)", async () => {
    await stopJobs();
    smtp.failNext(1);
    const m = mail("Verify your email address");
    // No queue in this process: one attempt now, which fails; the row keeps the mail.
    await sendMail(database.db, m);
    const failed = await rowTo(m.to);
    expect(failed.sentAt).toBeNull();
    expect(failed.error).toMatch(/421|Service not available/);
    await startJobs(database, FAST);
    await whenSent(m.to);
    expect(sentTo(m.to)).toHaveLength(1);
    // Sent rows are not swept again.
    expect(await sweepUnsentMail()).toEqual({ enqueued: 0 });
  });

  it("mail written while the queue starts (the server already listens) is sent as it starts, not a sweep's minute later", async () => {
    await stopJobs();
    smtp.failNext(1);
    const m = mail("Verify your email address");
    await sendMail(database.db, m);
    expect((await rowTo(m.to)).sentAt).toBeNull();
    // The scheduled sweeps' minimum age as in production: only the start's catch-up can send it now.
    await startJobs(database, { ...FAST, sweepMinAgeMs: 60_000 });
    await whenSent(m.to);
    expect(sentTo(m.to)).toHaveLength(1);
  });

  it("two sweeps at once (worker processes whose timers fire together) queue each unsent row exactly once", async () => {
    // Unsent rows without a job, as an outage longer than the retries leaves them.
    const recipients = Array.from({ length: 20 }, () => mail("Verify your email address").to);
    const rows = await database.db
      .insert(mailOutbox)
      .values(recipients.map((to) => ({ to, subject: "Verify", text: "Body", createdAt: new Date(Date.now() - 60_000) })))
      .returning({ id: mailOutbox.id });
    const ids = rows.map((r) => String(r.id));
    // On PostgreSQL each sweep runs on a pooled connection of its own, as in two processes.
    const sweeps = await Promise.all([sweepUnsentMail(), sweepUnsentMail()]);
    expect(sweeps[0]!.enqueued + sweeps[1]!.enqueued).toBe(ids.length);
    const jobs = await queryRows<{ id: string; n: number }>(
      database.db,
      sql`select data->>'outboxId' as id, count(*)::int as n from pgboss.job
          where name = ${MAIL_DELIVERY_QUEUE} and data->>'outboxId' in (${sql.join(ids, sql`, `)})
          group by 1`,
    );
    expect(jobs.filter((j) => j.n !== 1)).toEqual([]);
    expect(jobs).toHaveLength(ids.length);
    for (const to of recipients) await whenSent(to);
    expect(recipients.filter((to) => sentTo(to).length !== 1)).toEqual([]);
  });

  it("without SMTP the mail stays in the outbox for the dev mailbox, and the sweeper leaves it alone", async () => {
    setMailTransport(null);
    try {
      const m = mail("Verify your email address");
      await sendMail(database.db, m);
      const row = await rowTo(m.to);
      expect(row.sentAt).toBeNull();
      expect(row.error).toBeNull();
      expect(await sweepUnsentMail()).toEqual({ enqueued: 0 });
    } finally {
      setMailTransport(await createSmtpTransport(smtpUrl));
    }
  });
});
