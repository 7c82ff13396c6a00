import { type SQL, sql } from "drizzle-orm";
import type { PGlite } from "@electric-sql/pglite";
import type pg from "pg";
import { type Db as BossDb, fromDrizzle, fromPglite, type JobWithMetadata, PgBoss, type QueueOptions } from "pg-boss";
import { type Database, type Db, queryRows, whileSetupLocked } from "../db/client.server";
import { captureTrial } from "../billing/capture-trial.server";
import { sweepStripeFollowUps } from "../billing/stripe/follow-ups.server";
import { stripeClient } from "../billing/stripe/client.server";
import { pruneExpiredRows } from "../db/housekeeping.server";
import { env } from "../env.server";
import { deliverLead } from "../leads/delivery.server";
import { deliverMail, mailTransport } from "../mail/delivery.server";
import { log, errorMessage } from "../log.server";
import { isDevelopmentServer, serverProcesses } from "./processes.server";

/**
 * Background jobs on the app's own database (docs/decisions/0010-leads-and-jobs.md): one pg-boss
 * instance in the `pgboss` schema, on the PGlite client or the PostgreSQL pool the app already has,
 * started by boot() after the migrations and stopped by shutdown() before the database closes.
 */

export const JOBS_SCHEMA = "pgboss";
export const LEAD_DELIVERY_QUEUE = "lead-delivery";

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

export const MAIL_DELIVERY_QUEUE = "mail-delivery";

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

/** Unsent mail older than this is not swept again: its links have expired. */
const MAIL_SWEEP_MAX_AGE_MS = 24 * 60 * 60_000;

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
  /** Parallel deliveries in this process, 1..10. Default 5 divided between the server processes. */
  concurrency?: number;
  /** How often an idle worker looks for due jobs. Default 2 s. */
  pollingIntervalSeconds?: number;
  /** How often the sweeps run (pending leads and unsent mail without a live job, expired rows). Default 5 minutes; 0 = only at start. */
  sweepIntervalMs?: number;
  /** A pending lead younger than this is never considered orphaned. Default 60 s. */
  sweepMinAgeMs?: number;
  /** How long stopJobs() lets running deliveries finish (server.js force-exits after 10 s). Default 5 s. */
  stopTimeoutMs?: number;
}

interface Running {
  boss: PgBoss;
  database: Database;
  sweeper: ReturnType<typeof setInterval> | undefined;
  sweepMinAgeMs: number;
  /** How often the sweeps run (0: only at start). */
  sweepIntervalMs: number;
  stopTimeoutMs: number;
}

let running: Running | undefined;
let starting: Promise<void> | undefined;

interface LeadJobData {
  leadId: string;
}

interface MailJobData {
  outboxId: number;
}

interface TrialCaptureJobData {
  orderId: string;
}

/** pg-boss's view of the app's database: the PGlite client itself, or the pg pool. */
function bossDatabase(database: Database): BossDb {
  if (database.kind === "pglite") return fromPglite(driverClient(database) as PGlite);
  const pool = postgresPool(database);
  return { executeSql: (text: string, values?: unknown[]) => pool.query(text, values) };
}

function driverClient(database: Database): unknown {
  return (database.db as unknown as { $client: unknown }).$client;
}

function postgresPool(database: Database): pg.Pool {
  return driverClient(database) as pg.Pool;
}

