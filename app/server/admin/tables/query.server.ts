import { type AnyColumn, asc, desc, type SQL, sql } from "drizzle-orm";
import type { CsvValue } from "~/lib/admin/csv";
import { dayRangeBounds, type TableParams, type TableSpec } from "~/lib/admin/table-params";
import { FALLBACK_TIME_ZONE } from "~/lib/time-zone";
import type { Db } from "../../db/client.server";

/**
 * What every console table shares on the server: its spec, a query that returns one page of rows
 * and the total, and the CSV columns of its export (docs/decisions/0068-operator-console.md).
 */
export interface AdminTable<Row> {
  spec: TableSpec;
  query(db: Db, params: TableParams, page: { limit: number; offset: number }): Promise<{ rows: Row[]; total: number }>;
  csv: readonly { header: string; value: (row: Row) => CsvValue }[];
}

/** ILIKE's wildcards and its escape character taken literally: searching "100%" finds "100%". */
const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Rows where any of `columns` contains `q` (case-insensitive), as a bound parameter. */
export function containsAny(q: string, columns: readonly (AnyColumn | SQL)[]): SQL | undefined {
  if (!q) return undefined;
  const pattern = `%${escapeLike(q)}%`;
  return sql`(${sql.join(
    columns.map((c) => sql`${c} ilike ${pattern}`),
    sql` or `,
  )})`;
}

/** Rows whose `column` falls on or between the range's days, as the clocks of `timeZone` count them. */
export function inDayRange(column: AnyColumn, from: string | null, to: string | null, timeZone = FALLBACK_TIME_ZONE): SQL[] {
  const { start, end } = dayRangeBounds(from, to, timeZone);
  const out: SQL[] = [];
  if (start) out.push(sql`${column} >= ${start.toISOString()}::timestamptz`);
  if (end) out.push(sql`${column} < ${end.toISOString()}::timestamptz`);
  return out;
}

/** The ORDER BY of a whitelisted sort key, with a unique tie-breaker so pages never overlap. */
export function orderOf(params: TableParams, columns: Record<string, AnyColumn | SQL>, tieBreaker: AnyColumn): SQL[] {
  const column = columns[params.sort] ?? Object.values(columns)[0]!;
  const dir = params.dir === "asc" ? asc : desc;
  return [dir(column), dir(tieBreaker)];
}

export const total = (rows: { n: number | string }[]) => Number(rows[0]?.n ?? 0);
