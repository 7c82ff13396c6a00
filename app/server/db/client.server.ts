import { mkdirSync } from "node:fs";
import { setImmediate as setImmediateTurn } from "node:timers/promises";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import type { SQL } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import pg from "pg";
import { errorMessage, log } from "../log.server";
import { lockDataDir } from "./data-dir-lock.server";
import * as schema from "./schema";

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface Database {
  db: Db;
  kind: "pglite" | "postgres";
  close(): Promise<void>;
}

export interface DatabaseConfig {
  databaseUrl?: string;
  dataDir: string;
  migrationsFolder?: string;
}

/** Connections per process to PostgreSQL. */
export const PG_POOL_SIZE = 10;

const defaultMigrations = () => path.resolve(process.cwd(), "drizzle");

/**
 * Opens the database and applies pending migrations. Nothing here runs at import time: the build
 * imports the server bundle, and an open PGlite handle would keep that process alive.
 */
export async function openDatabase(config: DatabaseConfig): Promise<Database> {
  const migrationsFolder = config.migrationsFolder ?? defaultMigrations();
  if (config.databaseUrl) {
    const pool = new pg.Pool({ connectionString: config.databaseUrl, max: PG_POOL_SIZE });
    // A connection that dies while idle (PostgreSQL restarted, a failover, an idle timeout) is an
    // 'error' event on the pool, which throws as an uncaught exception without a listener and stops
    // the server. The pool drops that connection and opens a new one when asked: a warning is all.
    pool.on("error", (error) => log.warn("idle PostgreSQL connection lost", { error: errorMessage(error) }));
    const db = drizzlePg(pool, { schema }) as unknown as Db;
    try {
      await whileSetupLocked(pool, () => migratePg(drizzlePg(pool, { schema }), { migrationsFolder }));
    } catch (error) {
      await pool.end().catch(() => {});
      // Which database, without the credentials the URL may hold.
      throw new Error(
        `Cannot open the PostgreSQL database ${describeDatabaseUrl(config.databaseUrl)} (DATABASE_URL): ${errorMessage(error)}`,
        { cause: error },
      );
    }
    return { db, kind: "postgres", close: () => pool.end() };
  }

  const dataDir = path.resolve(config.dataDir);
  // PGlite does not create parent folders.
  mkdirSync(dataDir, { recursive: true });
  const unlock = lockDataDir(dataDir);
  try {
    return await openPglite(dataDir, migrationsFolder, unlock);
  } catch (error) {
    unlock();
    throw error;
  }
}

async function openPglite(dataDir: string, migrationsFolder: string, unlock: () => void): Promise<Database> {
  const client = new PGlite({
    dataDir,
    // PGlite's defaults start Postgres with -F (fsync off): a crash could lose committed rows.
    startParams: PGlite.defaultStartParams.filter((p) => p !== "-F"),
    relaxedDurability: false,
    // PGlite ships contrib extensions separately and loads only those named here; migration 0005
    // creates pg_trgm for the catalogue search indexes.
    extensions: { pg_trgm },
  });
  try {
    await client.waitReady;
    shareTypeParsers(client);
    const db = drizzlePglite(yieldingClient(client), { schema }) as unknown as Db;
    await migratePglite(drizzlePglite(client, { schema }), { migrationsFolder });
    return {
      db,
      kind: "pglite",
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
 * Runs one-time setup (migrations, the job queue's install) while holding a PostgreSQL session
 * advisory lock on a connection of its own: instances booting at once take turns, and each waiter
 * starts after the holder finished, so it finds the work done. pg-boss's own lock is taken inside
 * its install transaction, and that was not enough: with two replicas starting together, the
 * waiter's CREATE SCHEMA IF NOT EXISTS pgboss still failed with a duplicate key after the wait.
 */
export async function whileSetupLocked<T>(pool: pg.Pool, fn: () => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query("select pg_advisory_lock(727274)");
    return await fn();
  } finally {
    await client.query("select pg_advisory_unlock(727274)").catch(() => {});
    client.release();
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
