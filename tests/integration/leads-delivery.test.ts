import { randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { queryRows } from "~/server/db/client.server";
import { limitCounters, leads, type LeadRow } from "~/server/db/schema";
import { type JobsOptions, LEAD_DELIVERY_QUEUE, startJobs, stopJobs, sweepPendingLeads } from "~/server/jobs/queue.server";
import { retryLead, submitLead } from "~/server/leads/leads.server";
import { type MailchimpConfig, setMailchimpConfig, subscriberHash } from "~/server/leads/mailchimp.server";
import { engine, freshDatabase } from "./support/db";
import { FakeMailchimp } from "../support/fake-mailchimp";
import { openJobCount } from "./support/jobs";
import { waitFor } from "./support/wait";

process.env.LOG_LEVEL ??= "error";

/** Second-long retries instead of production's 30 s .. 1 h backoff. */
const FAST: JobsOptions = {
  leadDelivery: { retryLimit: 8, retryDelay: 1, retryBackoff: true, retryDelayMax: 2, expireInSeconds: 30 },
  pollingIntervalSeconds: 0.5,
  concurrency: 10,
  schedules: false,
  sweepMinAgeMs: 0,
  stopTimeoutMs: 10_000,
};

const lead = (email: string, extra: Record<string, string> = {}) => ({
  firstName: "Ana",
  lastName: "Lima",
  email,
  phone: "+1 555 0100",
  company: "Bright Smile Dental",
  projectType: "Web Application",
  budget: "Let's discuss",
  timeframe: "ASAP",
  message: "Hello",
  preferredTime: "Any time",
  ...extra,
});

describe(`lead delivery to Mailchimp (${engine})`, () => {
  let database: Awaited<ReturnType<typeof freshDatabase>>;
  const fake = new FakeMailchimp();
  let config: MailchimpConfig;
  let ip = 0;

  const submit = async (email: string, extra?: Record<string, string>) => {
    const result = await submitLead(database.db, lead(email, extra), { ip: `10.1.${Math.floor(++ip / 250)}.${ip % 250}` });
    if (result.status !== "accepted" || !result.leadId) throw new Error(`not accepted: ${JSON.stringify(result)}`);
    return result.leadId;
  };
  const row = async (id: string): Promise<LeadRow> => (await database.db.select().from(leads).where(eq(leads.id, id)))[0]!;
  const noLeadPending = () =>
    waitFor(
      async () => (await database.db.select({ id: leads.id }).from(leads).where(eq(leads.deliveryStatus, "pending"))).length,
      (n) => n === 0,
    );
  const settled = (id: string, timeoutMs?: number) =>
    waitFor(
      () => row(id),
      (r) => r.deliveryStatus !== "pending",
      timeoutMs,
    );

  beforeAll(async () => {
    await fake.start();
    config = { apiKey: fake.apiKey, listId: fake.listId, baseUrl: fake.url, timeoutMs: 2000 };
    setMailchimpConfig(config);
    database = await freshDatabase();
    await startJobs(database, FAST);
  });
  afterAll(async () => {
    await stopJobs();
    setMailchimpConfig(undefined);
    await database.cleanup();
    await fake.stop();
  });
  beforeEach(async () => {
    fake.reset();
    await database.db.delete(limitCounters);
  });
  afterEach(async () => {
    // Every test leaves the queue running, whatever it did to it.
    await startJobs(database, FAST);
  });

  it("delivers a lead without marketing consent as one transactional member with the merge fields and tags", async () => {
    const id = await submit("Deliver@Example.com", { message: "Automate bookings" });
    expect(await settled(id)).toMatchObject({ deliveryStatus: "delivered", deliveryAttempts: 1, lastError: null });
    expect((await row(id)).deliveredAt).toBeInstanceOf(Date);
    const hash = subscriberHash("deliver@example.com");
    expect([...fake.members.keys()]).toEqual([hash]);
    expect(fake.requests[0]!.body).not.toHaveProperty("status");
    expect(fake.members.get(hash)).toEqual({
      email_address: "deliver@example.com",
      status: "transactional",
      merge_fields: {
        FNAME: "Ana",
        LNAME: "Lima",
        PHONE: "+1 555 0100",
        COMPANY: "Bright Smile Dental",
        TIMEFRAME: "ASAP",
        PREFTIME: "Any time",
        MESSAGE: "Automate bookings",
        BUDGET: "Let's discuss",
        PROJTYPE: "Web Application",
      },
      tags: ["callback_request", "lead"],
      puts: 1,
    });
    expect(fake.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      `PUT /3.0/lists/list123/members/${hash}`,
      `POST /3.0/lists/list123/members/${hash}/tags`,
    ]);
    expect(fake.requests[1]!.body).toEqual({
      tags: [
        { name: "callback_request", status: "active" },
        { name: "lead", status: "active" },
      ],
    });
  });

  it("subscribes a lead only with marketing consent, with the time it was given; no tick never unsubscribes", async () => {
    const id = await submit("consent@example.com", { marketingConsent: "on" });
    expect(await settled(id)).toMatchObject({ deliveryStatus: "delivered" });
    const given = (await row(id)).marketingConsentAt!;
    expect(fake.members.get(subscriberHash("consent@example.com"))).toMatchObject({
      status: "subscribed",
      timestamp_opt: given.toISOString(),
    });

    // Already in the audience as transactional (an earlier request without the tick): consent now subscribes it.
    const earlier = subscriberHash("earlier@example.com");
    fake.members.set(earlier, {
      email_address: "earlier@example.com",
      status: "transactional",
      merge_fields: {},
      tags: [],
      puts: 1,
    });
    await settled(await submit("earlier@example.com", { marketingConsent: "on" }));
    expect(fake.members.get(earlier)?.status).toBe("subscribed");

    // Already subscribed (from a newsletter form elsewhere): a request without the tick leaves it so.
    const subscribed = subscriberHash("subscribed@example.com");
    fake.members.set(subscribed, {
      email_address: "subscribed@example.com",
      status: "subscribed",
      merge_fields: {},
      tags: [],
      puts: 1,
    });
    await settled(await submit("subscribed@example.com"));
    expect(fake.members.get(subscribed)?.status).toBe("subscribed");
  });

  it("retries through an outage (503, 429, a timeout) and delivers exactly once", async () => {
    fake.failNext(2, 503);
    fake.faults.push({ status: 429, body: { title: "Too Many Requests" } });
    fake.faults.push({ delayMs: 2500 }); // longer than the 2 s client timeout
    const id = await submit("outage@example.com");
    const attempts = await waitFor(
      () => row(id),
      (r) => r.deliveryAttempts >= 1 && r.deliveryStatus === "pending",
    );
    expect(attempts.lastError).toMatch(/^Mailchimp (503|429)/);
    expect(attempts.lastAttemptAt).toBeInstanceOf(Date);
    const done = await settled(id);
    expect(done).toMatchObject({ deliveryStatus: "delivered", deliveryAttempts: 5, lastError: null });
    expect(fake.members.size).toBe(1);
    expect(fake.members.get(subscriberHash("outage@example.com"))?.tags).toEqual(["callback_request", "lead"]);
  });

  it("a failure after the member was written retries without a second member", async () => {
    fake.faults.push({ delayMs: 0 }); // PUT succeeds
    fake.failNext(1, 500); // tags fail once
    const id = await submit("tags@example.com");
    expect(await settled(id)).toMatchObject({ deliveryStatus: "delivered", deliveryAttempts: 2 });
    expect(fake.members.size).toBe(1);
    expect(fake.members.get(subscriberHash("tags@example.com"))?.puts).toBe(2);
  });

  it("a 400 ends the lead as failed with Mailchimp's reason, without retrying; retryLead sends it again", async () => {
    fake.failEmails.set("bad@example.com", {
      status: 400,
      body: {
        title: "Invalid Resource",
        status: 400,
        detail: "bad@example.com looks fake or invalid, please enter a real email address.",
      },
    });
    const id = await submit("bad@example.com");
    const failed = await settled(id);
    expect(failed).toMatchObject({ deliveryStatus: "failed", deliveryAttempts: 1 });
    expect(failed.lastError).toBe(
      "Mailchimp 400: Invalid Resource - bad@example.com looks fake or invalid, please enter a real email address.",
    );
    // Its job has ended (no retry is scheduled) and a sweep leaves a failed lead alone, so no
    // second request can follow.
    await waitFor(
      () => openJobCount(database.db, LEAD_DELIVERY_QUEUE, { key: "leadId", value: id }),
      (n) => n === 0,
    );
    expect(await sweepPendingLeads()).toEqual({ enqueued: 0 });
    expect(fake.requests).toHaveLength(1);
    expect((await row(id)).deliveryAttempts).toBe(1);

    fake.failEmails.clear();
    expect(await retryLead(database.db, id)).toBe(true);
    expect(await settled(id)).toMatchObject({ deliveryStatus: "delivered", deliveryAttempts: 2, lastError: null });
    expect(fake.members.size).toBe(1);
  });

  it("gives up as failed after the last retry, keeping the reason", async () => {
    await stopJobs();
    await startJobs(database, { ...FAST, leadDelivery: { ...FAST.leadDelivery, retryLimit: 2 } });
    fake.failNext(10, 503);
    const id = await submit("down@example.com");
    const failed = await settled(id);
    expect(failed).toMatchObject({ deliveryStatus: "failed", deliveryAttempts: 3 });
    expect(failed.lastError).toMatch(/^Mailchimp 503: .*gave up after 3 attempts/);
    expect(fake.members.size).toBe(0);
    await stopJobs();
  });

  it("a worker stopped and restarted in the middle still delivers, once", async () => {
    fake.failNext(1, 503);
    fake.faults.push({ delayMs: 1500, status: 503 }); // the second try is in flight when the worker stops
    const id = await submit("restart@example.com");
    await waitFor(
      async () => fake.requests.length,
      (n) => n >= 2,
    );
    await stopJobs(); // graceful: waits for the running delivery
    const afterStop = await row(id);
    expect(afterStop).toMatchObject({ deliveryStatus: "pending", deliveryAttempts: 2 });
    const requestsAtStop = fake.requests.length;
    // Stopped: nothing more happens.
    fake.failNext(50, 503);
    await new Promise((r) => setTimeout(r, 1500));
    expect(fake.requests.length).toBe(requestsAtStop);

    fake.faults = [];
    await startJobs(database, FAST);
    const done = await settled(id);
    expect(done.deliveryStatus).toBe("delivered");
    expect(done.deliveryAttempts).toBeGreaterThanOrEqual(afterStop.deliveryAttempts);
    expect(fake.members.size).toBe(1);
  });

  it("leads taken while the queue was down are sent by the sweeper at the next start", async () => {
    await stopJobs();
    const id = await submit("offline@example.com");
    expect((await row(id)).deliveryStatus).toBe("pending");
    const jobs = await queryRows<{ n: number }>(
      database.db,
      sql`select count(*)::int as n from pgboss.job where data->>'leadId' = ${id}`,
    );
    expect(jobs[0]!.n).toBe(0);
    await startJobs(database, FAST);
    expect(await settled(id)).toMatchObject({ deliveryStatus: "delivered" });
    // A second sweep finds nothing left to do.
    expect(await sweepPendingLeads()).toEqual({ enqueued: 0 });
    expect(fake.members.size).toBe(1);
  });

  it("a lead taken while the queue starts (the server already listens) is sent as it starts, not a sweep's minute later", async () => {
    await stopJobs();
    const id = await submit("while-starting@example.com");
    expect((await row(id)).deliveryStatus).toBe("pending");
    // The scheduled sweeps' minimum age as in production: only the start's catch-up can send it now.
    await startJobs(database, { ...FAST, sweepMinAgeMs: 60_000 });
    const jobs = await queryRows<{ n: number }>(
      database.db,
      sql`select count(*)::int as n from pgboss.job where data->>'leadId' = ${id}`,
    );
    expect(jobs[0]!.n).toBe(1);
    expect(await settled(id)).toMatchObject({ deliveryStatus: "delivered" });
    expect(fake.members.get(subscriberHash("while-starting@example.com"))?.puts).toBe(1);
  });

  it("two sweeps at once (worker processes whose timers fire together) queue each pending lead exactly once", async () => {
    // The sweeps would also take an earlier test's lead still on its way (slow machines).
    await noLeadPending();
    // Pending leads without a job, as a queue that was down leaves them.
    const emails = Array.from({ length: 20 }, (_, i) => `swept-${i}@example.com`);
    const ids = emails.map(() => randomUUID());
    await database.db.insert(leads).values(
      emails.map((email, i) => ({
        id: ids[i]!,
        firstName: "Ana",
        email,
        phone: "+1 555 0100",
        source: "live-training",
        createdAt: new Date(Date.now() - 60_000),
      })),
    );
    // On PostgreSQL each sweep runs on a pooled connection of its own, as in two processes.
    const sweeps = await Promise.all([sweepPendingLeads(), sweepPendingLeads()]);
    expect(sweeps[0]!.enqueued + sweeps[1]!.enqueued).toBe(ids.length);
    const jobs = await queryRows<{ id: string; n: number }>(
      database.db,
      sql`select data->>'leadId' as id, count(*)::int as n from pgboss.job
          where name = ${LEAD_DELIVERY_QUEUE} and data->>'leadId' in (${sql.join(ids, sql`, `)})
          group by 1`,
    );
    expect(jobs.filter((j) => j.n !== 1)).toEqual([]);
    expect(jobs).toHaveLength(ids.length);
    for (const id of ids) expect(await settled(id)).toMatchObject({ deliveryStatus: "delivered" });
    expect(emails.filter((e) => fake.members.get(subscriberHash(e))?.puts !== 1)).toEqual([]);
  });

  it("50 concurrent submissions are all stored and each delivered once, at most 10 requests at a time", async () => {
    // An earlier test's lead still on its way would reach the fake inside this test's count.
    await noLeadPending();
    fake.reset();
    fake.latencyMs = 100;
    fake.failNext(10, 503);
    const emails = Array.from({ length: 50 }, (_, i) => `load-${i}@example.com`);
    const ids = await Promise.all(emails.map((e) => submit(e)));
    expect(new Set(ids).size).toBe(50);
    await waitFor(
      async () =>
        (
          await database.db
            .select({ s: leads.deliveryStatus })
            .from(leads)
            .where(sql`${leads.email} like 'load-%'`)
        ).map((r) => r.s),
      (statuses) => statuses.length === 50 && statuses.every((s) => s === "delivered"),
      60_000,
    );
    expect(fake.members.size).toBe(50);
    expect(emails.filter((e) => fake.members.get(subscriberHash(e))?.puts !== 1)).toEqual([]);
    expect(fake.maxInFlight).toBeLessThanOrEqual(10);
    expect(fake.maxInFlight).toBeGreaterThan(1);
  });

  it("a wrong API key is a permanent failure", async () => {
    setMailchimpConfig({ ...config, apiKey: "wrong-us1" });
    try {
      const id = await submit("key@example.com");
      const failed = await settled(id);
      expect(failed).toMatchObject({ deliveryStatus: "failed" });
      expect(failed.lastError).toMatch(/^Mailchimp 401: API Key Invalid/);
    } finally {
      setMailchimpConfig(config);
    }
  });
});
