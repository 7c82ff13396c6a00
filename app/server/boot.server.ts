import { env } from "./env.server";
import { database, openDatabase, setDatabase, type Database, type Db } from "./db/client.server";
import { seedCatalogue } from "./catalogue/seed.server";
import { seedAddons } from "./catalogue/addons.server";
import { startJobs, stopJobs } from "./jobs/queue.server";
import { log } from "./log.server";
import { initAuth, resetAuth } from "./auth/auth.server";

let opening: Promise<{ opened: Database; seeded?: { apps: number; addons: number } }> | undefined;
let booting: Promise<void> | undefined;

/** The database (migrated and seeded with MIGRATE_ON_BOOT=1) and sign-in, once. */
function openForServing() {
  opening ??= (async () => {
    const e = env();
    const migrate = e.MIGRATE_ON_BOOT === "1";
    const opened = await openDatabase({
      databaseUrl: e.DATABASE_URL,
      dataDir: e.DATA_DIR,
      poolSize: e.PG_POOL_SIZE,
      migrate,
    });
    setDatabase(opened);
    const seeded = migrate ? await seedDatabase(opened.db) : undefined;
    await initAuth(opened.db);
    return { opened, seeded };
  })();
  return opening;
}

/**
 * Opens the database and, with MIGRATE_ON_BOOT=1 (the default), applies migrations and the
 * catalogue seed; with 0 the release step did both and the database must be up to date. Then starts
 * the job queue. Idempotent.
 */
export function boot(): Promise<void> {
  booting ??= (async () => {
    const { opened, seeded } = await openForServing();
    await startJobs(opened);
    log.info("database ready", {
      kind: opened.kind,
      migrationsApplied: opened.migrationsApplied ?? 0,
      ...(seeded ?? { seeded: "by the release step" }),
    });
  })();
  return booting;
}

/**
 * What the HTTP server waits for before it listens: the database and sign-in. The job queue (about
 * a second of pg-boss's start and its queues on PGlite) starts after, and `jobs` settles when it has
 * (or failed: the server must stop then, as when boot() fails). Whatever a request writes meanwhile
 * waits in its outbox row (a lead, a mail, an order), and the queue's catch-up sends it as it starts.
 */
export async function bootForServing(): Promise<{ jobs: Promise<void> }> {
  await openForServing();
  const jobs = boot();
  // Observed here so a failure before the caller attaches its handler is not an unhandled rejection.
  jobs.catch(() => {});
  return { jobs };
}

/** The catalogue's apps and add-ons, upserted (idempotent: same rows, same values). */
export async function seedDatabase(db: Db): Promise<{ apps: number; addons: number }> {
  const seeded = await seedCatalogue(db);
  const addons = await seedAddons(db);
  return { apps: seeded.apps, addons };
}

/**
 * The release step (`npm run db:migrate`, scripts/db-migrate.js): migrations, the job queue's
 * schema and the catalogue seed against MIGRATION_DATABASE_URL (a direct connection) or
 * DATABASE_URL, else the PGlite folder, then the database is closed. Safe to run beside running
 * instances and twice at once (the setup lock), and as often as wanted.
 */
export async function runReleaseStep(): Promise<{ kind: string; migrationsApplied: number; apps: number; addons: number }> {
  const e = env();
  const opened = await openDatabase({
    databaseUrl: e.MIGRATION_DATABASE_URL ?? e.DATABASE_URL,
    dataDir: e.DATA_DIR,
    poolSize: 1,
    migrate: true,
  });
  try {
    const seeded = await seedDatabase(opened.db);
    return { kind: opened.kind, migrationsApplied: opened.migrationsApplied ?? 0, ...seeded };
  } finally {
    await opened.close();
  }
}

export async function shutdown(): Promise<void> {
  const open = database();
  setDatabase(undefined);
  resetAuth();
  booting = undefined;
  opening = undefined;
  // Workers stop before the database closes, so no job is left half-done on a closed connection.
  await stopJobs();
  if (open) await open.close();
}
