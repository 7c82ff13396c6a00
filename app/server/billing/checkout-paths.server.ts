import { canonicalIndustry } from "~/catalogue/funnel-params";
import { findGoal, findTimeline } from "~/catalogue/goals";
import { TRIAL_PLANS } from "~/catalogue/plans";
import { type OrderRow } from "../db/schema";

export const SESSION_ID_PATTERN = /^[A-Za-z0-9_-]{1,200}$/;

const SESSION_PLACEHOLDER = "{CHECKOUT_SESSION_ID}";

export const withSession = (path: string) => `${path}${path.includes("?") ? "&" : "?"}session_id=${SESSION_PLACEHOLDER}`;

/**
 * The /packages address of a package checkout's choices: only catalogue values (an industry as the
 * catalogue spells it, known goal and timeline ids, the payment mode) make it in, so the address is
 * always this site's packages page. Rush is chosen per button on that page and has no query field.
 */
export function packagesRetryPath(q: {
  industry?: string | null;
  goal?: string | null;
  timeline?: string | null;
  mode?: string | null;
  /** A member plan of the trial chooser (growth, pro): the page sells it. */
  tier?: string | null;
}): string {
  const params = new URLSearchParams();
  const tier = TRIAL_PLANS.find((p) => p.id === q.tier && p.price > 0);
  if (tier) params.set("tier", tier.id);
  const industry = canonicalIndustry(q.industry);
  if (industry) params.set("industry", industry);
  const goal = findGoal(q.goal);
  if (goal) params.set("goal", goal.id);
  const timeline = findTimeline(q.timeline);
  if (timeline) params.set("timeline", timeline.id);
  if (q.mode === "monthly" || q.mode === "one-time") params.set("mode", q.mode);
  const query = params.toString();
  return query ? `/packages?${query}` : "/packages";
}

/**
 * Where payment-cancel's Try Again leads for its `retry` query value: a /packages address rebuilt
 * from the known fields of that value (packagesRetryPath), else bare /packages. Never an address
 * taken as given: another path, another origin or unknown parameters are dropped.
 */
export function paymentCancelRetryPath(retry: string | null | undefined): string {
  if (!retry || retry.length > 500 || !retry.startsWith("/packages")) return "/packages";
  let url: URL;
  try {
    url = new URL(retry, "http://site.invalid");
  } catch {
    return "/packages";
  }
  if (url.origin !== "http://site.invalid" || url.pathname !== "/packages") return "/packages";
  const p = url.searchParams;
  return packagesRetryPath({
    industry: p.get("industry"),
    goal: p.get("goal"),
    timeline: p.get("timeline"),
    mode: p.get("mode"),
    tier: p.get("tier"),
  });
}

/** The site-relative address the buyer returns to after paying for `order`. */
export function successPathOf(order: Pick<OrderRow, "successPath" | "providerSessionId">): string {
  return order.successPath.replace(SESSION_PLACEHOLDER, encodeURIComponent(order.providerSessionId));
}
