import { lt } from "drizzle-orm";
import type { Db } from "./client.server";
import { leadRateLimit, rateLimit, session, verification } from "./schema";

/** The longest window of any rate-limit counter (the lead form's 10 minutes), with room to spare. */
export const RATE_LIMIT_KEEP_MS = 60 * 60_000;
/** Expired sessions and one-time tokens are kept this long after expiry (for a look in the database). */
export const EXPIRED_KEEP_MS = 24 * 60 * 60_000;

function affected(result: unknown): number {
  const r = result as { rowCount?: number | null; affectedRows?: number };
  return r.rowCount ?? r.affectedRows ?? 0;
}

/**
 * Deletes rows nothing reads any more, which would otherwise grow for as long as the site runs:
 * rate-limit counters past every window (Better Auth's and the lead form's: one per client IP and
 * path, so an attacker rotating addresses adds one per request), and sessions and one-time tokens a
 * day past their expiry. A counter past its window counts the same as no counter, and Better Auth
 * refuses expired sessions and tokens, so nobody notices. Run by the job queue's sweeper at start and
 * every few minutes.
 */
export async function pruneExpiredRows(db: Db, now = Date.now()) {
  const expiredBefore = new Date(now - EXPIRED_KEEP_MS);
  // One after the other: on PGlite they would queue anyway, on PostgreSQL this keeps one connection.
  const rateLimits =
    affected(await db.delete(rateLimit).where(lt(rateLimit.lastRequest, now - RATE_LIMIT_KEEP_MS))) +
    affected(await db.delete(leadRateLimit).where(lt(leadRateLimit.windowStart, now - RATE_LIMIT_KEEP_MS)));
  const sessions = affected(await db.delete(session).where(lt(session.expiresAt, expiredBefore)));
  const verifications = affected(await db.delete(verification).where(lt(verification.expiresAt, expiredBefore)));
  return { rateLimits, sessions, verifications };
}
