import { type SQL, sql } from "drizzle-orm";
import type { PGlite } from "@electric-sql/pglite";
import type pg from "pg";
import {
  type Clock,
  type Db as BossDb,
  fromPglite,
  type JobWithMetadata,
  PgBoss,
  type QueueOptions,
  type QueuePolicy,
} from "pg-boss";
import { type Database, type Db, queryRows } from "../db/client.server";
import { JOBS_SCHEMA } from "../db/migrations.server";
import {
  findStripeFollowUps,
  logFollowUpFailure,
  runStripeFollowUp,
  type StripeFollowUp,
} from "../billing/stripe/follow-ups.server";
import { captureTrial } from "../billing/capture-trial.server";
import { stripeClient } from "../billing/stripe/client.server";
import { pruneExpiredRows } from "../db/housekeeping.server";
import { CDN_PURGE_KEY, CDN_PURGE_QUEUE, purgeCdn } from "../http/purge-cdn.server";
import { env } from "../env.server";
import { deliverLead } from "../leads/delivery.server";
import { deliverMail, mailTransport, RENDER_FAILED } from "../mail/delivery.server";
import { sendDueReminders } from "../mail/send-due-reminders.server";
import { log, errorMessage } from "../log.server";
import { isDevelopmentServer, serverProcesses } from "../process/processes.server";
import {
  enqueueMailDelivery,
  type Executor,
  MAIL_DELIVERY_QUEUE,
  type MailJobData,
  sendThrough,
  setJobSender,
  setQueueKey,
} from "./send-job.server";

export { enqueueMailDelivery, MAIL_DELIVERY_QUEUE };

/**
 * Background jobs on the app's own database (docs/decisions/0010-leads-and-jobs.md): one pg-boss
 * instance in the `pgboss` schema, on the PGlite client or the PostgreSQL pool the app already has,
 * started by boot() after the migrations and stopped by shutdown() before the database closes.
 * Work after a commit is a job sent through the committing transaction; periodic work (the sweeps)
 * runs on pg-boss's own schedules, once per occurrence across every process and instance
 * (docs/decisions/0049-after-commit-work-and-schedules.md).
 */

// One name for the schema, shared with its install at migration time (db/migrations.server.ts).
export { JOBS_SCHEMA };
/**
 * Queues whose jobs are keyed by the row they work on (pg-boss's 'exclusive' policy with the row's
 * id as singletonKey): at most one waiting, retrying or running job per row, whoever sends it (the
 * row's own transaction, a sweep, two sweeps at once). A queue's policy cannot change once created,
 * so these are new names; the former 'lead-delivery' and 'mail-delivery' queues are drained.
 */
export const LEAD_DELIVERY_QUEUE = "deliver-lead";

/**
 * Lead delivery retries with capped exponential backoff for well over a day, so a Mailchimp outage
 * of a day loses no lead: pg-boss waits about retryDelay * 2^n (with jitter) up to retryDelayMax,
 * so after ~2 h of growing waits every retry is an hour apart; 40 retries cover more than 32 hours.
 * A run may take 2 requests x 10 s; after 2 minutes in 'active' (a crashed worker) it is retried.
 */
export const LEAD_DELIVERY_QUEUE_OPTIONS = {
  retryLimit: 40,
  retryDelay: 30,
  retryBackoff: true,
  retryDelayMax: 60 * 60,
  expireInSeconds: 120,
  // A job waiting longer than this (14 days) is dropped by pg-boss; the sweeper then enqueues the lead again.
  retentionSeconds: 14 * 24 * 60 * 60,
  deleteAfterSeconds: 7 * 24 * 60 * 60,
} as const satisfies QueueOptions;

/**
 * Outgoing mail (verification, password reset) through SMTP: the same capped backoff, 30 s doubling
 * up to an hour between tries; 20 retries cover about 14 hours of mail-server outage, inside the
 * verification link's 24 hours. An attempt takes at most ~50 s (delivery.server.ts's timeouts).
 */
export const MAIL_DELIVERY_QUEUE_OPTIONS = {
  retryLimit: 20,
  retryDelay: 30,
  retryBackoff: true,
  retryDelayMax: 60 * 60,
  expireInSeconds: 120,
  retentionSeconds: 2 * 24 * 60 * 60,
  deleteAfterSeconds: 7 * 24 * 60 * 60,
} as const satisfies QueueOptions;

