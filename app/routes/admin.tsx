import { ShieldCheck } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { data, isRouteErrorResponse, Link, useRouteError } from "react-router";
import { z } from "zod";
import { AffiliatesTable, CustomersTable, LeadsTable, OrdersTable } from "~/components/admin/AdminTables";
import { LazyToaster, type Notice } from "~/components/LazyToaster";
import { MarketingShell } from "~/components/marketing/MarketingShell";
import { NotFoundContent, notFoundMeta } from "~/components/marketing/NotFound";
import { getAdminOverview, requireOperator, retryLeadDelivery } from "~/server/admin/admin.server";
import { db } from "~/server/db/client.server";
import { INVALID_CHARACTERS, noControlChars } from "~/lib/text";
import type { Route } from "./+types/admin";

export const meta: Route.MetaFunction = ({ error, matches }) =>
  // Not an operator: the site's 404, title included.
  error ? notFoundMeta(matches) : [{ title: "Operations | AI Automation Apps" }, { name: "robots", content: "noindex" }];

/** Operators only; anyone else, signed in or not, gets the same 404 as an unknown address (pages and .data). */
export async function loader({ request }: Route.LoaderArgs) {
  await requireOperator(request);
  return getAdminOverview(db());
}

const actionSchema = z.strictObject({
  intent: z.literal("retry-lead"),
  leadId: z.string().min(1).max(100).refine(noControlChars, INVALID_CHARACTERS),
});

export async function action({ request }: Route.ActionArgs) {
  await requireOperator(request);
  let entries: Record<string, FormDataEntryValue>;
  try {
    entries = Object.fromEntries(await request.formData());
  } catch {
    return data({ ok: false, message: "The form could not be read." }, { status: 400 });
  }
  const parsed = actionSchema.safeParse(entries);
  if (!parsed.success) return data({ ok: false, message: "Unknown or invalid request." }, { status: 400 });
  const retried = await retryLeadDelivery(db(), parsed.data.leadId);
  return retried
    ? data({ ok: true, message: "Lead queued for another delivery attempt." })
    : data(
        { ok: false, message: "This lead cannot be retried: it is not failed, or no mailing list is configured." },
        { status: 409 },
      );
}

/** Not an operator (the loader's 404): the site's own 404 page, as for any unknown address. */
export function ErrorBoundary() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) {
    return (
      <MarketingShell>
        <NotFoundContent />
      </MarketingShell>
    );
  }
  // Never the error's text or stack: the server logged it.
  return (
    <main className="mx-auto flex min-h-screen max-w-xl flex-col items-center justify-center gap-4 p-8 text-center">
      <h1 className="text-3xl font-bold">Something went wrong</h1>
      <p className="text-muted-foreground">An unexpected error occurred. Please try again in a moment.</p>
      <a href="/admin" className="font-semibold text-primary underline">
        Try again
      </a>
    </main>
  );
}

const SECTIONS = [
  { id: "leads", label: "Leads" },
  { id: "orders", label: "Orders" },
  { id: "customers", label: "Customers" },
  { id: "affiliates", label: "Affiliates" },
];

export default function Admin({ loaderData, actionData }: Route.ComponentProps) {
  const [notice, setNotice] = useState<Notice | null>(null);
  const id = useRef(0);
  useEffect(() => {
    if (!actionData) return;
    id.current += 1;
    setNotice({ id: id.current, kind: actionData.ok ? "success" : "error", title: actionData.message });
  }, [actionData]);

  return (
    <div className="min-h-screen bg-muted/40">
      <header className="border-b bg-ink text-white">
        <div className="mx-auto flex max-w-7xl flex-wrap items-center justify-between gap-3 px-4 py-4">
          <Link
            to="/"
            className="flex items-center gap-2 rounded-md font-bold focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-white"
          >
            <span className="grid size-8 place-items-center rounded-lg bg-primary">
              <ShieldCheck className="size-4" aria-hidden />
            </span>
            Operations
          </Link>
          <nav aria-label="Sections" className="flex flex-wrap gap-x-4 gap-y-1 text-sm">
            {SECTIONS.map((s) => (
              <a
                key={s.id}
                href={`#${s.id}`}
                className="rounded text-slate-200 underline-offset-4 hover:text-white hover:underline"
              >
                {s.label}
              </a>
            ))}
          </nav>
        </div>
      </header>
      <main id="main" className="mx-auto max-w-7xl space-y-6 px-4 py-8">
        <h1 className="text-2xl font-bold sm:text-3xl">Admin</h1>
        <LeadsTable leads={loaderData.leads} />
        <OrdersTable orders={loaderData.orders} />
        <CustomersTable customers={loaderData.customers} />
        <AffiliatesTable affiliates={loaderData.affiliates} />
      </main>
      <LazyToaster notice={notice} />
    </div>
  );
}
