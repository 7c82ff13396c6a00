import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { queryRows, type Db } from "../db/client.server";

/** Better Auth's rule shape: at most `max` requests per `window` seconds. */
export interface AddressRule {
  window: number;
  max: number;
}

/** The key of Better Auth's per-address bucket for one path (`createRateLimitKey` in @better-auth/core). */
export const addressLimitKey = (ip: string, path: string) => `${ip}|${path}`;

/**
 * Counts one call against a per-address bucket of Better Auth's `rate_limit` table and says whether
 * it is allowed. Better Auth counts only requests that come through its HTTP handler: a server-side
 * `auth.api.*` call skips its limiter. The auth hooks count such calls here, in the same row and by
 * the same rule as Better Auth's database limiter (a window from the last allowed request; once it
 * has passed, the count starts again at 1), so the HTTP endpoint and in-process calls share one
 * allowance. One statement: concurrent calls cannot both take the last one.
 */
export async function takeAddressAllowance(db: Db, key: string, rule: AddressRule, now = Date.now()): Promise<boolean> {
  const windowStart = now - rule.window * 1000;
  const rows = await queryRows<{ count: number }>(
    db,
    sql`insert into rate_limit (id, key, count, last_request) values (${randomUUID()}, ${key}, 1, ${now})
        on conflict (key) do update set
          count = case when rate_limit.last_request <= ${windowStart} then 1 else rate_limit.count + 1 end,
          last_request = ${now}
        where rate_limit.last_request <= ${windowStart} or rate_limit.count < ${rule.max}
        returning count`,
  );
  return rows.length > 0;
}