/** Starts pg-boss, the lead-delivery queue and its worker, and the pending-lead sweeper. Idempotent. */
export function startJobs(database: Database, options: JobsOptions = {}): Promise<void> {
  if (running) return Promise.resolve();
  starting ??= (async () => {
    const boss = new PgBoss({
      db: bossDatabase(database),
      backend: database.kind === "pglite" ? "pglite" : "postgres",
      schema: JOBS_SCHEMA,
      // No cron schedules are used.
      schedule: false,
    });
    boss.on("error", (error) => log.error("job queue error", { error: errorMessage(error) }));
    // The first start installs the pgboss schema: on PostgreSQL, one instance at a time.
    if (database.kind === "postgres") await whileSetupLocked(postgresPool(database), () => boss.start());
    else await boss.start();
    let concurrency: number;
    try {
      concurrency = await setUpLeadDelivery(boss, database, options);
      await setUpMailDelivery(boss, database, options);
      await setUpTrialCapture(boss, database, options);
    } catch (error) {
      await boss.stop({ graceful: false, close: true }).catch(() => {});
      throw error;
    }

    const state: Running = {
      boss,
      database,
      sweeper: undefined,
      sweepMinAgeMs: options.sweepMinAgeMs ?? 60_000,
      sweepIntervalMs: options.sweepIntervalMs ?? 5 * 60_000,
      stopTimeoutMs: options.stopTimeoutMs ?? 5_000,
    };
    running = state;
    if (state.sweepIntervalMs > 0) {
      state.sweeper = setInterval(() => void sweepAll(), state.sweepIntervalMs);
      state.sweeper.unref();
    }
    await sweepAll();
    log.info("jobs started", { queues: [LEAD_DELIVERY_QUEUE, MAIL_DELIVERY_QUEUE, TRIAL_CAPTURE_QUEUE], concurrency });
  })().finally(() => {
    starting = undefined;
  });
  return starting;
}

/** Creates (or updates) the lead-delivery queue and starts its worker; answers the concurrency. */
async function setUpLeadDelivery(boss: PgBoss, database: Database, options: JobsOptions): Promise<number> {
  const queueOptions = { ...LEAD_DELIVERY_QUEUE_OPTIONS, ...options.leadDelivery };
  const concurrency = Math.max(
    1,
    Math.min(MAX_LEAD_DELIVERY_CONCURRENCY, options.concurrency ?? defaultLeadDeliveryConcurrency()),
  );
  await startWorker<LeadJobData>(boss, LEAD_DELIVERY_QUEUE, queueOptions, concurrency, options, async (job) => {
    if (!job.data?.leadId) return;
    await deliverLead(database.db, job.data.leadId, { retryCount: job.retryCount, retryLimit: job.retryLimit });
  });
  return concurrency;
}

/** Creates (or updates) the mail-delivery queue and starts its worker. */
async function setUpMailDelivery(boss: PgBoss, database: Database, options: JobsOptions) {
  const queueOptions = { ...MAIL_DELIVERY_QUEUE_OPTIONS, ...options.mailDelivery };
  await startWorker<MailJobData>(boss, MAIL_DELIVERY_QUEUE, queueOptions, 2, options, async (job) => {
    if (!job.data?.outboxId) return;
    await deliverMail(database.db, job.data.outboxId, { retryCount: job.retryCount, retryLimit: job.retryLimit });
  });
}

/** Creates (or updates) the trial-capture queue and starts its worker. */
async function setUpTrialCapture(boss: PgBoss, database: Database, options: JobsOptions) {
  const queueOptions = { ...TRIAL_CAPTURE_QUEUE_OPTIONS, ...options.trialCapture };
  await startWorker<TrialCaptureJobData>(boss, TRIAL_CAPTURE_QUEUE, queueOptions, 2, options, async (job) => {
    if (!job.data?.orderId) return;
    const outcome = await captureTrial(database.db, job.data.orderId);
    // Enqueued early (the sweeper, a clock ahead of the database's): fail, so pg-boss tries again later.
    if (outcome === "not_due") throw new Error("trial capture is not due yet");
  });
}

/** Creates the queue or brings its options up to date, and starts this process's worker on it. */
async function startWorker<T extends object>(
  boss: PgBoss,
  queue: string,
  queueOptions: QueueOptions,
  localConcurrency: number,
  options: JobsOptions,
  handle: (job: JobWithMetadata<T>) => Promise<void>,
) {
  // createQueue leaves an existing queue as it is; updateQueue brings its options up to date.
  await boss.createQueue(queue, queueOptions);
  await boss.updateQueue(queue, queueOptions);
  await boss.work(
    queue,
    { localConcurrency, batchSize: 1, includeMetadata: true, pollingIntervalSeconds: options.pollingIntervalSeconds ?? 2 },
    async ([job]: JobWithMetadata<T>[]) => {
      if (job) await handle(job);
    },
  );
  // Loads the queue into pg-boss's cache now: a cache miss inside a caller's PGlite transaction would
  // query through the main client, which waits for that very transaction.
  await boss.findJobs(queue, { id: "00000000-0000-0000-0000-000000000000" });
}

