import { readMigrationFiles, type MigrationMeta } from "drizzle-orm/migrator";
import { getConstructionPlans } from "pg-boss";
import type pg from "pg";

/**
 * The schema's migrations, applied inside a transaction the caller owns, and the job queue's schema
 * installed in the same one (docs/decisions/0069-release-step-migrations.md).
 *
 * Drizzle's own migrator opens its transaction itself and, on PostgreSQL, gave us no way to hold a
 * lock inside it: concurrent boots were serialised with a session advisory lock on a connection of
 * their own, which behind a transaction pooler (PgBouncer's `pool_mode = transaction`) is taken on
 * one server connection and released on another, or never. Here the whole setup is one transaction
 * that starts with `pg_advisory_xact_lock`: the pooler keeps a transaction on one server connection,
 * the lock ends with it, and an instance that waited finds the work done when it gets the lock.
 *
 * The bookkeeping is drizzle's (the `drizzle.__drizzle_migrations` table, a migration is pending
 * when its journal time is newer than the last applied one), so databases migrated before stay
 * valid and drizzle-kit sees the same history.
 */

/** What a migration needs from a connection: PGlite's client, a pg client in a transaction. */
export interface SqlRunner {
  query(text: string, params?: unknown[]): Promise<{ rows: unknown[] }>;
}

/** pg-boss's schema: the job queue's tables. */
export const JOBS_SCHEMA = "pgboss";

/** The lock every instance and tool takes before changing the schema. */
const SETUP_LOCK_KEY = 727274;

const MIGRATIONS_TABLE = `"drizzle"."__drizzle_migrations"`;

export function readMigrations(migrationsFolder: string): MigrationMeta[] {
  return readMigrationFiles({ migrationsFolder });
}

/** Journal time of the newest applied migration, or null when none was (or the table is missing). */
async function lastAppliedAt(run: SqlRunner): Promise<number | null> {
  const exists = (await run.query(`select to_regclass('drizzle.__drizzle_migrations') is not null as present`)).rows[0] as {
    present: boolean;
  };
  if (!exists.present) return null;
  const [last] = (await run.query(`select created_at from ${MIGRATIONS_TABLE} order by created_at desc limit 1`)).rows as {
    created_at: string | number;
  }[];
  return last ? Number(last.created_at) : null;
}

/** The migrations of this release the database has not applied yet. */
export async function pendingMigrations(run: SqlRunner, migrationsFolder: string): Promise<MigrationMeta[]> {
  const last = await lastAppliedAt(run);
  return readMigrations(migrationsFolder).filter((m) => last === null || last < m.folderMillis);
}

/**
 * Applies the pending migrations with the connection's current transaction (the caller began it
 * and holds SETUP_LOCK_KEY); returns how many were applied.
 */
export async function applyMigrations(run: SqlRunner, migrationsFolder: string): Promise<number> {
  await run.query(`create schema if not exists "drizzle"`);
  await run.query(
    `create table if not exists ${MIGRATIONS_TABLE} (id serial primary key, hash text not null, created_at bigint)`,
  );
  const pending = await pendingMigrations(run, migrationsFolder);
  for (const migration of pending) {
    for (const statement of migration.sql) {
      if (statement.trim()) await run.query(statement);
    }
    await run.query(`insert into ${MIGRATIONS_TABLE} ("hash", "created_at") values ($1, $2)`, [
      migration.hash,
      migration.folderMillis,
    ]);
  }
  return pending.length;
}

/**
 * pg-boss's install, without the BEGIN and COMMIT it wraps itself in, so it runs in the caller's
 * transaction. pg-boss checks whether it is installed before its own lock, so two instances starting
 * on an empty database both tried to install it; installed here under SETUP_LOCK_KEY, `start()`
 * finds it and only applies pg-boss's own upgrades (under pg-boss's transaction lock).
 */
function jobsSchemaInstallSql(schema: string): string {
  const plan = getConstructionPlans(schema, { backend: "postgres" });
  const inner = /^\s*BEGIN;([\s\S]*)COMMIT;\s*$/.exec(plan)?.[1];
  if (inner === undefined) throw new Error("pg-boss's install plan is not one BEGIN...COMMIT block any more");
  return inner;
}

/**
 * One transaction on one connection: the setup lock, the migrations, the job queue's schema, then
 * `work` (the PGlite export's copy) when given. On any error the transaction rolls back: the database
 * is as it was.
 */
export async function setUpPostgres<T>(
  client: pg.PoolClient | pg.Client,
  options: { migrationsFolder: string; jobsSchema?: string },
  work?: (run: SqlRunner) => Promise<T>,
): Promise<{ applied: number; result: T | undefined }> {
  const jobsSchema = options.jobsSchema ?? JOBS_SCHEMA;
  await client.query("begin");
  try {
    await client.query(`select pg_advisory_xact_lock(${SETUP_LOCK_KEY})`);
    const applied = await applyMigrations(client, options.migrationsFolder);
    const installed = (await client.query(`select to_regclass($1) is not null as present`, [`${jobsSchema}.version`]))
      .rows[0] as { present: boolean };
    if (!installed.present) {
      // The plan sets its own lock and idle timeouts for the rest of the transaction (SET LOCAL);
      // what follows (a long export) keeps the session's.
      const saved = (
        await client.query(
          `select current_setting('lock_timeout') as lock, current_setting('idle_in_transaction_session_timeout') as idle`,
        )
      ).rows[0] as { lock: string; idle: string };
      // Several statements in one simple-protocol query (no parameters).
      await client.query(jobsSchemaInstallSql(jobsSchema));
      await client.query(
        `select set_config('lock_timeout', $1, true), set_config('idle_in_transaction_session_timeout', $2, true)`,
        [saved.lock, saved.idle],
      );
    }
    const result = work ? await work(client) : undefined;
    await client.query("commit");
    return { applied, result };
  } catch (error) {
    await client.query("rollback").catch(() => {});
    throw error;
  }
}
