import { ShieldCheck } from "lucide-react";
import type { ReactNode } from "react";
import { Link, NavLink } from "react-router";
import { TimeZoneContext } from "~/lib/time-zone-context";

const SECTIONS = [
  { to: "/admin", label: "Overview", end: true },
  { to: "/admin/customers", label: "Customers" },
  { to: "/admin/orders", label: "Orders" },
  { to: "/admin/leads", label: "Leads" },
  { to: "/admin/affiliates", label: "Affiliates" },
  { to: "/admin/payouts", label: "Payouts" },
  { to: "/admin/tickets", label: "Tickets" },
  { to: "/admin/emails", label: "Emails" },
  { to: "/admin/apps", label: "Apps" },
  { to: "/admin/addons", label: "Add-ons" },
  { to: "/admin/plans", label: "Plans" },
  { to: "/admin/audit", label: "Audit log" },
];

/**
 * The operator console's frame, with times shown in the operator's zone when the page's loader
 * knows it (consoleTimeZone); null leaves LocalDateTime's fallback (UTC, then the browser's zone).
 */
export function AdminShell({ timeZone = null, ...frame }: Parameters<typeof Frame>[0] & { timeZone?: string | null }) {
  return (
    <TimeZoneContext value={timeZone}>
      <Frame {...frame} />
    </TimeZoneContext>
  );
}

/** Its sections, the page's heading, and what the page holds. */
function Frame({ title, actions, children }: { title: ReactNode; actions?: ReactNode; children: ReactNode }) {
  return (
    <div className="min-h-screen bg-muted/40">
      <header className="border-b bg-ink text-white">
        <div className="mx-auto flex max-w-7xl flex-wrap items-center justify-between gap-3 px-4 py-4">
          <Link
            to="/admin"
            className="flex items-center gap-2 rounded-md font-bold focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-white"
          >
            <span className="grid size-8 place-items-center rounded-lg bg-primary">
              <ShieldCheck className="size-4" aria-hidden />
            </span>
            Operations
          </Link>
          <nav aria-label="Console sections" className="flex flex-wrap gap-x-4 gap-y-1 text-sm">
            {SECTIONS.map((s) => (
              <NavLink
                key={s.to}
                to={s.to}
                end={s.end}
                className={({ isActive }) =>
                  `rounded underline-offset-4 hover:text-white hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-white ${isActive ? "font-semibold text-white underline" : "text-slate-200"}`
                }
              >
                {s.label}
              </NavLink>
            ))}
          </nav>
        </div>
      </header>
      <main id="main" className="mx-auto max-w-7xl space-y-6 px-4 py-8">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h1 className="min-w-0 break-words text-2xl font-bold sm:text-3xl">{title}</h1>
          {actions}
        </div>
        {children}
      </main>
    </div>
  );
}

/** A status as a coloured pill (the text carries the meaning; the colour only helps). */
export function Status({ value }: { value: string }) {
  const tone =
    value === "failed" || value === "stuck" || value === "declined" || value === "lost" || value === "capture_failed"
      ? "bg-red-100 text-red-800"
      : value === "open" || value === "refunded" || value === "pending" || value === "retry" || value === "retrying"
        ? "bg-amber-100 text-amber-900"
        : value === "delivered" || value === "paid" || value === "active" || value === "won" || value === "answered"
          ? "bg-emerald-100 text-emerald-800"
          : "bg-slate-100 text-slate-800";
  return (
    <span className={`whitespace-nowrap rounded-full px-2 py-0.5 text-xs font-medium ${tone}`}>{value.replaceAll("_", " ")}</span>
  );
}

/** A titled card of a detail page. */
export function Panel({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section id={id} aria-labelledby={`${id}-heading`} className="scroll-mt-4 rounded-xl border bg-card p-4 shadow-sm sm:p-6">
      <h2 id={`${id}-heading`} className="mb-4 text-xl font-semibold">
        {title}
      </h2>
      {children}
    </section>
  );
}

/** Label/value pairs of a record. */
export function Fields({ items }: { items: [string, ReactNode][] }) {
  return (
    <dl className="grid gap-x-6 gap-y-3 text-sm sm:grid-cols-2 lg:grid-cols-3">
      {items.map(([label, value]) => (
        <div key={label} className="min-w-0">
          <dt className="text-muted-foreground">{label}</dt>
          <dd className="break-words font-medium">{value ?? "—"}</dd>
        </div>
      ))}
    </dl>
  );
}

/** A small read-only table inside a detail page (scrolls in its own box at phone width). */
export function MiniTable({
  caption,
  head,
  rows,
  empty,
}: {
  caption: string;
  head: string[];
  rows: ReactNode[][];
  empty: string;
}) {
  if (rows.length === 0) return <p className="text-sm text-muted-foreground">{empty}</p>;
  return (
    // Relative: the sr-only caption is absolutely placed and would otherwise widen the page.
    <div className="relative overflow-x-auto">
      <table className="w-full min-w-[36rem] text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr className="border-b">
            {head.map((h) => (
              <th key={h} scope="col" className="whitespace-nowrap py-2 pr-4 text-left font-medium">
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((cells, i) => (
            <tr key={i} className="border-b last:border-0">
              {cells.map((c, j) => (
                <td key={j} className="py-2 pr-4 align-top">
                  {c}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