async function sweepAll() {
  for (const [name, sweep] of [
    ["pending lead", sweepPendingLeads],
    ["unsent mail", sweepUnsentMail],
    ["expired rows", pruneExpired],
    ["Stripe follow-up", stripeFollowUps],
    ["trial capture", sweepTrialCaptures],
  ] as const) {
    await sweep().catch((error: unknown) => log.error(`${name} sweep failed`, { error: errorMessage(error) }));
  }
}

/** A replaced plan's cancel or a repeated trial's end that failed after its commit, retried. */
async function stripeFollowUps() {
  const current = running;
  if (!current || !env().STRIPE_SECRET_KEY) return;
  const settled = await sweepStripeFollowUps(current.database.db, stripeClient(), current.sweepIntervalMs);
  if (settled && settled.canceled + settled.ended > 0) log.info("Stripe follow-ups settled", settled);
}

/** Rate-limit counters, sessions and tokens nothing reads any more (housekeeping.server.ts). */
async function pruneExpired() {
  const current = running;
  if (!current) return;
  const pruned = await pruneExpiredRows(current.database.db);
  if (pruned.rateLimits + pruned.sessions + pruned.verifications > 0) log.info("expired rows pruned", pruned);
}

/** Stops the worker (letting running deliveries finish) and the sweeper. The database stays open. */
export async function stopJobs(): Promise<void> {
  if (starting) await starting.catch(() => {});
  const current = running;
  running = undefined;
  if (!current) return;
  if (current.sweeper) clearInterval(current.sweeper);
  await current.boss.stop({ graceful: true, timeout: current.stopTimeoutMs, close: true });
}

type Executor = Pick<Db, "execute">;
type SendOptions = { startAfter?: Date };

/**
 * Enqueues the delivery of a lead through `tx`, so the job commits or rolls back with the caller's
 * transaction: no lead is stored without its delivery, nor delivered without being stored. Answers
 * null when the queue is not running in this process: the lead stays 'pending' and the sweeper
 * enqueues it at the next start (the lead row is the outbox).
 */
export function enqueueLeadDelivery(tx: Executor, leadId: string): Promise<string | null> {
  return sendThrough(tx, LEAD_DELIVERY_QUEUE, { leadId } satisfies LeadJobData);
}

/** Sends a job through the caller's transaction; null when the queue is not running in this process. */
async function sendThrough(tx: Executor, queue: string, data: object, options: SendOptions = {}): Promise<string | null> {
  const boss = running?.boss;
  if (!boss) return null;
  const db = fromDrizzle(tx as unknown as Parameters<typeof fromDrizzle>[0], sql);
  return boss.send(queue, data, { ...options, db });
}

/**
 * Finds 'pending' leads that have no live delivery job and enqueues them again: leads taken while the
 * queue was not running in the process, and the rare job that died without the handler recording an
 * outcome (a crash on the last try, a job dropped after its retention). Delivery is an upsert and
 * skips leads that are no longer pending, so a spare job costs one request at most, never a second
 * member. Runs at start and every few minutes.
 */
export async function sweepPendingLeads(): Promise<{ enqueued: number }> {
  const current = running;
  if (!current) return { enqueued: 0 };
  const cutoff = new Date(Date.now() - current.sweepMinAgeMs);
  return sweepAlone(current.database, LEAD_SWEEP_LOCK, async (tx) => {
    const orphans = await queryRows<{ id: string }>(
      tx,
      sql`
        select l.id from leads l
        where l.delivery_status = 'pending' and l.created_at < ${cutoff}
          and l.id not in (${liveJobKeys(LEAD_DELIVERY_QUEUE, "leadId")})
        order by l.created_at
        limit 500`,
    );
    return requeue(orphans, (id) => enqueueLeadDelivery(tx, id), "pending leads swept");
  });
}

