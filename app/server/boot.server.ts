import { env } from "./env.server";
import { database, openDatabase, setDatabase, type Database, type Db } from "./db/client.server";
import { seedCatalogue } from "./catalogue/seed.server";
import { seedAddons } from "./catalogue/addons.server";
import { startJobs, stopJobs } from "./jobs/queue.server";
import { errorMessage, log } from "./log.server";
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

/** The first wait before the job queue's start is tried again; it doubles up to the last. */
const JOBS_RETRY_FIRST_MS = 1_000;
const JOBS_RETRY_MAX_MS = 60_000;
let jobsRetry: ReturnType<typeof setTimeout> | undefined;

/**
 * What the HTTP server waits for before it listens: the database and sign-in. The job queue (about
 * a second of pg-boss's start and its queues on PGlite) starts after, beside the first requests.
 * Whatever a request writes meanwhile waits in its outbox row (a lead, a mail, an order), and the
 * queue's catch-up sends it as it starts. A start that fails (the database full or unreachable for
 * a moment) is logged and tried again, from a second up to every minute, while the server serves:
 * nothing is lost meanwhile, and the site stays up.
 */
export async function bootForServing(): Promise<void> {
  await openForServing();
  let waitMs = JOBS_RETRY_FIRST_MS;
  const attempt = () => {
    jobsRetry = undefined;
    boot().catch((error: unknown) => {
      // A failed start is not remembered: the next attempt starts again.
      booting = undefined;
      if (!opening) return; // shut down meanwhile
      log.error("the job queue did not start: trying again", { error: errorMessage(error), retryInMs: waitMs });
      jobsRetry = setTimeout(attempt, waitMs);
      jobsRetry.unref();
      waitMs = Math.min(waitMs * 2, JOBS_RETRY_MAX_MS);
    });
  };
  attempt();
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
  clearTimeout(jobsRetry);
  jobsRetry = undefined;
  // Workers stop before the database closes, so no job is left half-done on a closed connection.
  await stopJobs();
  if (open) await open.close();
}
