import { createHmac, timingSafeEqual } from "node:crypto";
import { gzipSync } from "node:zlib";
import { sql } from "drizzle-orm";
import { data, type LoaderFunctionArgs } from "react-router";
import { loadAuthSecret } from "~/server/auth/auth.server";
import { requireUser } from "~/server/auth/session.server";
import { db, queryRows } from "~/server/db/client.server";
import { isLoopbackClient } from "~/server/mail/mail.server";
import { getSettings } from "~/server/profile/settings.server";
import { recordDashboardVisit } from "~/server/trial/trial.server";

/**
 * What a signed-in dashboard page would cost if its HTML came from a per-user page cache
 * (ADR 0017), measured by bench/dashboard-floor.js. Each step adds what such a cache could not
 * skip to answering a stored, already compressed page:
 * - `page`: nothing (Express, React Router's resource route, the stored bytes);
 * - `read`: the least a session check that sees sign-outs can do: the cookie's signature checked
 *   here with node:crypto and one hand-written statement reading the session and its user (no
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

let secret: Promise<string> | undefined;

/** Better Auth's signed cookie: `<token>.<base64 HMAC-SHA256 of the token>`. */
async function signedToken(request: Request): Promise<string | null> {
  const m = /(?:^|;\s*)(?:__Secure-)?better-auth\.session_token=([^;]+)/.exec(request.headers.get("cookie") ?? "");
  const value = decodeURIComponent(m?.[1] ?? "");
  const dot = value.lastIndexOf(".");
  if (dot < 1) return null;
  const token = value.slice(0, dot);
  const given = Buffer.from(value.slice(dot + 1), "base64");
  secret ??= loadAuthSecret(db());
  const expected = createHmac("sha256", await secret)
    .update(token)
    .digest();
  return given.length === expected.length && timingSafeEqual(given, expected) ? token : null;
}

export async function loader({ request }: LoaderFunctionArgs) {
  if (!isLoopbackClient(request)) throw data("Not Found", { status: 404 });
  const step = new URL(request.url).searchParams.get("step");
  if (step === "read") {
    const token = await signedToken(request);
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
