import { type ColumnDef, flexRender, tableFeatures, useTable } from "@tanstack/react-table";
import { ArrowDown, ArrowUp, ArrowUpDown, Download, Search } from "lucide-react";
import { type ReactNode, useMemo } from "react";
import { Form, Link, useNavigation, useSubmit } from "react-router";
import { formatCount } from "~/components/affiliates/format";
import { Button, buttonVariants } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { PAGE_SIZES, pageCount, type TableParams, type TableSpec, tableSearch } from "~/lib/admin/table-params";

/** A console column: its id is the sort key when the spec lists it. */
export interface ConsoleColumn<Row> {
  id: string;
  header: string;
  cell: (row: Row) => ReactNode;
  /** Right-aligned (money, counts). */
  numeric?: boolean;
  /** A header read by screen readers only (an actions column). */
  hiddenHeader?: boolean;
}

const features = tableFeatures({});
const selectClass = "h-10 rounded-md border border-input bg-background px-3 text-sm";

/**
 * The console's one table: @tanstack/react-table builds the header and row models (sorting and
 * paging are the server's, from the URL); the markup is a real <table> with a caption, sortable
 * headers as links with aria-sort, and a toolbar that is a plain GET form, so every state is an
 * address and works before the page's JavaScript runs. It scrolls inside its own box at phone width.
 */
