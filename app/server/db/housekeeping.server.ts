import { lt } from "drizzle-orm";
import type { Db } from "./client.server";
import { limitCounters, rateLimit, session, verification } from "./schema";

/**
 * How long Better Auth's rate-limit counters are kept: past its longest window (60 s), with room to
 * spare. The app's own counters (limit_counters) carry their window's end and go once it has passed.
 */
export const RATE_LIMIT_KEEP_MS = 60 * 60_000;
/** Expired sessions and one-time tokens are kept this long after expiry (for a look in the database). */
export const EXPIRED_KEEP_MS = 24 * 60 * 60_000;

function affected(result: unknown): number {
  const r = result as { rowCount?: number | null; affectedRows?: number };
  return r.rowCount ?? r.affectedRows ?? 0;
}

/**
 * Deletes rows nothing reads any more, which would otherwise grow for as long as the site runs:
 * rate-limit counters past their window (Better Auth's, one per client IP and path, and the app's
 * own, one per limit, window and account or address: an attacker rotating addresses adds rows with
 * every request), and sessions and one-time tokens a day past their expiry. A counter past its
 * window counts the same as no counter, and Better Auth refuses expired sessions and tokens, so
 * nobody notices. Run by the job queue's sweeper at start and every few minutes.
 */
export async function pruneExpiredRows(db: Db, now = Date.now()) {
  const expiredBefore = new Date(now - EXPIRED_KEEP_MS);
  // One after the other: on PGlite they would queue anyway, on PostgreSQL this keeps one connection.
  const rateLimits =
    affected(await db.delete(rateLimit).where(lt(rateLimit.lastRequest, now - RATE_LIMIT_KEEP_MS))) +
    affected(await db.delete(limitCounters).where(lt(limitCounters.expiresAt, now)));
  const sessions = affected(await db.delete(session).where(lt(session.expiresAt, expiredBefore)));
  const verifications = affected(await db.delete(verification).where(lt(verification.expiresAt, expiredBefore)));
  return { rateLimits, sessions, verifications };
}