export const TRIAL_CAPTURE_QUEUE = "trial-capture";

/**
 * A one-time build's capture at the end of its trial (billing/capture-trial.server.ts). The job waits
 * in 'created' until its start (3 days), so its retention is well past that; a provider outage is
 * retried with the same capped backoff for about a day, inside Stripe's 7-day authorisation.
 */
export const TRIAL_CAPTURE_QUEUE_OPTIONS = {
  retryLimit: 30,
  retryDelay: 60,
  retryBackoff: true,
  retryDelayMax: 60 * 60,
  expireInSeconds: 120,
  retentionSeconds: 14 * 24 * 60 * 60,
  deleteAfterSeconds: 30 * 24 * 60 * 60,
} as const satisfies QueueOptions;

export const STRIPE_FOLLOW_UP_QUEUE = "stripe-follow-up";

/**
 * A replaced plan's cancel, a repeated trial's end, a duplicate add-on's cancel at Stripe: 30 s
 * doubling up to an hour, 30 retries cover more than a day of Stripe outage, well inside the
 * shortest trial (3 days) that the trial end races. The periodic sweep enqueues the row again after
 * that. An attempt makes at most two requests of 20 s each (with the SDK's own retries).
 */
export const STRIPE_FOLLOW_UP_QUEUE_OPTIONS = {
  retryLimit: 30,
  retryDelay: 30,
  retryBackoff: true,
  retryDelayMax: 60 * 60,
  expireInSeconds: 180,
  retentionSeconds: 7 * 24 * 60 * 60,
  deleteAfterSeconds: 7 * 24 * 60 * 60,
} as const satisfies QueueOptions;

/** Unsent mail older than this is not swept again: its links have expired. */
const MAIL_SWEEP_MAX_AGE_MS = 24 * 60 * 60_000;

/**
 * A CDN purge (http/purge-cdn.server.ts) retries for about a day: 30 s doubling up to 10 minutes
 * between tries. A CDN that never accepts it leaves the pages to expire by their s-maxage.
 */
export const CDN_PURGE_QUEUE_OPTIONS = {
  retryLimit: 150,
  retryDelay: 30,
  retryBackoff: true,
  retryDelayMax: 10 * 60,
  expireInSeconds: 60,
} as const satisfies QueueOptions;

/** Connections towards Mailchimp stay at or below this, Mailchimp's own limit: the most one process may use. */
export const MAX_LEAD_DELIVERY_CONCURRENCY = 10;
/**
 * An instance's default share (all its server processes together): half of the 10, so two instances
 * on one database (the two-instance proof, tests/reliability/cluster.js) stay within them too.
 */
export const INSTANCE_LEAD_DELIVERY_CONCURRENCY = 5;

/**
 * Each server process runs its own lead-delivery worker (server.js's WEB_CONCURRENCY workers, ADR
 * 0018), so the instance's share is divided between them: 5 / 2 processes is 2 each, never 5 each
 * (three workers made 15 before). At least 1, or a process past 5 would deliver nothing.
 */
export function leadDeliveryConcurrency(processes: number): number {
  return Math.max(1, Math.floor(INSTANCE_LEAD_DELIVERY_CONCURRENCY / Math.max(1, processes)));
}

/** This process's share: workers inherit server.js's argv and environment, so they count alike. */
function defaultLeadDeliveryConcurrency(): number {
  return leadDeliveryConcurrency(serverProcesses(process.env, isDevelopmentServer(process.argv, process.env)).count);
}

export interface JobsOptions {
  /** Overrides of the lead-delivery queue options (tests use second-long delays). */
  leadDelivery?: QueueOptions;
  /** Overrides of the mail-delivery queue options. */
  mailDelivery?: QueueOptions;
  /** Overrides of the trial-capture queue options. */
  trialCapture?: QueueOptions;
  /** Overrides of the Stripe follow-up queue options. */
  stripeFollowUp?: QueueOptions;
  /** Overrides of the CDN purge queue options. */
  cdnPurge?: QueueOptions;
  /** Parallel deliveries in this process, 1..10. Default 5 divided between the server processes. */
  concurrency?: number;
  /** How often an idle worker looks for due jobs. Default 2 s. */
  pollingIntervalSeconds?: number;
  /**
   * Whether the sweeps run on their schedules (SWEEPS) besides once at start. Default true; false
   * removes the schedules (tests that call the sweeps themselves).
   */
  schedules?: boolean;
  /** Replaces every sweep's cron expression (the schedule test runs them every minute). */
  sweepCron?: string;
  /** How often pg-boss looks for due schedule occurrences, 1..45 s. Default 30 s. */
  cronMonitorIntervalSeconds?: number;
  /** A pending lead younger than this is never considered orphaned. Default 60 s. */
  sweepMinAgeMs?: number;
  /** How long stopJobs() lets running deliveries finish (server.js force-exits after 10 s). Default 5 s. */
  stopTimeoutMs?: number;
  /**
   * pg-boss's source of time for its timers and its tables (default the system clock): a test
   * moves a TestClock by hand instead of waiting for a schedule's next minute.
   */
  clock?: Clock;
}

