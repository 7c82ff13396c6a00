import { sql } from "drizzle-orm";
import type { Db } from "../db/client.server";
import { ipKey } from "../http/client-ip.server";

/**
 * The app's own request limits (Better Auth limits its own endpoints),
 * as fixed-window counters in the limit_counters table, so every process on the database shares
 * them. Each limit counts per account and per client address: an account cannot go faster by
 * switching addresses, and one address cannot go faster by switching accounts.
 * docs/decisions/0030-request-limits.md says why these numbers.
 */
interface LimitWindow {
  /** Attempts allowed per window; the next one is refused. */
  max: number;
  seconds: number;
}

export interface RateLimit {
  /** Part of every counter's key: never rename one in use without expecting its counters to restart. */
  name: string;
  perAccount: readonly LimitWindow[];
  perAddress: readonly LimitWindow[];
}

const minute = 60;
const hour = 60 * minute;
const day = 24 * hour;

export const RATE_LIMITS = {
  /** Checkout sessions started (each one a payment provider's API call and an order row). */
  checkout: {
    name: "checkout",
    perAccount: [
      { max: 10, seconds: minute },
      { max: 60, seconds: hour },
    ],
    perAddress: [
      { max: 60, seconds: minute },
      { max: 600, seconds: hour },
    ],
  },
  /** Return-page re-syncs (each one may be a payment provider's API call). */
  billingSync: {
    name: "billing-sync",
    perAccount: [{ max: 30, seconds: minute }],
    perAddress: [{ max: 120, seconds: minute }],
  },
  /** Dashboard visits recorded (a row each). */
  dashboardVisit: {
    name: "dashboard-visit",
    perAccount: [{ max: 60, seconds: minute }],
    perAddress: [{ max: 300, seconds: minute }],
  },
  /** Support tickets opened (a row each, and a person reads each one). */
  supportTicket: {
    name: "support-ticket",
    perAccount: [
      { max: 5, seconds: minute },
      { max: 30, seconds: day },
    ],
    perAddress: [
      { max: 20, seconds: minute },
      { max: 100, seconds: day },
    ],
  },
  /** Refunds from /admin (each one a payment provider's API call that returns money). */
  adminRefund: {
    name: "admin-refund",
    perAccount: [
      { max: 10, seconds: minute },
      { max: 100, seconds: day },
    ],
    perAddress: [{ max: 20, seconds: minute }],
  },
  /** The public callback form, per address only (leads.server.ts also limits stored leads per email). */
  lead: {
    name: "lead",
    perAccount: [],
    perAddress: [{ max: 5, seconds: 10 * minute }],
  },
} as const satisfies Record<string, RateLimit>;

/** Who an attempt is counted against: the signed-in account, and the client address when known. */
export interface LimitSubject {
  userId?: string | null;
  /** The client address as the server determined it (X-Forwarded-For only from trusted proxies). */
  ip?: string | null;
}

export type LimitDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

export interface Counter {
  key: string;
  max: number;
  seconds: number;
}

/** The counters one attempt of `limit` by `subject` adds to, in a fixed order (keys are unique). */
export function countersFor(limit: RateLimit, subject: LimitSubject): Counter[] {
  const counters: Counter[] = [];
  const add = (kind: string, id: string, windows: readonly LimitWindow[]) => {
    for (const w of windows) counters.push({ key: `${limit.name}:${kind}:${id}:${w.seconds}`, max: w.max, seconds: w.seconds });
  };
  if (subject.userId) add("account", subject.userId, limit.perAccount);
  if (subject.ip) add("ip", ipKey(subject.ip), limit.perAddress);
  // Two windows of one length would be one key twice, which one upsert cannot take.
  const unique = [...new Map(counters.map((c) => [c.key, c])).values()];
  // One order for every statement, so two concurrent attempts lock the same rows in the same order.
  return unique.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/**
 * Counts one attempt against every window of `limit` for `subject` and answers whether it is within
 * all of them. One statement reserves the attempt in every counter (a check and
 * a count apart would let concurrent requests all pass), so call it before the work it guards.
 * A refused attempt counts too: hammering a limit keeps it shut until its window ends.
 */
export async function takeAttempt(db: Db, limit: RateLimit, subject: LimitSubject, now = Date.now()): Promise<LimitDecision> {
  const counters = countersFor(limit, subject);
  if (counters.length === 0) return { allowed: true };
  const values = sql.join(
    counters.map((c) => sql`(${c.key}, 1, ${now + c.seconds * 1000})`),
    sql`, `,
  );
  const result = (await db.execute(
    sql`insert into limit_counters as c (key, count, expires_at) values ${values}
        on conflict (key) do update set
          count = case when c.expires_at <= ${now} then 1 else c.count + 1 end,
          expires_at = case when c.expires_at <= ${now} then excluded.expires_at else c.expires_at end
        returning key, count, expires_at`,
  )) as unknown as { rows: { key: string; count: number | string; expires_at: number | string }[] };
  return decide(counters, result.rows, now);
}

/** Refused when any counter is past its maximum; the wait is until the last of those windows ends. */
export function decide(
  counters: readonly Counter[],
  rows: readonly { key: string; count: number | string; expires_at: number | string }[],
  now: number,
): LimitDecision {
  const maxOf = new Map(counters.map((c) => [c.key, c.max]));
  let refused = false;
  let waitMs = 0;
  for (const row of rows) {
    const max = maxOf.get(row.key);
    if (max === undefined || Number(row.count) <= max) continue;
    refused = true;
    waitMs = Math.max(waitMs, Number(row.expires_at) - now);
  }
  return refused ? { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) } : { allowed: true };
}

/** What a refused person reads: the wait, in the largest whole unit that fits it. */
export function tooManyRequestsMessage(retryAfterSeconds: number): string {
  const s = Math.max(1, Math.ceil(retryAfterSeconds));
  const wait =
    s < 60 ? plural(s, "second") : s < 3600 ? plural(Math.ceil(s / 60), "minute") : plural(Math.ceil(s / 3600), "hour");
  return `Too many requests. Please try again in ${wait}.`;
}

const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? "" : "s"}`;
