import { gzipSync } from "node:zlib";
import { data, type LoaderFunctionArgs } from "react-router";
import { requireUser } from "~/server/auth/session.server";
import { db } from "~/server/db/client.server";
import { isLoopbackClient } from "~/server/mail/mail.server";
import { getSettings } from "~/server/profile/settings.server";
import { recordDashboardVisit } from "~/server/trial/trial.server";

/**
 * What a signed-in dashboard page would cost if its HTML came from a per-user page cache
 * (ADR 0017), measured by bench/dashboard-floor.js. Each step adds what such a cache could not
 * skip to answering a stored, already compressed page:
 * - `page`: nothing (Express, React Router's resource route, the stored bytes);
 * - `session`: the session check every protected request starts with (requireUser);
 * - `visit`: and the dashboard layout's per-visit work (the visit written, the trial gate and the
 *   settings read), which the spec's analytics and trial overlay need on every page load.
 * The route is in no build but the benchmark's (app/routes.ts, BENCH_ROUTES=1).
 */
const stored = gzipSync(
  Array.from({ length: 400 }, (_, i) => `<div class="row"><span>Line ${i}</span><span>${(i * 7919) % 1000}</span></div>`).join(
    "\n",
  ),
);

export async function loader({ request }: LoaderFunctionArgs) {
  if (!isLoopbackClient(request)) throw data("Not Found", { status: 404 });
  const step = new URL(request.url).searchParams.get("step");
  if (step === "session" || step === "visit") {
    const user = await requireUser(request);
    if (step === "visit") await Promise.all([recordDashboardVisit(db(), user.id), getSettings(db(), user.id)]);
  }
  return new Response(new Uint8Array(stored), {
    headers: { "Content-Type": "text/html; charset=utf-8", "Content-Encoding": "gzip", "Cache-Control": "no-store" },
  });
}