interface Running {
  boss: PgBoss;
  database: Database;
  sweepMinAgeMs: number;
  stopTimeoutMs: number;
}

let running: Running | undefined;
let starting: Promise<void> | undefined;

interface LeadJobData {
  leadId: string;
}

interface TrialCaptureJobData {
  orderId: string;
}

/**
 * A queue and this process's worker on it. `key` names the row a job works on: the queue's
 * 'exclusive' policy then holds at most one live job per row. `formerName`: an earlier queue of the
 * same work whose leftover jobs are still worked (and count as live for the sweeps) until none is left.
 * `policy` replaces 'exclusive' for a queue created with another.
 */
interface WorkedQueue<T extends object> {
  name: string;
  formerName?: string;
  policy?: QueuePolicy;
  options: QueueOptions;
  concurrency: number;
  key: (data: T) => string;
  handle: (job: JobWithMetadata<T>) => Promise<void>;
}

/** A periodic sweep: its own queue (one job at a time, 'exclusive'), run on `cron` and once at start. */
interface Sweep {
  queue: string;
  cron: string;
  run: () => Promise<unknown>;
  /**
   * The start's own sweep, run by startJobs itself over everything written before the queue was
   * ready, instead of a boot job (which would sweep only rows past the scheduled minimum age).
   */
  atStart?: (ready: Date) => Promise<unknown>;
}

/**
 * The periodic work. Each runs at start too (a boot sweep, so nothing written while the queue was
 * down waits for the next occurrence) and on its cron schedule. Occurrences missed while no process
 * ran are skipped (pg-boss's default 'skip' policy): the boot sweep covers them.
 */
const SWEEPS: readonly Sweep[] = [
  {
    queue: "sweep-pending-leads",
    cron: "*/5 * * * *",
    run: () => sweepPendingLeads(),
    atStart: (ready) => sweepPendingLeads({ createdBefore: ready }),
  },
  {
    queue: "sweep-unsent-mail",
    cron: "*/5 * * * *",
    run: () => sweepUnsentMail(),
    atStart: (ready) => sweepUnsentMail({ createdBefore: ready }),
  },
  { queue: "prune-expired-rows", cron: "*/5 * * * *", run: () => pruneExpired() },
  { queue: "sweep-stripe-follow-ups", cron: "*/5 * * * *", run: () => sweepStripeFollowUps() },
  { queue: "sweep-trial-captures", cron: "*/5 * * * *", run: () => sweepTrialCaptures() },
  // Trial ending, a held payment's capture coming: emails due a day ahead (send-due-reminders.server.ts).
  { queue: "send-due-reminders", cron: "*/15 * * * *", run: () => sendReminders() },
];

/**
 * A sweep's queue: 'exclusive' holds one waiting or running sweep at a time (two boots at once send
 * one); no retries, the next occurrence is the retry. A sweep reads at most 500 rows per kind.
 */
const SWEEP_QUEUE_OPTIONS = {
  retryLimit: 0,
  expireInSeconds: 10 * 60,
  retentionSeconds: 60 * 60,
  deleteAfterSeconds: 24 * 60 * 60,
} as const satisfies QueueOptions;