export function DataTable<Row extends object>({
  spec,
  params,
  rows,
  total,
  columns,
  rowKey,
  basePath,
}: {
  spec: TableSpec;
  params: TableParams;
  rows: Row[];
  total: number;
  columns: ConsoleColumn<Row>[];
  rowKey: (row: Row) => string;
  basePath: string;
}) {
  const navigation = useNavigation();
  const submit = useSubmit();
  const loading = navigation.state === "loading" && navigation.location.pathname === basePath;
  const defs = useMemo<ColumnDef<typeof features, Row, unknown>[]>(
    () => columns.map((c) => ({ id: c.id, header: c.header, cell: (ctx) => c.cell(ctx.row.original) })),
    [columns],
  );
  const table = useTable({ features, columns: defs, data: rows, getRowId: (row: Row) => rowKey(row) });
  const byId = new Map(columns.map((c) => [c.id, c]));
  const pages = pageCount(total, params.size);
  const page = Math.min(params.page, pages);
  const first = total === 0 ? 0 : (page - 1) * params.size + 1;
  const last = Math.min(total, page * params.size);
  const filtered = Boolean(params.q || Object.keys(params.filters).length || params.from || params.to);
  // The range's days are the operator's (TableParams.timeZone), and the label says whose.
  const zoneLabel = params.timeZone.replaceAll("_", " ");
  const exportHref = `/admin/export/${spec.id}${tableSearch(spec, params, { page: 1 })}`;
  const captionId = `${spec.id}-caption`;

  return (
    <section aria-labelledby={captionId} className="space-y-4">
      <search aria-label={`Search and filter ${spec.title.toLowerCase()}`}>
        <Form
          key={tableSearch(spec, params)}
          method="get"
          onSubmit={(event) => {
            // Without JavaScript the browser sends every field; with it, the address keeps only what is set.
            event.preventDefault();
            const clean = new URLSearchParams();
            for (const [k, v] of new FormData(event.currentTarget))
              if (typeof v === "string" && v !== "" && !(k === "size" && v === String(PAGE_SIZES[0]))) clean.append(k, v);
            void submit(clean, { method: "get", action: basePath });
          }}
          className="grid gap-3 rounded-xl border bg-card p-4 shadow-sm sm:grid-cols-2 lg:grid-cols-4"
        >
          <label className="grid gap-1 text-sm sm:col-span-2">
            <span className="font-medium">Search</span>
            <Input
              type="search"
              name="q"
              defaultValue={params.q}
              maxLength={100}
              placeholder={spec.searchLabel}
              aria-describedby={`${spec.id}-search-hint`}
            />
            <span id={`${spec.id}-search-hint`} className="text-xs text-muted-foreground">
              {spec.searchLabel}
            </span>
          </label>
          {spec.filters.map((f) => (
            <label key={f.key} className="grid gap-1 text-sm">
              <span className="font-medium">{f.label}</span>
              <select name={f.key} defaultValue={params.filters[f.key] ?? ""} className={selectClass}>
                <option value="">Any</option>
                {f.options.map((o) => (
                  <option key={o.value} value={o.value}>
                    {o.label}
                  </option>
                ))}
              </select>
            </label>
          ))}
          {spec.dateRange ? (
            <>
              <label className="grid gap-1 text-sm">
                <span className="font-medium">Created from ({zoneLabel})</span>
                <Input type="date" name="from" defaultValue={params.from ?? ""} />
              </label>
              <label className="grid gap-1 text-sm">
                <span className="font-medium">Created to ({zoneLabel})</span>
                <Input type="date" name="to" defaultValue={params.to ?? ""} />
              </label>
            </>
          ) : null}
          <label className="grid gap-1 text-sm">
            <span className="font-medium">Rows per page</span>
            <select name="size" defaultValue={String(params.size)} className={selectClass}>
              {PAGE_SIZES.map((s) => (
                <option key={s} value={s}>
                  {s}
                </option>
              ))}
            </select>
          </label>
          {params.sort !== spec.defaultSort.key || params.dir !== spec.defaultSort.dir ? (
            <>
              <input type="hidden" name="sort" value={params.sort} />
              <input type="hidden" name="dir" value={params.dir} />
            </>
          ) : null}
          <div className="flex flex-wrap items-end gap-2 sm:col-span-2 lg:col-span-4">
            <Button type="submit" size="sm">
              <Search aria-hidden />
              Apply
            </Button>
            {filtered ? (
              <Link to={basePath} className={buttonVariants({ size: "sm", variant: "ghost" })}>
                Clear
              </Link>
            ) : null}
            <a href={exportHref} className={`${buttonVariants({ size: "sm", variant: "outline" })} sm:ml-auto`} download>
              <Download aria-hidden />
              Export CSV{filtered ? " (filtered)" : ""}
            </a>
          </div>
        </Form>
      </search>

      <div className="rounded-xl border bg-card shadow-sm">
        <div className="relative overflow-x-auto" aria-busy={loading}>
          <table className={`w-full min-w-[48rem] text-sm ${loading ? "opacity-60" : ""}`} aria-describedby={`${spec.id}-range`}>
            <caption id={captionId} className="px-4 pt-4 text-left text-lg font-semibold">
              {spec.title}
            </caption>
            <thead>
              {table.getHeaderGroups().map((group) => (
                <tr key={group.id} className="border-b">
                  {group.headers.map((header) => {
                    const col = byId.get(header.column.id);
                    const sortable = spec.sortKeys.includes(header.column.id);
                    const active = sortable && params.sort === header.column.id;
                    const nextDir =
                      active && params.dir === "asc"
                        ? "desc"
                        : active
                          ? "asc"
                          : header.column.id === spec.defaultSort.key
                            ? spec.defaultSort.dir
                            : "asc";
                    const Icon = active ? (params.dir === "asc" ? ArrowUp : ArrowDown) : ArrowUpDown;
                    return (
                      <th
                        key={header.id}
                        scope="col"
                        aria-sort={active ? (params.dir === "asc" ? "ascending" : "descending") : undefined}
                        className={`whitespace-nowrap px-4 py-2 font-medium ${col?.numeric ? "text-right" : "text-left"}`}
                      >
                        {col?.hiddenHeader ? (
                          <span className="sr-only">{col.header}</span>
                        ) : sortable ? (
                          <Link
                            to={tableSearch(spec, params, { sort: header.column.id, dir: nextDir, page: 1 }) || basePath}
                            className="inline-flex items-center gap-1 rounded underline-offset-4 hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
                            preventScrollReset
                          >
                            {col?.header}
                            <Icon className="size-3.5" aria-hidden />
                            <span className="sr-only">
                              {active ? `, sorted ${params.dir === "asc" ? "ascending" : "descending"}` : ", sort"}
                            </span>
                          </Link>
                        ) : (
                          col?.header
                        )}
                      </th>
                    );
                  })}
                </tr>
              ))}
            </thead>
            <tbody>
              {table.getRowModel().rows.map((row) => (
                <tr key={row.id} className="border-b last:border-0" data-row-id={row.id}>
                  {row.getAllCells().map((cell) => (
                    <td
                      key={cell.id}
                      className={`px-4 py-2 align-top ${byId.get(cell.column.id)?.numeric ? "text-right tabular-nums" : ""}`}
                    >
                      {flexRender(cell.column.columnDef.cell, cell.getContext())}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
          {rows.length === 0 ? (
            <p className="px-4 pb-6 pt-2 text-sm text-muted-foreground">
              {filtered ? "Nothing matches these filters." : `No ${spec.title.toLowerCase()} yet.`}
            </p>
          ) : null}
        </div>
        <nav
          aria-label={`${spec.title} pages`}
          className="flex flex-wrap items-center justify-between gap-3 border-t px-4 py-3 text-sm"
        >
          <p id={`${spec.id}-range`} aria-live="polite">
            {total === 0 ? "No results" : `${formatCount(first)}–${formatCount(last)} of ${formatCount(total)}`}
          </p>
          <div className="flex items-center gap-2">
            <PageLink to={page > 1 ? tableSearch(spec, params, { page: page - 1 }) || basePath : null} label="Previous page">
              Previous
            </PageLink>
            <span className="text-muted-foreground">
              Page {formatCount(page)} of {formatCount(pages)}
            </span>
            <PageLink to={page < pages ? tableSearch(spec, params, { page: page + 1 }) : null} label="Next page">
              Next
            </PageLink>
          </div>
        </nav>
      </div>
    </section>
  );
}

function PageLink({ to, label, children }: { to: string | null; label: string; children: ReactNode }) {
  if (!to)
    return (
      <span
        aria-disabled="true"
        className={`${buttonVariants({ size: "sm", variant: "outline" })} pointer-events-none opacity-50`}
      >
        {children}
      </span>
    );
  return (
    <Link to={to} aria-label={label} className={buttonVariants({ size: "sm", variant: "outline" })}>
      {children}
    </Link>
  );
}
