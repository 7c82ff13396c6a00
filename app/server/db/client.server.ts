import { mkdirSync, readFileSync } from "node:fs";
import { setImmediate as setImmediateTurn } from "node:timers/promises";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import type { SQL } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import pg from "pg";
import { errorMessage, log } from "../log.server";
import { lockDataDir } from "./data-dir-lock.server";
import { pgliteOptions } from "./pglite-options.server";
import { applyMigrations, pendingMigrations, setUpPostgres, type SqlRunner } from "./migrations.server";
import * as schema from "./schema";

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface Database {
  db: Db;
  kind: "pglite" | "postgres";
  /** Migrations this open applied (0 when the database was up to date or `migrate` was false). */
  migrationsApplied?: number;
  close(): Promise<void>;
}

export interface DatabaseConfig {
  databaseUrl?: string;
  dataDir: string;
  migrationsFolder?: string;
  /** Connections this process keeps to PostgreSQL at most (PG_POOL_SIZE). */
  poolSize?: number;
  /**
   * Apply pending migrations (and, on PostgreSQL, install the job queue's schema) while opening:
   * the default, and MIGRATE_ON_BOOT=1. With false the database must already be up to date (the
   * release step `npm run db:migrate` ran): a pending migration is an error naming it.
   */
  migrate?: boolean;
}

/** Connections per process to PostgreSQL when PG_POOL_SIZE is not set. */
export const DEFAULT_PG_POOL_SIZE = 10;

/** Thrown at boot when MIGRATE_ON_BOOT=0 and the release step has not migrated the database. */
export class PendingMigrationsError extends Error {
  constructor(readonly pending: string[]) {
    super(
      `The database lacks ${pending.length} migration(s) of this release (${pending.join(", ")}). ` +
        "Run the release step first (npm run db:migrate), or set MIGRATE_ON_BOOT=1.",
    );
    this.name = "PendingMigrationsError";
  }
}

const defaultMigrations = () => path.resolve(process.cwd(), "drizzle");

/**
 * Opens the database and applies pending migrations. Nothing here runs at import time: the build
 * imports the server bundle, and an open PGlite handle would keep that process alive.
 */
export async function openDatabase(config: DatabaseConfig): Promise<Database> {
  const migrationsFolder = config.migrationsFolder ?? defaultMigrations();
  if (config.databaseUrl) {
    const pool = new pg.Pool({ connectionString: config.databaseUrl, max: config.poolSize ?? DEFAULT_PG_POOL_SIZE });
    // A connection that dies while idle (PostgreSQL restarted, a failover, an idle timeout) is an
    // 'error' event on the pool, which throws as an uncaught exception without a listener and stops
    // the server. The pool drops that connection and opens a new one when asked: a warning is all.
    pool.on("error", (error) => log.warn("idle PostgreSQL connection lost", { error: errorMessage(error) }));
    const db = drizzlePg(pool, { schema }) as unknown as Db;
    let migrationsApplied = 0;
    try {
      if (config.migrate === false) await refuseIfPending(pool, migrationsFolder);
      else migrationsApplied = await migratePostgres(pool, migrationsFolder);
    } catch (error) {
      if (error instanceof PendingMigrationsError) {
        await pool.end().catch(() => {});
        throw error;
      }
      await pool.end().catch(() => {});
      // Which database, without the credentials the URL may hold.
      throw new Error(
        `Cannot open the PostgreSQL database ${describeDatabaseUrl(config.databaseUrl)} (DATABASE_URL): ${errorMessage(error)}`,
        { cause: error },
      );
    }
    return { db, kind: "postgres", migrationsApplied, close: () => pool.end() };
  }

  const dataDir = path.resolve(config.dataDir);
  // PGlite does not create parent folders.
  mkdirSync(dataDir, { recursive: true });
  const unlock = lockDataDir(dataDir);
  try {
    return await openPglite(dataDir, migrationsFolder, config.migrate !== false, unlock);
  } catch (error) {
    unlock();
    throw error;
  }
}