/** pg-boss's view of the app's database: the PGlite client itself, or the pg pool. */
function bossDatabase(database: Database): BossDb {
  if (database.kind === "pglite") return fromPglite(driverClient(database) as PGlite);
  const pool = postgresPool(database);
  // Statements pg-boss asks to run on every session it uses (a TestClock's setting, in tests): run
  // on each pooled connection before its first pg-boss statement since they were set.
  let session: { statements: readonly string[] } = { statements: [] };
  const prepared = new WeakMap<pg.PoolClient, object>();
  return {
    executeSql: async (text: string, values?: unknown[]) => {
      if (session.statements.length === 0) return pool.query(text, values);
      const client = await pool.connect();
      try {
        if (prepared.get(client) !== session) {
          for (const statement of session.statements) await client.query(statement);
          prepared.set(client, session);
        }
        return await client.query(text, values);
      } finally {
        client.release();
      }
    },
    setSessionStatements: async (statements: string[]) => {
      session = { statements: [...statements] };
    },
  };
}

function driverClient(database: Database): unknown {
  return (database.db as unknown as { $client: unknown }).$client;
}

function postgresPool(database: Database): pg.Pool {
  return driverClient(database) as pg.Pool;
}

/** The queues this process works, each with its handler: a new kind of job is one entry here. */
function workedQueues(database: Database, options: JobsOptions): WorkedQueue<object>[] {
  const leadConcurrency = Math.max(
    1,
    Math.min(MAX_LEAD_DELIVERY_CONCURRENCY, options.concurrency ?? defaultLeadDeliveryConcurrency()),
  );
  const queues = [
    {
      name: LEAD_DELIVERY_QUEUE,
      formerName: "lead-delivery",
      options: { ...LEAD_DELIVERY_QUEUE_OPTIONS, ...options.leadDelivery },
      concurrency: leadConcurrency,
      key: (data) => data.leadId,
      handle: async (job) => {
        if (!job.data?.leadId) return;
        await deliverLead(database.db, job.data.leadId, { retryCount: job.retryCount, retryLimit: job.retryLimit });
      },
    } satisfies WorkedQueue<LeadJobData>,
    {
      name: MAIL_DELIVERY_QUEUE,
      formerName: "mail-delivery",
      options: { ...MAIL_DELIVERY_QUEUE_OPTIONS, ...options.mailDelivery },
      concurrency: 2,
      key: (data) => String(data.outboxId),
      handle: async (job) => {
        if (!job.data?.outboxId) return;
        await deliverMail(database.db, job.data.outboxId, { retryCount: job.retryCount, retryLimit: job.retryLimit });
      },
    } satisfies WorkedQueue<MailJobData>,
    {
      name: STRIPE_FOLLOW_UP_QUEUE,
      options: { ...STRIPE_FOLLOW_UP_QUEUE_OPTIONS, ...options.stripeFollowUp },
      concurrency: 2,
      key: followUpKey,
      handle: async (job) => {
        if (!job.data?.kind || !job.data.id) return;
        try {
          await runStripeFollowUp(database.db, stripeClient(), job.data, `${job.id}-${job.retryCount}`);
        } catch (error) {
          logFollowUpFailure(job.data, error);
          throw error;
        }
      },
    } satisfies WorkedQueue<StripeFollowUp>,
    {
      name: TRIAL_CAPTURE_QUEUE,
      options: { ...TRIAL_CAPTURE_QUEUE_OPTIONS, ...options.trialCapture },
      concurrency: 2,
      key: (data) => data.orderId,
      handle: async (job) => {
        if (!job.data?.orderId) return;
        const outcome = await captureTrial(database.db, job.data.orderId);
        // Enqueued early (the sweep, a clock ahead of the database's): fail, so pg-boss tries again later.
        if (outcome === "not_due") throw new Error("trial capture is not due yet");
      },
    } satisfies WorkedQueue<TrialCaptureJobData>,
    {
      name: CDN_PURGE_QUEUE,
      // One purge waiting and one running: a change made while a purge is on its way gets one more
      // ('exclusive' would drop it), and any number of changes before it starts share one.
      policy: "stately",
      options: { ...CDN_PURGE_QUEUE_OPTIONS, ...options.cdnPurge },
      concurrency: 1,
      key: () => CDN_PURGE_KEY,
      handle: () => purgeCdn(),
    } satisfies WorkedQueue<object>,
  ];
  return queues as unknown as WorkedQueue<object>[];
}

