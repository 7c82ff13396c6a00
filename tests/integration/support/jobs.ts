import { sql } from "drizzle-orm";
import { type Db, queryRows } from "~/server/db/client.server";

/**
 * How many of a queue's jobs pg-boss may still run (waiting, due for a retry or running), of those
 * whose `data[key]` is `value` when given: none left means nothing more can happen through it.
 */
export async function openJobCount(db: Db, queue: string, match?: { key: string; value: string }): Promise<number> {
  const byData = match ? sql` and data->>${match.key} = ${match.value}` : sql``;
  const [row] = await queryRows<{ n: number }>(
    db,
    sql`select count(*)::int as n from pgboss.job where name = ${queue} and state in ('created', 'retry', 'active')${byData}`,
  );
  return row!.n;
}
