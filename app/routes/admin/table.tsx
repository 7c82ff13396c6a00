import { data, Link } from "react-router";
import { AdminErrorBoundary } from "~/components/admin/AdminErrorBoundary";
import { AdminShell } from "~/components/admin/AdminShell";
import { type ConsoleColumn, DataTable } from "~/components/admin/DataTable";
import { ROW_KEYS, TABLE_COLUMNS } from "~/components/admin/columns";
import { notFoundMeta } from "~/components/marketing/NotFound";
import { parseTableParams } from "~/lib/admin/table-params";
import { isTableId, TABLE_SPECS } from "~/lib/admin/tables";
import { requireOperator } from "~/server/admin/admin.server";
import { consoleTimeZone } from "~/server/admin/console-time-zone.server";
import { queryTablePage } from "~/server/admin/tables/registry.server";
import { db } from "~/server/db/client.server";
import { mailNotDelivered } from "~/server/mail/mail.server";
import type { Route } from "./+types/table";

export const meta: Route.MetaFunction = ({ error, matches, loaderData }) =>
  error || !loaderData
    ? notFoundMeta(matches)
    : [{ title: `${TABLE_SPECS[loaderData.id].title} | Operations` }, { name: "robots", content: "noindex" }];

/**
 * /admin/customers, /orders, /leads, /affiliates, /tickets and /audit: one page of a console table
 * as its address asks (docs/decisions/0068-operator-console.md). Operators only; anything else 404s.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  const me = await requireOperator(request);
  const id = params.table;
  if (!isTableId(id)) throw data(null, { status: 404 });
  const timeZone = await consoleTimeZone(request, me);
  const parsed = parseTableParams(TABLE_SPECS[id], new URL(request.url).searchParams, timeZone ?? undefined);
  const { rows, total } = await queryTablePage(db(), id, parsed);
  return { id, params: parsed, rows, total, timeZone, mailNotDelivered: id === "emails" ? mailNotDelivered() : null };
}

export const ErrorBoundary = AdminErrorBoundary;

export default function AdminTablePage({ loaderData }: Route.ComponentProps) {
  const { id, params, rows, total, timeZone, mailNotDelivered } = loaderData;
  const spec = TABLE_SPECS[id];
  return (
    <AdminShell
      title={spec.title}
      timeZone={timeZone}
      actions={
        id === "apps" || id === "addons" ? (
          <Link to={`/admin/${id}/new`} className="font-medium text-primary underline-offset-4 hover:underline">
            {id === "apps" ? "New app" : "New add-on"}
          </Link>
        ) : undefined
      }
    >
      {mailNotDelivered ? <NoMailServer devMailbox={mailNotDelivered.devMailbox} /> : null}
      <DataTable
        key={id}
        spec={spec}
        params={params}
        rows={rows as unknown as object[]}
        total={total}
        columns={TABLE_COLUMNS[id] as unknown as ConsoleColumn<object>[]}
        rowKey={ROW_KEYS[id] as (row: object) => string}
        basePath={`/admin/${id}`}
      />
    </AdminShell>
  );
}

/** Why nothing in the Emails table is sent: no mail server is set up, so mail stays in the outbox. */
function NoMailServer({ devMailbox }: { devMailbox: boolean }) {
  return (
    <div role="note" className="mb-4 rounded-lg border border-amber-300 bg-amber-50 p-4 text-sm text-amber-950">
      <p className="font-semibold">No mail server is set up, so no email leaves this server.</p>
      <p className="mt-1">
        Without <code>SMTP_URL</code> every email is kept here unsent: it shows as waiting, then as stuck, and a retry cannot send
        it. Set <code>SMTP_URL</code> and restart; the emails still unsent are then delivered.
        {devMailbox ? (
          <>
            {" "}
            Until then they can be read in the{" "}
            <a href="/dev/mailbox" className="font-medium underline underline-offset-4">
              dev mailbox
            </a>{" "}
            on this machine.
          </>
        ) : null}
      </p>
    </div>
  );
}
