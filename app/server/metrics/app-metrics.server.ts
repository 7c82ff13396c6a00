import { sql } from "drizzle-orm";
import type pg from "pg";
import client from "prom-client";
import { database, queryRows } from "../db/client.server";
import type { Admission, AdmissionOptions } from "../http/admission.server";
import { JOBS_SCHEMA } from "../jobs/queue.server";
import { metric, metricsEnabled } from "../metrics.server.js";

const { Counter, Gauge, Histogram } = client;

/**
 * The app's series in /metrics besides the request histogram server.js keeps
 * (docs/decisions/0071-structured-logs-and-metrics.md): page-cache lookups, the admission line, the
 * job queues, the lead outbox and the database pool. Gauges read their value when scraped; the
 * database-backed ones are the same for every worker, so a cluster scrape keeps one worker's value
 * ("max") instead of summing them.
 */
export interface AppMetrics {
  pageCacheLookup: (hit: boolean) => void;
  admission: Pick<AdmissionOptions, "onAdmit" | "onRefuse">;
  /** Reads the admission's line when scraped. */
  watchAdmission: (admission: Admission) => void;
}

let created: AppMetrics | undefined;

/** The app's metrics, registered on first call; no-ops when METRICS_TOKEN is unset. */
export function appMetrics(): AppMetrics {
  if (created) return created;
  if (!metricsEnabled()) {
    created = { pageCacheLookup: () => {}, admission: {}, watchAdmission: () => {} };
    return created;
  }
  const lookups = metric(
    "page_cache_lookups_total",
    () =>
      new Counter({
        name: "page_cache_lookups_total",
        help: "Anonymous GET/HEAD requests looked up in the rendered-page cache; result=hit when it answered (or held the request for a first render).",
        labelNames: ["result"],
      }),
  );
  const waits = metric(
    "admission_wait_seconds",
    () =>
      new Histogram({
        name: "admission_wait_seconds",
        help: "How long each admitted page or data request waited for a slot.",
        buckets: [0, 0.005, 0.025, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      }),
  );
  const refused = metric(
    "admission_refused_total",
    () =>
      new Counter({
        name: "admission_refused_total",
        help: "Requests refused by admission: 503 when the line was full, 429 when the client's was.",
        labelNames: ["status"],
      }),
  );
  let admissionStats: (() => { active: number; waiting: number }) | undefined;
  metric(
    "admission_requests",
    () =>
      new Gauge({
        name: "admission_requests",
        help: "Page and data requests being worked on (state=active) and waiting in line (state=waiting).",
        labelNames: ["state"],
        collect() {
          const stats = admissionStats?.();
          if (!stats) return;
          this.set({ state: "active" }, stats.active);
          this.set({ state: "waiting" }, stats.waiting);
        },
      }),
  );
  metric(
    "job_queue_jobs",
    () =>
      new Gauge({
        name: "job_queue_jobs",
        help: "Jobs per queue and state in pg-boss (created and retry: waiting; failed: out of retries).",
        labelNames: ["queue", "state"],
        aggregator: "max",
        async collect() {
          const open = database();
          if (!open) return;
          const rows = await queryRows<{ name: string; state: string; count: number }>(
            open.db,
            sql`select name, state::text as state, count(*)::int as count from ${sql.identifier(JOBS_SCHEMA)}.job
                where state in ('created', 'retry', 'active', 'failed') group by name, state`,
          ).catch(() => []);
          this.reset();
          for (const row of rows) this.set({ queue: row.name, state: row.state }, Number(row.count));
        },
      }),
  );
  metric(
    "lead_outbox_oldest_age_seconds",
    () =>
      new Gauge({
        name: "lead_outbox_oldest_age_seconds",
        help: "Age of the oldest lead not yet delivered to the mailing list (0 when none waits).",
        aggregator: "max",
        async collect() {
          const open = database();
          if (!open) return;
          const [row] = await queryRows<{ age: number | null }>(
            open.db,
            sql`select extract(epoch from now() - min(created_at))::float8 as age from leads where delivery_status = 'pending'`,
          ).catch(() => [{ age: null }]);
          this.set(Math.max(0, Number(row?.age ?? 0)));
        },
      }),
  );
  metric(
    "db_pool_connections",
    () =>
      new Gauge({
        name: "db_pool_connections",
        help: "PostgreSQL pool connections per state (total, idle, waiting: requests waiting for one; max: the pool's size). PGlite: one connection.",
        labelNames: ["state"],
        collect() {
          const open = database();
          if (!open) return;
          if (open.kind === "pglite") {
            this.set({ state: "max" }, 1);
            this.set({ state: "total" }, 1);
            return;
          }
          const pool = (open.db as unknown as { $client: pg.Pool }).$client;
          this.set({ state: "max" }, pool.options.max ?? 0);
          this.set({ state: "total" }, pool.totalCount);
          this.set({ state: "idle" }, pool.idleCount);
          this.set({ state: "waiting" }, pool.waitingCount);
        },
      }),
  );
  // The process's CPU, memory, event-loop delay and garbage collection (once per process).
  if (!client.register.getSingleMetric("process_cpu_user_seconds_total")) client.collectDefaultMetrics();
  created = {
    pageCacheLookup: (hit) => lookups.inc({ result: hit ? "hit" : "miss" }),
    admission: { onAdmit: (seconds) => waits.observe(seconds), onRefuse: (status) => refused.inc({ status: String(status) }) },
    watchAdmission: (admission) => {
      admissionStats = admission.stats;
    },
  };
  return created;
}
