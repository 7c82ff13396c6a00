import { data } from "react-router";
import { z } from "zod";
import { db } from "~/server/db/client.server";
import { recordDashboardVisit } from "~/server/trial/trial.server";
import { previewSecondsLeftAt } from "~/catalogue/trial";
import { getSettings, rememberTimeZone } from "~/server/profile/settings.server";
import { timeZoneFromCookie } from "~/lib/time-zone";
import { methodNotAllowed, readJsonBody, signedInPost } from "~/server/http/api.server";
import { takeRequestAttempt, tooManyRequests } from "~/server/http/request-limit.server";
import { RATE_LIMITS } from "~/server/limits/rate-limits.server";

const MAX_BODY_BYTES = 256;
/** The dashboard page opened: a visit is to one of them, nothing else counts. */
const bodySchema = z.strictObject({
  path: z.string({ error: "path is required" }).regex(/^\/dashboard(\/[a-z0-9-]{1,40}){0,3}$/, "path must be a dashboard page"),
});

/**
 * POST /api/dashboard/visit: the dashboard layout reports each page the customer opens (spec
 * section 4 'Dashboard gate': the pre-trial access counter, and the analytics chart's visits).
 * A POST from the page rather than a write in the layout's loader, because loaders also run for
 * prefetches, revalidations and data requests, and GET never changes state
 * (docs/decisions/0027-dashboard-visits-by-post.md). Body: `{ "path": "/dashboard/…" }`, the page opened.
 * Answers `{ ok: true, previewSeconds }`: the free preview's seconds left by the server's clock (null
 * once a trial or plan is on), which the page's countdown takes over.
 * Past RATE_LIMITS.dashboardVisit (far more pages a minute than a person opens) a visit is not
 * recorded and the answer is 429; the page does not wait for it.
 */
export async function action({ request }: { request: Request }) {
  const signedIn = await signedInPost(request);
  if ("answer" in signedIn) return signedIn.answer;
  const { user } = signedIn;
  const body = await readJsonBody(request, MAX_BODY_BYTES, { emptyAs: {} });
  if ("answer" in body) return body.answer;
  const parsed = bodySchema.safeParse(body.json);
  if (!parsed.success) return data({ error: parsed.error.issues[0]?.message ?? "Invalid request" }, { status: 400 });
  const allowed = await takeRequestAttempt(request, RATE_LIMITS.dashboardVisit, user.id);
  if (!allowed.allowed) return tooManyRequests(allowed.retryAfterSeconds);
  const now = new Date();
  const [status] = await Promise.all([recordDashboardVisit(db(), user.id, now), rememberBrowserTimeZone(user.id, request)]);
  // The free preview counts from the first visit this request may just have stamped: the page
  // counts down from this figure, not from when it rendered, so it never runs ahead of the server.
  const previewSeconds =
    status.active || status.trial.trialStarted ? null : previewSecondsLeftAt(status.trial.previewStartedAt, now);
  return data({ ok: true, previewSeconds });
}

/**
 * An account made before its zone was captured (or whose sign-up page never ran its script) takes the
 * browser's from the page's cookie at its next dashboard view; one the account has is never replaced.
 */
async function rememberBrowserTimeZone(userId: string, request: Request) {
  const zone = timeZoneFromCookie(request.headers.get("cookie"));
  if (!zone) return;
  if ((await getSettings(db(), userId)).timeZone === null) await rememberTimeZone(db(), userId, zone);
}

export function loader() {
  return methodNotAllowed();
}
