import { gzipSync } from "node:zlib";
import { sql } from "drizzle-orm";
import { data, type LoaderFunctionArgs } from "react-router";
import { authSecret, sessionCookieName } from "~/server/auth/auth.server";
import { requireUser } from "~/server/auth/session.server";
import { db, queryRows } from "~/server/db/client.server";
import { verifiedSessionToken } from "~/server/http/user-page-cache.server";
import { isLoopbackClient } from "~/server/mail/mail.server";
import { getSettings } from "~/server/profile/settings.server";
import { recordDashboardVisit } from "~/server/trial/trial.server";

/**
 * What a signed-in dashboard page would cost if its HTML came from a per-user page cache
 * (ADR 0017), measured by bench/dashboard-floor.js. Each step adds what such a cache could not
 * skip to answering a stored, already compressed page:
 * - `page`: nothing (Express, React Router's resource route, the stored bytes);
 * - `read`: the least a session check that sees sign-outs can do: the cookie's signature checked
 *   as the signed-in page cache checks it (verifiedSessionToken) and one hand-written statement reading the session and its user (no
 *   Better Auth, no Drizzle query building) — a lower bound, not a replacement for requireUser;
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
  if (step === "read") {
    const token = verifiedSessionToken(request.headers.get("cookie") ?? undefined, sessionCookieName(), authSecret());
    const found = token
      ? await queryRows<{ id: string }>(
          db(),
          sql`select u.id, u.email from "session" s join "user" u on u.id = s.user_id where s.token = ${token} and s.expires_at > now()`,
        )
      : [];
    if (!found.length) throw data("Signed out", { status: 401 });
  }
  if (step === "session" || step === "visit") {
    const user = await requireUser(request);
    if (step === "visit") await Promise.all([recordDashboardVisit(db(), user.id), getSettings(db(), user.id)]);
  }
  return new Response(new Uint8Array(stored), {
    headers: { "Content-Type": "text/html; charset=utf-8", "Content-Encoding": "gzip", "Cache-Control": "no-store" },
  });
}
