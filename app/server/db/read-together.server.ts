import { PgTransaction } from "drizzle-orm/pg-core";
import type { Db } from "./client.server";

/**
 * Independent reads side by side on the pool, or one after another inside a transaction: a
 * transaction holds one connection, which runs one query at a time (node-postgres queues the rest
 * with a deprecation warning, and its next major version refuses them). Drizzle's queries start
 * when first awaited, so each one starts here.
 */
export async function readTogether<T extends readonly PromiseLike<unknown>[]>(
  db: Db,
  queries: [...T],
): Promise<{ -readonly [K in keyof T]: Awaited<T[K]> }> {
  type Results = { -readonly [K in keyof T]: Awaited<T[K]> };
  if (!(db instanceof PgTransaction)) return (await Promise.all(queries)) as Results;
  const results: unknown[] = [];
  for (const query of queries) results.push(await query);
  return results as Results;
}
