import { type Column, getTableColumns, type InferSelectModel, type SQL, type SQLWrapper, sql } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";

/**
 * The rows of a subquery as one JSON array (`[]` when there are none): several tables' rows for
 * the same account come back in one statement, one round trip, instead of a query each. The
 * subquery's column names are the JSON keys; decode each element with `rowFromJson`.
 */
export function jsonRows(query: SQLWrapper): SQL<unknown[]> {
  return sql`(select coalesce(json_agg(r), '[]'::json) from (${query}) r)`;
}

/**
 * One element of `jsonRows`, decoded as Drizzle decodes a selected row: each field is read under its
 * column's database name and passed through the column's own decoder (a timestamp's text becomes a
 * Date, as the drivers' type parsers make it for a plain select); null stays null.
 */
export function rowFromJson<T>(fields: Record<string, Column>, json: unknown): T {
  if (json === null || typeof json !== "object") throw new TypeError("a JSON row must be an object");
  const values = json as Record<string, unknown>;
  const row: Record<string, unknown> = {};
  for (const [key, column] of Object.entries(fields)) {
    const value = values[column.name];
    if (value === undefined) throw new TypeError(`the JSON row has no "${column.name}" column`);
    row[key] = value === null ? null : column.mapFromDriverValue(value);
  }
  return row as T;
}

/** A whole `table` row of `jsonRows(db.select().from(table)...)`. */
export function tableRowFromJson<T extends PgTable>(table: T, json: unknown): InferSelectModel<T> {
  return rowFromJson<InferSelectModel<T>>(getTableColumns(table), json);
}
