import { z } from "zod";
import { requireOperator } from "~/server/admin/admin.server";
import { payoutRunCsv } from "~/server/affiliates/list-payout-runs.server";
import { db } from "~/server/db/client.server";
import type { Route } from "./+types/admin.payouts-csv";

const notFound = () => new Response("Not found.\n", { status: 404, headers: { "content-type": "text/plain; charset=utf-8" } });

const runId = z.coerce.number().int().min(1).max(2_147_483_647);

/** A run's payment file for PayPal Payouts' bulk upload (docs/decisions/0067-affiliate-payouts.md). */
export async function loader({ request, params }: Route.LoaderArgs) {
  try {
    await requireOperator(request);
  } catch (refused) {
    // A redirect (an operator without a second factor) stands; anyone else gets a plain 404.
    if (refused instanceof Response) throw refused;
    return notFound();
  }
  const id = runId.safeParse(params.runId);
  const csv = id.success ? await payoutRunCsv(db(), id.data) : null;
  if (csv === null)
    return new Response("No such payout run.\n", { status: 404, headers: { "content-type": "text/plain; charset=utf-8" } });
  return new Response(csv, {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="payout-run-${id.data}.csv"`,
      "cache-control": "no-store",
    },
  });
}
