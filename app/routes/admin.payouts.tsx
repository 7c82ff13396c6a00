import { randomUUID } from "node:crypto";
import { Download } from "lucide-react";
import { data, Form, useNavigation } from "react-router";
import { z } from "zod";
import { PAYOUT_DECISION_LABELS } from "~/catalogue/payouts";
import { AdminErrorBoundary } from "~/components/admin/AdminErrorBoundary";
import { AdminShell } from "~/components/admin/AdminShell";
import { formatMoney } from "~/components/affiliates/format";
import { LocalDateTime } from "~/components/checkout/LocalDateTime";
import { notFoundMeta } from "~/components/marketing/NotFound";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader } from "~/components/ui/card";
import { requireOperator } from "~/server/admin/admin.server";
import { consoleTimeZone } from "~/server/admin/console-time-zone.server";
import { closePayoutRun } from "~/server/affiliates/close-payout-run.server";
import { createPayoutRun } from "~/server/affiliates/create-payout-run.server";
import { listPayoutRuns } from "~/server/affiliates/list-payout-runs.server";
import { previewPayoutRun } from "~/server/affiliates/preview-payout-run.server";
import { db } from "~/server/db/client.server";
import type { Route } from "./+types/admin.payouts";

export const meta: Route.MetaFunction = ({ error, matches }) =>
  error ? notFoundMeta(matches) : [{ title: "Affiliate payouts | AI Automation Apps" }, { name: "robots", content: "noindex" }];

/** Operators with a second factor only (requireOperator); anyone else gets the site's 404. */
export async function loader({ request }: Route.LoaderArgs) {
  const me = await requireOperator(request);
  const [preview, runs, timeZone] = await Promise.all([
    previewPayoutRun(db()),
    listPayoutRuns(db()),
    consoleTimeZone(request, me),
  ]);
  // The create form's key: the same form sent twice makes one run.
  return { preview, runs, key: randomUUID(), timeZone };
}

const runId = z.coerce.number().int().min(1).max(2_147_483_647);
const actionSchema = z.discriminatedUnion("intent", [
  z.strictObject({ intent: z.literal("create-run"), key: z.uuid() }),
  z.strictObject({ intent: z.literal("confirm-run"), runId, confirm: z.literal("yes", { error: "Tick the box to confirm." }) }),
  z.strictObject({ intent: z.literal("cancel-run"), runId }),
]);

export interface PayoutActionResult {
  ok: boolean;
  message: string;
}
const answer = (result: PayoutActionResult, status = 200) => data(result, { status });

export async function action({ request }: Route.ActionArgs) {
  const me = await requireOperator(request);
  let entries: Record<string, FormDataEntryValue>;
  try {
    entries = Object.fromEntries(await request.formData());
  } catch {
    return answer({ ok: false, message: "The form could not be read." }, 400);
  }
  const parsed = actionSchema.safeParse(entries);
  if (!parsed.success) {
    const confirmIssue = parsed.error.issues.find((i) => i.path[0] === "confirm");
    return answer({ ok: false, message: confirmIssue?.message ?? "Unknown or invalid request." }, 400);
  }
  const form = parsed.data;
  if (form.intent === "create-run") {
    const result = await createPayoutRun(db(), { key: form.key, operator: me });
    if (result.ok) {
      return answer({ ok: true, message: `Payout run ${result.runId} created: download its CSV for the payment provider.` });
    }
    return result.code === "open_run"
      ? answer({ ok: false, message: `Run ${result.runId} is still open: confirm or cancel it first.` }, 409)
      : answer({ ok: false, message: "No affiliate has a payable balance at or above the minimum with a payout email." }, 409);
  }
  const outcome = form.intent === "confirm-run" ? "paid" : "cancelled";
  const result = await closePayoutRun(db(), { runId: form.runId, outcome, operator: me });
  if (!result.ok) {
    return result.code === "not_found"
      ? answer({ ok: false, message: "No such payout run." }, 404)
      : answer({ ok: false, message: `Run ${form.runId} is no longer open.` }, 409);
  }
  return answer({
    ok: true,
    message:
      outcome === "paid" ? `Run ${form.runId} marked paid.` : `Run ${form.runId} cancelled: its commissions are payable again.`,
  });
}

export function ErrorBoundary() {
  return <AdminErrorBoundary retryHref="/admin/payouts" />;
}

const th = "px-3 py-2 text-left font-medium";
const td = "px-3 py-2 align-top";

const RUN_STATUS: Record<string, string> = { open: "Open: awaiting payment", paid: "Paid", cancelled: "Cancelled" };

