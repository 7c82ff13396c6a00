import { sql } from "drizzle-orm";
import { queryRows, type Db } from "../db/client.server";
import { errorMessage, log } from "../log.server";

/**
 * Tells the anonymous page cache (page-cache.server.ts) that the catalogue changed, so /apps,
 * /apps/{slug} and the pages showing plan prices show an operator's edit within seconds instead of
 * after PAGE_CACHE_SECONDS.
 *
 * Two paths: the instance that made the change calls `catalogueChanged()` after its transaction
 * committed (at once), and every instance polls `catalogueVersion` (edits made by another instance,
 * and scheduled prices that have just become effective, which no request announces).
 */
const listeners = new Set<() => void>();

export function onCatalogueChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Call after a committed catalogue change. */
export function catalogueChanged(): void {
  for (const listener of listeners) listener();
}

/**
 * A value that changes whenever what the public pages show of the catalogue may have: the last
 * edit of an app row, and the app and plan prices effective by now (the count catches a price
 * effective at a time earlier than the latest one already effective). Plan prices are on /packages,
 * /distributors and /earn (docs/decisions/0085-plan-prices-in-database.md).
 */
export async function catalogueVersion(db: Db): Promise<string> {
  const rows = await queryRows<{ v: string | null }>(
    db,
    sql`
    select concat_ws('|',
      (select max(updated_at)::text from apps),
      (select max(effective_at)::text from app_prices where effective_at <= now()),
      (select count(*)::text from app_prices where effective_at <= now()),
      (select max(effective_at)::text from plan_prices where effective_at <= now()),
      (select count(*)::text from plan_prices where effective_at <= now())) as v`,
  );
  return rows[0]?.v ?? "";
}

/**
 * Polls the catalogue's version every `intervalMs` and calls `onChange` when it moves (not on the
 * first read). A failed poll is logged and retried at the next tick. Returns a stop function.
 */
export function watchCatalogue(database: () => Db | undefined, onChange: () => void, intervalMs = 2000): () => void {
  let last: string | undefined;
  let running = false;
  const timer = setInterval(() => {
    const db = database();
    if (!db || running) return;
    running = true;
    catalogueVersion(db)
      .then((version) => {
        if (last !== undefined && version !== last) onChange();
        last = version;
      })
      .catch((error: unknown) => log.warn("catalogue version poll failed", { error: errorMessage(error) }))
      .finally(() => {
        running = false;
      });
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
