import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { queryRows } from "~/server/db/client.server";
import { engine, freshDatabase } from "./support/db";
import { waitFor } from "./support/wait";

process.env.LOG_LEVEL ??= "error";

type Jobs = typeof import("~/server/jobs/queue.server");

/** A fresh copy of the jobs module: its own pg-boss, as another process or instance has. */
async function instance(): Promise<Jobs> {
  vi.resetModules();
  return import("~/server/jobs/queue.server");
}

const SWEEP = "prune-expired-rows";

describe(`periodic work on pg-boss schedules (${engine})`, () => {
  let database: Awaited<ReturnType<typeof freshDatabase>>;
  const instances: Jobs[] = [];

  const jobsOf = (queue: string, since = new Date(0), until = new Date("9999-12-31T00:00:00Z")) =>
    queryRows<{ state: string }>(
      database.db,
      sql`select state::text as state from pgboss.job
          where name = ${queue} and created_on >= ${since} and created_on < ${until} order by created_on`,
    );

  beforeAll(async () => {
    database = await freshDatabase();
  });
  afterAll(async () => {
    for (const jobs of instances) await jobs.stopJobs();
    await database.cleanup();
  });

  it("two instances on one database run each occurrence of a schedule once, and each sends a boot sweep", async () => {
    const options = { sweepCron: "* * * * *", cronMonitorIntervalSeconds: 1, pollingIntervalSeconds: 0.5 };
    instances.push(await instance(), await instance());
    expect(instances[0]).not.toBe(instances[1]);
    await Promise.all(instances.map((jobs) => jobs.startJobs(database, options)));

    // One schedule row per sweep, however many instances wrote it.
    const schedules = await queryRows<{ name: string; cron: string }>(
      database.db,
      sql`select name, cron from pgboss.schedule order by name`,
    );
    expect(schedules).toEqual(
      [
        "prune-expired-rows",
        "send-due-reminders",
        "sweep-pending-leads",
        "sweep-stripe-follow-ups",
        "sweep-trial-captures",
        "sweep-unsent-mail",
      ].map((name) => ({
        name,
        cron: "* * * * *",
      })),
    );
    // The boot sweeps ran (the queue is exclusive: one or two, never two at once).
    const boot = await waitFor(
      () => jobsOf(SWEEP),
      (jobs) => jobs.length > 0 && jobs.every((j) => j.state === "completed"),
    );
    expect(boot.length).toBeGreaterThanOrEqual(1);
    expect(boot.length).toBeLessThanOrEqual(2);

    // A start also sends the occurrence of the last 60 s (pg-boss's due window), which may come a
    // moment after the boot sweep; so one whole minute later is counted: the occurrence of that
    // minute, which both instances' cron passes see, is sent once.
    const nextMinute = Math.ceil((Date.now() + 5_000) / 60_000) * 60_000;
    const since = new Date(nextMinute - 1_000);
    const until = new Date(nextMinute + 59_000);
    await new Promise((r) => setTimeout(r, nextMinute - Date.now() + 8_000));
    for (const queue of ["prune-expired-rows", "sweep-pending-leads", "sweep-unsent-mail", "sweep-stripe-follow-ups"]) {
      const occurrence = await waitFor(
        () => jobsOf(queue, since, until),
        (jobs) => jobs.length > 0 && jobs.every((j) => j.state === "completed"),
      );
      expect({ queue, jobs: occurrence.length }).toEqual({ queue, jobs: 1 });
    }
  }, 150_000);

  it("without schedules the sweeps run only at start", async () => {
    for (const jobs of instances.splice(0)) await jobs.stopJobs();
    const jobs = await instance();
    instances.push(jobs);
    await jobs.startJobs(database, { schedules: false, pollingIntervalSeconds: 0.5 });
    expect(await queryRows(database.db, sql`select name from pgboss.schedule`)).toEqual([]);
  });
});