/** Starts pg-boss, the queues and their workers, the sweeps' schedules and a boot sweep. Idempotent. */
export function startJobs(database: Database, options: JobsOptions = {}): Promise<void> {
  if (running) return Promise.resolve();
  starting ??= (async () => {
    const boss = new PgBoss({
      db: bossDatabase(database),
      backend: database.kind === "pglite" ? "pglite" : "postgres",
      schema: JOBS_SCHEMA,
      // The sweeps' cron schedules: pg-boss sends each occurrence once, whichever instance sees it.
      schedule: true,
      ...(options.cronMonitorIntervalSeconds
        ? { cronMonitorIntervalSeconds: options.cronMonitorIntervalSeconds, cronWorkerIntervalSeconds: 1 }
        : {}),
      ...(options.clock ? { clock: options.clock } : {}),
    });
    boss.on("error", (error) => log.error("job queue error", { error: errorMessage(error) }));
    // On PostgreSQL the schema was installed with the migrations, under their lock
    // (db/migrations.server.ts); start() finds it and applies only pg-boss's own upgrades.
    await boss.start();
    const queues = workedQueues(database, options);
    try {
      for (const queue of queues) await startWorker(boss, queue, options);
      for (const sweep of SWEEPS) await startSweep(boss, sweep, options);
    } catch (error) {
      await boss.stop({ graceful: false, close: true }).catch(() => {});
      throw error;
    }
    running = {
      boss,
      database,
      sweepMinAgeMs: options.sweepMinAgeMs ?? 60_000,
      stopTimeoutMs: options.stopTimeoutMs ?? 5_000,
    };
    setJobSender(boss);
    // The boot sweep: one job per sweep queue (two instances booting together send one of each),
    // or the sweep's own start. The server may have listened while the queue started: leads and
    // mail written meanwhile have no job yet, and are sent now rather than at the scheduled sweeps'
    // minimum age (a minute, then up to their next run). A row with a live job (another
    // instance's) is skipped by its key, as in every sweep.
    const ready = new Date();
    for (const sweep of SWEEPS) await (sweep.atStart ? sweep.atStart(ready) : boss.send(sweep.queue, {}));
    log.info("jobs started", {
      queues: queues.map((q) => q.name),
      sweeps: SWEEPS.map((s) => s.queue),
      concurrency: queues[0]!.concurrency,
    });
  })().finally(() => {
    starting = undefined;
  });
  return starting;
}

/** Creates the queue or brings its options up to date, and starts this process's worker on it. */
async function startWorker<T extends object>(boss: PgBoss, queue: WorkedQueue<T>, options: JobsOptions) {
  await ensureQueue(boss, queue.name, queue.options, queue.policy);
  setQueueKey(queue.name, queue.key as (data: object) => string);
  const workOptions = {
    localConcurrency: queue.concurrency,
    batchSize: 1,
    includeMetadata: true,
    pollingIntervalSeconds: options.pollingIntervalSeconds ?? 2,
  } as const;
  const handler = async ([job]: JobWithMetadata<T>[]) => {
    if (job) await queue.handle(job);
  };
  await boss.work(queue.name, workOptions, handler);
  if (queue.formerName && (await boss.getQueue(queue.formerName))) await boss.work(queue.formerName, workOptions, handler);
  // Loads the queue into pg-boss's cache now: a cache miss inside a caller's PGlite transaction would
  // query through the main client, which waits for that very transaction.
  await boss.findJobs(queue.name, { id: "00000000-0000-0000-0000-000000000000" });
}

/**
 * Creates an 'exclusive' queue (one waiting, retrying or running job per singletonKey; one in all
 * for jobs sent without a key), or one of `policy`, or brings an existing one's options up to date:
 * createQueue leaves an existing queue as it is, and a policy cannot change after creation.
 */
async function ensureQueue(boss: PgBoss, name: string, queueOptions: QueueOptions, policy: QueuePolicy = "exclusive") {
  await boss.createQueue(name, { ...queueOptions, policy });
  await boss.updateQueue(name, queueOptions);
}

/** A sweep's queue, its worker, and its schedule (or none, when `schedules` is false). */
async function startSweep(boss: PgBoss, sweep: Sweep, options: JobsOptions) {
  await ensureQueue(boss, sweep.queue, SWEEP_QUEUE_OPTIONS);
  await boss.work(
    sweep.queue,
    { localConcurrency: 1, batchSize: 1, pollingIntervalSeconds: options.pollingIntervalSeconds ?? 2 },
    async () => {
      try {
        await sweep.run();
      } catch (error) {
        log.error(`${sweep.queue} failed`, { error: errorMessage(error) });
      }
    },
  );
  if (options.schedules === false) await boss.unschedule(sweep.queue);
  else await boss.schedule(sweep.queue, options.sweepCron ?? sweep.cron, {});
}

