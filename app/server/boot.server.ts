import { env } from "./env.server";
import { database, openDatabase, setDatabase } from "./db/client.server";
import { seedCatalogue } from "./catalogue/seed.server";
import { seedAddons } from "./catalogue/addons.server";
import { startJobs, stopJobs } from "./jobs/queue.server";
import { log } from "./log.server";
import { initAuth, resetAuth } from "./auth/auth.server";

let booting: Promise<void> | undefined;

/** Opens the database, applies migrations and the catalogue seed. Idempotent; called before listen. */
export function boot(): Promise<void> {
  booting ??= (async () => {
    const e = env();
    const opened = await openDatabase({ databaseUrl: e.DATABASE_URL, dataDir: e.DATA_DIR });
    setDatabase(opened);
    const seeded = await seedCatalogue(opened.db);
    const addons = await seedAddons(opened.db);
    await initAuth(opened.db);
    await startJobs(opened);
    log.info("database ready", { kind: opened.kind, apps: seeded.apps, addons });
  })();
  return booting;
}

export async function shutdown(): Promise<void> {
  const open = database();
  setDatabase(undefined);
  resetAuth();
  booting = undefined;
  // Workers stop before the database closes, so no job is left half-done on a closed connection.
  await stopJobs();
  if (open) await open.close();
}