export default function AdminPayouts({ loaderData, actionData }: Route.ComponentProps) {
  const { preview, runs, key } = loaderData;
  const navigation = useNavigation();
  const busy = (intent: string) => navigation.state === "submitting" && navigation.formData?.get("intent") === intent;
  const open = runs.find((r) => r.status === "open");
  const payable = preview.lines.filter((l) => l.decision === "pay");

  return (
    <AdminShell title="Affiliate payouts" timeZone={loaderData.timeZone}>
      <p className="-mt-4 text-sm text-muted-foreground">
        Commissions are payable {preview.holdDays} days after their sale; a run pays balances of at least{" "}
        {formatMoney(preview.minimum)}, net of refunds and lost disputes.
      </p>
      {actionData ? (
        <p
          role={actionData.ok ? "status" : "alert"}
          className={
            actionData.ok
              ? "rounded-md border border-emerald-300 bg-emerald-50 px-3 py-2 text-sm font-medium text-emerald-800"
              : "rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm font-medium text-destructive"
          }
        >
          {actionData.message}
        </p>
      ) : null}

      <Card>
        <CardHeader>
          <h2 className="text-xl font-semibold leading-tight tracking-tight">Payable now</h2>
          <CardDescription>
            {payable.length
              ? `${payable.length} affiliate${payable.length === 1 ? "" : "s"}, ${formatMoney(payable.reduce((s, l) => s + l.payable, 0))} in all.`
              : "Nobody is due a payout now."}
          </CardDescription>
        </CardHeader>
        <CardContent className="space-y-4">
          {preview.lines.length === 0 ? (
            <p className="text-sm text-muted-foreground">No affiliate has a payable balance.</p>
          ) : (
            <div className="overflow-x-auto">
              <table className="w-full text-sm" data-testid="payout-preview">
                <caption className="sr-only">Payable balances per affiliate</caption>
                <thead>
                  <tr className="border-b">
                    <th scope="col" className={th}>
                      Affiliate
                    </th>
                    <th scope="col" className={th}>
                      Payout email
                    </th>
                    <th scope="col" className={`${th} text-right`}>
                      Payable
                    </th>
                    <th scope="col" className={th}>
                      This run
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {preview.lines.map((l) => (
                    <tr key={l.affiliateUserId} className="border-b last:border-0">
                      <th scope="row" className={`${td} text-left font-medium`}>
                        @{l.username}
                      </th>
                      <td className={`${td} break-all`}>{l.payoutEmail ?? "—"}</td>
                      <td className={`${td} whitespace-nowrap text-right`}>{formatMoney(l.payable)}</td>
                      <td className={`${td} ${l.decision === "blocked" ? "font-medium text-destructive" : ""}`}>
                        {PAYOUT_DECISION_LABELS[l.decision]}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          <Form method="post">
            <input type="hidden" name="key" value={key} />
            <Button
              type="submit"
              name="intent"
              value="create-run"
              disabled={Boolean(open) || payable.length === 0 || busy("create-run")}
            >
              {busy("create-run") ? "Creating..." : "Create payout run"}
            </Button>
            {open ? (
              <p className="mt-2 text-sm text-muted-foreground">Run {open.id} is open: confirm or cancel it first.</p>
            ) : null}
          </Form>
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <h2 className="text-xl font-semibold leading-tight tracking-tight">Runs</h2>
          <CardDescription>
            Download a run's CSV, upload it to PayPal Payouts, then confirm it here once PayPal has paid it.
          </CardDescription>
        </CardHeader>
        <CardContent className="space-y-4">
          {runs.length === 0 ? <p className="text-sm text-muted-foreground">No payout runs yet.</p> : null}
          {runs.map((r) => (
            <section
              key={r.id}
              aria-labelledby={`run-${r.id}`}
              className="rounded-lg border bg-card p-4"
              data-testid={`run-${r.id}`}
            >
              <div className="flex flex-wrap items-baseline justify-between gap-2">
                <h3 id={`run-${r.id}`} className="font-semibold">
                  Run {r.id} · {formatMoney(r.totalAmount)} · {RUN_STATUS[r.status] ?? r.status}
                </h3>
                <p className="text-sm text-muted-foreground">
                  Created <LocalDateTime iso={r.createdAt} />
                  {r.closedAt ? (
                    <>
                      {" "}
                      · {r.status === "paid" ? "paid" : "cancelled"} <LocalDateTime iso={r.closedAt} />
                    </>
                  ) : null}
                </p>
              </div>
              <ul className="mt-2 grid gap-1 text-sm">
                {r.payouts.map((p) => (
                  <li key={p.id} className="flex flex-wrap justify-between gap-2 border-b py-1 last:border-0">
                    <span className="break-all">
                      @{p.username} · {p.email}
                    </span>
                    <span className="font-medium">{formatMoney(p.amount)}</span>
                  </li>
                ))}
              </ul>
              {r.status !== "cancelled" ? (
                <div className="mt-3 flex flex-wrap items-end gap-3">
                  <a
                    href={`/admin/payouts/${r.id}/csv`}
                    download={`payout-run-${r.id}.csv`}
                    className="inline-flex h-10 items-center gap-2 rounded-md border px-4 text-sm font-medium hover:bg-muted focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
                  >
                    <Download className="size-4" aria-hidden />
                    Download CSV
                  </a>
                  {r.status === "open" ? (
                    <>
                      <Form method="post" className="flex flex-wrap items-center gap-3">
                        <input type="hidden" name="runId" value={r.id} />
                        <label className="flex items-center gap-2 text-sm">
                          <input type="checkbox" name="confirm" value="yes" required className="size-4 accent-primary" />
                          PayPal has paid this run
                        </label>
                        <Button type="submit" name="intent" value="confirm-run" disabled={busy("confirm-run")}>
                          {busy("confirm-run") ? "Confirming..." : "Confirm paid"}
                        </Button>
                      </Form>
                      <Form method="post">
                        <input type="hidden" name="runId" value={r.id} />
                        <Button type="submit" name="intent" value="cancel-run" variant="outline" disabled={busy("cancel-run")}>
                          {busy("cancel-run") ? "Cancelling..." : "Cancel run"}
                        </Button>
                      </Form>
                    </>
                  ) : null}
                </div>
              ) : null}
            </section>
          ))}
        </CardContent>
      </Card>
    </AdminShell>
  );
}
