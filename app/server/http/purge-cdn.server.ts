import { database } from "../db/client.server";
import { env } from "../env.server";
import { sendThrough } from "../jobs/send-job.server";
import { errorMessage, log } from "../log.server";

/**
 * Purging the CDN in front of the site when the catalogue changes
 * (docs/decisions/0088-cdn-purge-on-catalogue-change.md). The pages that show prices are sent with
 * `s-maxage=PAGE_CACHE_SECONDS` and as long again of `stale-while-revalidate`, so without a purge a
 * shared cache could show an old price for up to twice that after every instance's own page cache
 * has dropped it. The purge is a job: a CDN that is down is retried, and every instance noticing the
 * same change makes one purge.
 */

export const CDN_PURGE_QUEUE = "purge-cdn";

/**
 * How long a purge waits after the change: the other instances notice it by their catalogue poll
 * (every 2 s), and a CDN that refetched a page from one of them before that would store the old page
 * again.
 */
const CDN_PURGE_DELAY_SECONDS = 5;

/** Every purge is the same (the whole site's HTML), so one key: one waiting and one running at most. */
export const CDN_PURGE_KEY = "cdn";

/**
 * Queues a purge when CDN_PURGE_URL is set (and this process runs the job queue). Called after a
 * committed catalogue change and when the catalogue poll sees one; never throws.
 */
export function requestCdnPurge(delaySeconds = CDN_PURGE_DELAY_SECONDS): Promise<void> {
  const db = database()?.db;
  if (!env().CDN_PURGE_URL || !db) return Promise.resolve();
  return sendThrough(db, CDN_PURGE_QUEUE, {}, { startAfter: new Date(Date.now() + delaySeconds * 1000) })
    .then(() => undefined)
    .catch((error: unknown) => log.error("CDN purge not queued", { error: errorMessage(error) }));
}

/** Sends the purge; a refusal or no answer in 10 s throws, and the job is tried again later. */
export async function purgeCdn(): Promise<void> {
  const { CDN_PURGE_URL: url, CDN_PURGE_TOKEN: token, CDN_PURGE_BODY: body } = env();
  if (!url) return;
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body,
    signal: AbortSignal.timeout(10_000),
  });
  const answer = (await res.text().catch(() => "")).slice(0, 300);
  if (!res.ok) throw new Error(`the CDN's purge endpoint answered ${res.status}: ${answer}`);
  log.info("CDN purged", { status: res.status });
}
