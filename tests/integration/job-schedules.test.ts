import { sql } from "drizzle-orm";
import { TestClock } from "pg-boss";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { queryRows } from "~/server/db/client.server";
import { engine, freshDatabase } from "./support/db";

process.env.LOG_LEVEL ??= "error";

type Jobs = typeof import("~/server/jobs/queue.server");

/** A fresh copy of the jobs module: its own pg-boss, as another process or instance has. */
async function instance(): Promise<Jobs> {
  vi.resetModules();
  return import("~/server/jobs/queue.server");
}

const SWEEP = "prune-expired-rows";
const MINUTE = 60_000;
const allCompleted = (jobs: { state: string }[]) => jobs.length > 0 && jobs.every((j) => j.state === "completed");

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
    // pg-boss's TestClock moves both instances' timers and the job tables' clock (job_now(), which
    // also stamps a job's created_on) by hand, so the next minute's occurrence comes without waiting
    // a minute.
    const clock = new TestClock(Math.floor(Date.now() / MINUTE) * MINUTE + 10_000);
    const options = { sweepCron: "* * * * *", cronMonitorIntervalSeconds: 1, pollingIntervalSeconds: 0.5, clock };
    instances.push(await instance(), await instance());
    expect(instances[0]).not.toBe(instances[1]);
    // One after the other: on PGlite both share one session, where two attaches of the test clock at once collide.
    for (const jobs of instances) await jobs.startJobs(database, options);

    /**
     * Moves the clock half a second at a time, never past `until`, until `read` gives what `done`
     * accepts. Job handlers run in real time meanwhile, so the clock waits for them at its bound
     * instead of running into the next minute (whose occurrence would be counted too).
     */
    const tickUntil = async <T>(until: number, read: () => Promise<T>, done: (value: T) => boolean): Promise<T> => {
      for (let step = 0; step < 1_500; step++) {
        const value = await read();
        if (done(value)) return value;
        if (clock.now() + 500 <= until) await clock.tick(500);
        await new Promise((r) => setTimeout(r, 20));
      }
      throw new Error("not reached within 30 s");
    };

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
    // The boot sweeps ran, with the occurrence of the last 60 s (pg-boss's due window) that a start
    // also sends; a few more seconds of cron passes let everything the starts sent finish.
    const startMinuteEnd = Math.floor(clock.now() / MINUTE) * MINUTE + MINUTE - 5_000;
    await tickUntil(startMinuteEnd, () => jobsOf(SWEEP), allCompleted);
    const queues = ["prune-expired-rows", "sweep-pending-leads", "sweep-unsent-mail", "sweep-stripe-follow-ups"];
    await clock.tick(5_000);
    for (const queue of queues) await tickUntil(startMinuteEnd, () => jobsOf(queue), allCompleted);
    // The next minute: its occurrence, which both instances' cron passes see, is sent once, and
    // further passes in the same minute send nothing more.
    const nextMinute = Math.floor(clock.now() / MINUTE) * MINUTE + MINUTE;
    const inNextMinute = (queue: string) => jobsOf(queue, new Date(nextMinute), new Date(nextMinute + MINUTE));
    await clock.setTime(nextMinute + 5_000);
    for (const queue of queues) await tickUntil(nextMinute + 30_000, () => inNextMinute(queue), allCompleted);
    while (clock.now() + 1_000 <= nextMinute + 55_000) await clock.tick(1_000);
    for (const queue of queues) {
      const occurrence = await tickUntil(nextMinute + 55_000, () => inNextMinute(queue), allCompleted);
      expect({ queue, jobs: occurrence.length }).toEqual({ queue, jobs: 1 });
    }
  });

  it("without schedules the sweeps run only at start", async () => {
    for (const jobs of instances.splice(0)) await jobs.stopJobs();
    const jobs = await instance();
    instances.push(jobs);
    await jobs.startJobs(database, { schedules: false, pollingIntervalSeconds: 0.5 });
    expect(await queryRows(database.db, sql`select name from pgboss.schedule`)).toEqual([]);
  });
});