/**
 * Enqueues a follow-up job for every row that still needs a Stripe call (written while the queue was
 * not running in its process, or whose job ran out of retries). A row with a live job is skipped by
 * the job's key. Only with Stripe configured: the local provider has no remote follow-up.
 */
export async function sweepStripeFollowUps(): Promise<{ enqueued: number }> {
  const current = running;
  if (!current || !env().STRIPE_SECRET_KEY) return { enqueued: 0 };
  const database = current.database;
  return database.db.transaction(async (tx) => {
    const followUps = await findStripeFollowUps(tx as unknown as Db);
    return requeue(
      followUps.map((f) => ({ id: f })),
      (f) => sendThrough(tx, STRIPE_FOLLOW_UP_QUEUE, f),
      "Stripe follow-ups swept",
    );
  });
}

/** The reminder emails due in the next day, each once (keyed by its trial or order). */
async function sendReminders() {
  const current = running;
  if (!current) return;
  await sendDueReminders(current.database.db);
}

/** Rate-limit counters, sessions and tokens nothing reads any more (housekeeping.server.ts). */
async function pruneExpired() {
  const current = running;
  if (!current) return;
  const pruned = await pruneExpiredRows(current.database.db);
  if (pruned.rateLimits + pruned.sessions + pruned.verifications > 0) log.info("expired rows pruned", pruned);
}

/** Stops the workers (letting running jobs finish) and this process's part in the schedules. The database stays open. */
export async function stopJobs(): Promise<void> {
  if (starting) await starting.catch(() => {});
  const current = running;
  running = undefined;
  setJobSender(undefined);
  if (!current) return;
  await current.boss.stop({ graceful: true, timeout: current.stopTimeoutMs, close: true });
}

/**
 * Enqueues the delivery of a lead through `tx`, so the job commits or rolls back with the caller's
 * transaction: no lead is stored without its delivery, nor delivered without being stored. Answers
 * null when the queue is not running in this process (the lead stays 'pending' and the sweep
 * enqueues it at the next start: the lead row is the outbox) or when the lead already has a live job.
 */
export function enqueueLeadDelivery(tx: Executor, leadId: string): Promise<string | null> {
  return sendThrough(tx, LEAD_DELIVERY_QUEUE, { leadId } satisfies LeadJobData);
}

/**
 * Enqueues the Stripe calls a fulfilment implies through its transaction (fulfilOrderInTx), one job
 * each, so they exist exactly when the change that needs them commits. Without the queue in this
 * process the rows still say what is needed, and the sweep enqueues them.
 */
export async function enqueueStripeFollowUps(tx: Executor, followUps: readonly StripeFollowUp[]): Promise<void> {
  for (const followUp of followUps) await sendThrough(tx, STRIPE_FOLLOW_UP_QUEUE, followUp);
}

function followUpKey(followUp: StripeFollowUp): string {
  return `${followUp.kind}:${followUp.id}`;
}

interface SweepWindow {
  /** Rows written before this time; by default, before the scheduled sweeps' minimum age. */
  createdBefore?: Date;
}

/**
 * Finds 'pending' leads that have no live delivery job and enqueues them again: leads taken while the
 * queue was not running in the process, and the rare job that died without the handler recording an
 * outcome (a crash on the last try, a job dropped after its retention). Delivery is an upsert and
 * skips leads that are no longer pending, so a spare job costs one request at most, never a second
 * member. Runs at start and on its schedule.
 */
export async function sweepPendingLeads(options: SweepWindow = {}): Promise<{ enqueued: number }> {
  const current = running;
  if (!current) return { enqueued: 0 };
  const cutoff = options.createdBefore ?? new Date(Date.now() - current.sweepMinAgeMs);
  return current.database.db.transaction(async (tx) => {
    const orphans = await queryRows<{ id: string }>(
      tx,
      sql`
        select l.id from leads l
        where l.delivery_status = 'pending' and l.created_at < ${cutoff}
          and l.id not in (${liveJobKeys([LEAD_DELIVERY_QUEUE, "lead-delivery"], "leadId")})
        order by l.created_at
        limit 500`,
    );
    return requeue(orphans, (id) => enqueueLeadDelivery(tx, id), "pending leads swept");
  });
}

