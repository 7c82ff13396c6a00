import { env } from "./env.server";
import { database, openDatabase, setDatabase } from "./db/client.server";
import { seedCatalogue } from "./catalogue/seed.server";
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
    await initAuth(opened.db);
    log.info("database ready", { kind: opened.kind, apps: seeded.apps });
  })();
  return booting;
}

export async function shutdown(): Promise<void> {
  const open = database();
  setDatabase(undefined);
  resetAuth();
  booting = undefined;
  if (open) await open.close();
}
