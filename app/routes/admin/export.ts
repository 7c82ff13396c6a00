import { data } from "react-router";
import { parseTableParams } from "~/lib/admin/table-params";
import { isTableId, TABLE_SPECS } from "~/lib/admin/tables";
import { requireOperator } from "~/server/admin/admin.server";
import { consoleTimeZone } from "~/server/admin/console-time-zone.server";
import { tableCsvStream } from "~/server/admin/tables/registry.server";
import { db } from "~/server/db/client.server";
import { log } from "~/server/log.server";
import type { Route } from "./+types/export";

/**
 * /admin/export/<table>?<the table's filters>: every row the filters match as CSV (at most
 * CSV_MAX_ROWS), streamed in batches. Operators only; anything else 404s like the pages.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  const me = await requireOperator(request);
  const id = params.table;
  if (!isTableId(id)) throw data(null, { status: 404 });
  const timeZone = await consoleTimeZone(request, me);
  const parsed = parseTableParams(TABLE_SPECS[id], new URL(request.url).searchParams, timeZone ?? undefined);
  log.info("console export", { table: id, operatorId: me.id });
  const day = new Date().toISOString().slice(0, 10);
  return new Response(tableCsvStream(db(), id, parsed), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${id}-${day}.csv"`,
      "Cache-Control": "no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