/**
 * The `data[key]` of the queues' jobs that are waiting, due for a retry or running. Two sweeps that
 * read the same orphans at once (their schedule and a boot sweep of another instance) cannot both
 * enqueue one: the job is keyed by the row, so the second send finds the first's live job and sends
 * nothing. The sweep's sends are in its transaction, so on PostgreSQL the second waits for the first
 * to commit: no job of the first can have run (and completed) before the second's send is decided.
 */
function liveJobKeys(queues: string[], key: "leadId" | "outboxId" | "orderId"): SQL {
  const jobs = sql.raw(`${JOBS_SCHEMA}.job`);
  const field = sql.raw(`j.data->>'${key}'`);
  const names = sql.join(
    queues.map((q) => sql`${q}`),
    sql`, `,
  );
  return sql`select ${field} from ${jobs} j where j.name in (${names}) and j.state in ('created', 'retry', 'active') and ${field} is not null`;
}

/** Enqueues each orphan again; logs how many when there were any. */
async function requeue<Id>(
  orphans: { id: Id }[],
  enqueue: (id: Id) => Promise<string | null>,
  message: string,
): Promise<{ enqueued: number }> {
  let enqueued = 0;
  for (const orphan of orphans) if (await enqueue(orphan.id)) enqueued++;
  if (orphans.length) log.info(message, { enqueued });
  return { enqueued };
}

/**
 * With SMTP configured, finds outbox rows of the last day that were never sent and have no live job
 * (mail written while the queue was not running, a job that ran out of retries or died) and queues
 * them again. Without SMTP every row is unsent by design (the dev mailbox reads them): nothing to do.
 * A row is never given a second live job (the queue's key), so two jobs cannot both pass
 * deliverMail's sentAt check and mail it twice.
 */
export async function sweepUnsentMail(options: SweepWindow = {}): Promise<{ enqueued: number }> {
  const current = running;
  if (!current || !(await mailTransport())) return { enqueued: 0 };
  const now = Date.now();
  const newest = options.createdBefore ?? new Date(now - current.sweepMinAgeMs);
  const oldest = new Date(now - MAIL_SWEEP_MAX_AGE_MS);
  return current.database.db.transaction(async (tx) => {
    const orphans = await queryRows<{ id: number }>(
      tx,
      sql`
        select m.id from mail_outbox m
        where m.sent_at is null and m.created_at < ${newest} and m.created_at > ${oldest}
          and (m.error is null or m.error not like ${RENDER_FAILED + "%"})
          and m.id::text not in (${liveJobKeys([MAIL_DELIVERY_QUEUE, "mail-delivery"], "outboxId")})
        order by m.id
        limit 500`,
    );
    return requeue(orphans, (id) => enqueueMailDelivery(tx, Number(id)), "unsent mail swept");
  });
}

/**
 * Enqueues the capture of a one-time build's authorised payment through `tx` (the authorisation and
 * its job commit together), to start when the trial ends. Null when the queue is not running in this
 * process: the order row is the outbox, and the sweeper enqueues it at the next start.
 */
export function enqueueTrialCapture(tx: Executor, orderId: string, startAfter: Date): Promise<string | null> {
  return sendThrough(tx, TRIAL_CAPTURE_QUEUE, { orderId } satisfies TrialCaptureJobData, { startAfter });
}

/**
 * Authorised (or mid-capture) trials with no live capture job, enqueued again to start at their
 * capture time: orders authorised while the queue was not running in the process, and jobs that ran
 * out of retries or were dropped. A capture that fell due while the server was down needs nothing
 * from here: pg-boss keeps its job, and the worker runs it as soon as the queue starts.
 */
export async function sweepTrialCaptures(): Promise<{ enqueued: number }> {
  const current = running;
  if (!current) return { enqueued: 0 };
  return current.database.db.transaction(async (tx) => {
    const orphans = await queryRows<{ id: string; capture_at: Date | string }>(
      tx,
      sql`
        select o.id, o.capture_at from orders o
        where o.status in ('authorized', 'capturing') and o.capture_at is not null
          and o.id not in (${liveJobKeys([TRIAL_CAPTURE_QUEUE], "orderId")})
        order by o.capture_at
        limit 500`,
    );
    const due = new Map(orphans.map((o) => [o.id, new Date(o.capture_at)]));
    return requeue(orphans, (id) => enqueueTrialCapture(tx, id, due.get(id)!), "trial captures swept");
  });
}
