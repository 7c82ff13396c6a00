import { CSV_MAX_ROWS, type TableId } from "~/lib/admin/tables";
import { csvRow } from "~/lib/admin/csv";
import type { TableParams } from "~/lib/admin/table-params";
import type { Db } from "../../db/client.server";
import { affiliatesTable } from "./affiliates.server";
import { addonsTable } from "./addons.server";
import { appsTable } from "./apps.server";
import { auditTable } from "./audit.server";
import { customersTable } from "./customers.server";
import { emailsTable } from "./emails.server";
import { leadsTable } from "./leads.server";
import { ordersTable } from "./orders.server";
import type { AdminTable } from "./query.server";
import { ticketsTable } from "./tickets.server";

/** Every console table by id (app/lib/admin/tables.ts lists their specs). */
const ADMIN_TABLES = {
  customers: customersTable,
  orders: ordersTable,
  leads: leadsTable,
  affiliates: affiliatesTable,
  tickets: ticketsTable,
  emails: emailsTable,
  audit: auditTable,
  apps: appsTable,
  addons: addonsTable,
} satisfies Record<TableId, { spec: unknown; csv: readonly unknown[] }>;

/** The row type of one console table. */
export type TableRow<Id extends TableId> = (typeof ADMIN_TABLES)[Id] extends AdminTable<infer Row> ? Row : never;

/** One page of a table, as its URL asks. */
export async function queryTablePage<Id extends TableId>(
  db: Db,
  id: Id,
  params: TableParams,
): Promise<{ rows: TableRow<Id>[]; total: number }> {
  const table = ADMIN_TABLES[id] as unknown as AdminTable<TableRow<Id>>;
  return table.query(db, params, { limit: params.size, offset: (params.page - 1) * params.size });
}

/** Rows read per query while a CSV export streams. */
const CSV_BATCH = 500;

/**
 * The CSV of every row the filters match (not just the page shown), in the table's sort order,
 * read in batches so memory stays flat; at most CSV_MAX_ROWS rows, and a last line says when more
 * matched.
 */
export function tableCsvStream(db: Db, id: TableId, params: TableParams): ReadableStream<Uint8Array> {
  const table = ADMIN_TABLES[id] as AdminTable<unknown>;
  const encoder = new TextEncoder();
  let offset = 0;
  let started = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        if (!started) {
          started = true;
          controller.enqueue(encoder.encode(csvRow(table.csv.map((c) => c.header))));
        }
        const limit = Math.min(CSV_BATCH, CSV_MAX_ROWS - offset);
        const { rows, total } = await table.query(db, params, { limit, offset });
        offset += rows.length;
        controller.enqueue(encoder.encode(rows.map((r) => csvRow(table.csv.map((c) => c.value(r)))).join("")));
        if (rows.length < limit || offset >= CSV_MAX_ROWS) {
          if (total > offset)
            controller.enqueue(encoder.encode(csvRow([`# ${total - offset} more rows matched; narrow the filters`])));
          controller.close();
        }
      } catch (error) {
        controller.error(error);
      }
    },
  });
}