/** Advisory lock keys of the two sweeps (727274 is whileSetupLocked's). */
const LEAD_SWEEP_LOCK = 727275;
const MAIL_SWEEP_LOCK = 727276;
const TRIAL_SWEEP_LOCK = 727277;

/**
 * Runs a sweep in one transaction holding a transaction-scoped advisory lock, or skips it when another
 * process holds that lock. Worker processes booted together fire their sweep timers at nearly the same
 * moment: without the lock both read the same orphans and both enqueue them, and two jobs for one
 * unsent mail row can each pass deliverMail's sentAt check and mail it twice. The jobs are sent through
 * the same transaction, so they are committed by the time the lock is free again and the next sweep
 * sees them as live. Skipping loses nothing: the holder sweeps the same database. PGlite has one
 * process and runs its transactions one at a time, so there the lock is always free.
 */
async function sweepAlone(
  database: Database,
  lock: number,
  sweep: (tx: Db) => Promise<{ enqueued: number }>,
): Promise<{ enqueued: number }> {
  return database.db.transaction(async (tx) => {
    const [row] = await queryRows<{ taken: boolean }>(
      tx,
      sql`select pg_try_advisory_xact_lock(${sql.raw(String(lock))}) as taken`,
    );
    if (!row?.taken) return { enqueued: 0 };
    return sweep(tx);
  });
}

/** The `data[key]` of the queue's jobs that are waiting, due for a retry or running. */
function liveJobKeys(queue: string, key: "leadId" | "outboxId" | "orderId"): SQL {
  const jobs = sql.raw(`${JOBS_SCHEMA}.job`);
  const field = sql.raw(`j.data->>'${key}'`);
  return sql`select ${field} from ${jobs} j where j.name = ${queue} and j.state in ('created', 'retry', 'active') and ${field} is not null`;
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
 * Queues the delivery of an outbox row through `tx` (the row and its job commit together). Null when
 * the queue is not running in this process.
 */
export function enqueueMailDelivery(tx: Executor, outboxId: number): Promise<string | null> {
  return sendThrough(tx, MAIL_DELIVERY_QUEUE, { outboxId } satisfies MailJobData);
}

/**
 * With SMTP configured, finds outbox rows of the last day that were never sent and have no live job
 * (mail written while the queue was not running, a job that ran out of retries or died) and queues
 * them again. Without SMTP every row is unsent by design (the dev mailbox reads them): nothing to do.
 */
export async function sweepUnsentMail(): Promise<{ enqueued: number }> {
  const current = running;
  if (!current || !(await mailTransport())) return { enqueued: 0 };
  const now = Date.now();
  const newest = new Date(now - current.sweepMinAgeMs);
  const oldest = new Date(now - MAIL_SWEEP_MAX_AGE_MS);
  return sweepAlone(current.database, MAIL_SWEEP_LOCK, async (tx) => {
    const orphans = await queryRows<{ id: number }>(
      tx,
      sql`
        select m.id from mail_outbox m
        where m.sent_at is null and m.created_at < ${newest} and m.created_at > ${oldest}
          and m.id::text not in (${liveJobKeys(MAIL_DELIVERY_QUEUE, "outboxId")})
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
  return sweepAlone(current.database, TRIAL_SWEEP_LOCK, async (tx) => {
    const orphans = await queryRows<{ id: string; capture_at: Date | string }>(
      tx,
      sql`
        select o.id, o.capture_at from orders o
        where o.status in ('authorized', 'capturing') and o.capture_at is not null
          and o.id not in (${liveJobKeys(TRIAL_CAPTURE_QUEUE, "orderId")})
        order by o.capture_at
        limit 500`,
    );
    const due = new Map(orphans.map((o) => [o.id, new Date(o.capture_at)]));
    return requeue(orphans, (id) => enqueueTrialCapture(tx, id, due.get(id)!), "trial captures swept");
  });
}