async function openPglite(dataDir: string, migrationsFolder: string, migrate: boolean, unlock: () => void): Promise<Database> {
  const client = new PGlite(pgliteOptions(dataDir));
  try {
    await client.waitReady;
    shareTypeParsers(client);
    const db = drizzlePglite(yieldingClient(client), { schema }) as unknown as Db;
    let migrationsApplied = 0;
    if (migrate) {
      // One process holds the folder (its lock): no other instance to take turns with.
      migrationsApplied = await client.transaction((tx) => applyMigrations(tx, migrationsFolder));
    } else await refuseIfPending(client, migrationsFolder);
    return {
      db,
      kind: "pglite",
      migrationsApplied,
      async close() {
        await client.close();
        unlock();
      },
    };
  } catch (error) {
    await client.close().catch(() => {});
    throw error;
  }
}

/**
 * Drizzle passes its own type parsers (timestamps and dates as text) with every query, and PGlite
 * then copies its whole table of parsers (over 300 entries, one per type and array type) into a new
 * object for that query: more CPU than the query itself for a primary-key read. PGlite looks a
 * parser up in the table it was given and falls back to its built-in defaults, so the client's
 * table is handed over as the prototype of an empty object: the copy finds no own entries, and
 * queries without parsers of their own (pg-boss's) still find every entry through the prototype.
 * What a Drizzle query loses is the array types the client registered at start: an array column
 * comes back as PostgreSQL's text form, which Drizzle's array columns parse themselves.
 */
function shareTypeParsers(client: PGlite) {
  client.parsers = Object.create(client.parsers) as PGlite["parsers"];
}

/**
 * The PGlite client as the app's queries see it: each query, exec and transaction first lets the
 * event loop turn (setImmediate). PGlite runs a query synchronously and resolves it as a microtask,
 * so without this a request's queries and the JavaScript between them run in one piece, and the
 * requests in flight make a turn of the event loop as long as all of their work: page-cache hits and
 * new connections wait for it (docs/decisions/0026-request-admission.md).
 */
function yieldingClient(client: PGlite): PGlite {
  const yielded = new Set<PropertyKey>(["query", "exec", "transaction"]);
  return new Proxy(client, {
    get(target, prop) {
      const value: unknown = Reflect.get(target, prop, target);
      if (typeof value !== "function") return value;
      // PGlite keeps its state in #private fields: its methods must run with the real client as this.
      if (!yielded.has(prop)) return value.bind(target);
      return async (...args: unknown[]) => {
        await setImmediateTurn();
        return value.apply(target, args);
      };
    },
  });
}

/** host:port/database of a PostgreSQL URL, never its user or password. */
export function describeDatabaseUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}:${u.port || "5432"}${u.pathname}`;
  } catch {
    return "(unparsable URL)";
  }
}

/**
 * Migrations and the job queue's schema in one transaction that begins with a transaction-level
 * advisory lock: instances booting at once (and the release step) take turns, each waiter finds the
 * work done, and it works behind a transaction pooler (docs/decisions/0069-release-step-migrations.md).
 */
async function migratePostgres(pool: pg.Pool, migrationsFolder: string): Promise<number> {
  const client = await pool.connect();
  try {
    return (await setUpPostgres(client, { migrationsFolder })).applied;
  } finally {
    client.release();
  }
}

async function refuseIfPending(run: SqlRunner, migrationsFolder: string) {
  const pending = await pendingMigrations(run, migrationsFolder);
  if (pending.length) throw new PendingMigrationsError(pending.map((m) => migrationTag(migrationsFolder, m.folderMillis)));
}

/** A migration's file name (its journal tag), for messages. */
function migrationTag(migrationsFolder: string, folderMillis: number): string {
  try {
    const journal = JSON.parse(readFileSync(path.join(migrationsFolder, "meta", "_journal.json"), "utf8")) as {
      entries: { when: number; tag: string }[];
    };
    return journal.entries.find((e) => e.when === folderMillis)?.tag ?? String(folderMillis);
  } catch {
    return String(folderMillis);
  }
}

let current: Database | undefined;

/** Installs the process-wide database (done once at boot, or by a test). */
export function setDatabase(database: Database | undefined) {
  current = database;
}

export function db(): Db {
  if (!current) throw new Error("The database is not open yet (boot() has not run).");
  return current.db;
}

export function database(): Database | undefined {
  return current;
}

/** Rows of a raw SQL query; PGlite and node-postgres both answer with `{ rows }`. */
export async function queryRows<T>(db: Db, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}
