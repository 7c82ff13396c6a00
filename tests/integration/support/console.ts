import { type TableId, TABLE_SPECS } from "~/lib/admin/tables";
import { parseTableParams } from "~/lib/admin/table-params";
import type { Db } from "~/server/db/client.server";
import { queryTablePage, type TableRow } from "~/server/admin/tables/registry.server";

/**
 * One page of a console table as an operator's address asks for it (`?q=…&status=…`), read through
 * the same parse and query as /admin/<table>: what the operator would see.
 */
export async function consoleRows<Id extends TableId>(
  db: Db,
  id: Id,
  query: Record<string, string> = {},
): Promise<TableRow<Id>[]> {
  const params = parseTableParams(TABLE_SPECS[id], new URLSearchParams({ size: "100", ...query }));
  return (await queryTablePage(db, id, params)).rows;
}
