import { sql } from "drizzle-orm";
import { errorMessage, log } from "../log.server";
import type { Db } from "./client.server";

export type DatabaseHealth = { state: "ok" } | { state: "read-only" | "unavailable"; cause: unknown };

/** How long one write check's answer is reused: a load balancer probing every second writes once per this. */
const WRITE_CHECK_TTL_MS = 5_000;

/**
 * A write that needs the disk: a temporary table (no trigger, no application table, dropped at
 * commit) whose one row makes PostgreSQL create and extend a file, and a commit. A full disk
 * answers 53100 'could not extend file', a read-only database or transaction 25006. A plain
 * `select 1` passes in both cases, and so does an upsert of an existing row, which fits in a page
 * already on disk: measured on a full tmpfs, where every new lead failed.
 */
export async function checkWrites(db: Db): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.execute(sql`create temporary table health_write_check (at timestamptz) on commit drop`);
    await tx.execute(sql`insert into health_write_check values (now())`);
  });
}

/**
 * The database as /healthz reports it: reads checked on every call (`select 1`), writes at most once
 * per `ttlMs` (concurrent callers share the check in flight). A change of state is logged once, with
 * the cause, rather than on every probe.
 */
export function createDatabaseHealthCheck(
  options: { ttlMs?: number; now?: () => number; writes?: (db: Db) => Promise<void> } = {},
) {
  const ttlMs = options.ttlMs ?? WRITE_CHECK_TTL_MS;
  const now = options.now ?? Date.now;
  const writes = options.writes ?? checkWrites;
  let lastWrite: { db: Db; at: number; failure: Promise<unknown> } | undefined;
  let reported: DatabaseHealth["state"] = "ok";

  function report(health: DatabaseHealth): DatabaseHealth {
    if (health.state !== reported) {
      if (health.state === "ok") log.info("database healthy again", { was: reported });
      else log.error(`database ${health.state}`, { error: errorMessage(health.cause) });
      reported = health.state;
    }
    return health;
  }

  return async function checkDatabase(db: Db): Promise<DatabaseHealth> {
    try {
      await db.execute(sql`select 1`);
    } catch (error) {
      return report({ state: "unavailable", cause: error });
    }
    if (!lastWrite || lastWrite.db !== db || now() - lastWrite.at >= ttlMs) {
      lastWrite = {
        db,
        at: now(),
        failure: writes(db).then(
          () => null,
          (error: unknown) => error ?? new Error("write check failed"),
        ),
      };
    }
    const failure = await lastWrite.failure;
    return report(failure === null ? { state: "ok" } : { state: "read-only", cause: failure });
  };
}
