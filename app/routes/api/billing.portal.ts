import { data } from "react-router";
import { checkoutProvider } from "~/server/billing/provider.server";
import { openBillingPortal } from "~/server/billing/stripe/billing-portal.server";
import { db } from "~/server/db/client.server";
import { env } from "~/server/env.server";
import { log, errorMessage } from "~/server/log.server";
import { methodNotAllowed, signedInPost } from "~/server/http/api.server";

const LOCAL_MANAGE_BILLING_PATH = "/dashboard/billing/manage";

/**
 * POST /api/billing/portal: a Stripe customer-portal session for the signed-in user's own stored
 * customer id; the request names no customer, so nobody can open another account's portal.
 * Answers `{ url }`. The local test provider's portal is this site's own page, Manage Billing
 * (/dashboard/billing/manage, which the billing page links to directly).
 */
export async function action({ request }: { request: Request }) {
  const signedIn = await signedInPost(request);
  if ("answer" in signedIn) return signedIn.answer;
  const { user } = signedIn;
  const provider = await checkoutProvider();
  if (provider.name !== "stripe") return data({ url: LOCAL_MANAGE_BILLING_PATH }, { headers: { "Cache-Control": "no-store" } });
  try {
    const portal = await openBillingPortal(db(), user.id, `${env().PUBLIC_SITE_URL}/dashboard/billing`);
    if (!portal) return data({ error: "No billing account yet" }, { status: 404 });
    return data(portal, { headers: { "Cache-Control": "no-store" } });
  } catch (error) {
    log.error("billing portal failed", { userId: user.id, error: errorMessage(error) });
    return data({ error: "Failed to open billing portal" }, { status: 502 });
  }
}

export function loader() {
  return methodNotAllowed();
}
