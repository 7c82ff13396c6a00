import { data } from "react-router";
import { checkoutRequestSchema } from "~/lib/checkout-request";
import { CheckoutError, retryAfterHeaders } from "~/server/billing/checkout.server";
import { startCheckoutWithinLimits } from "~/server/billing/start-checkout.server";
import { db } from "~/server/db/client.server";
import { clientIp } from "~/server/http/client-ip.server";
import type { Route } from "./+types/checkout";
import { methodNotAllowed, readJsonBody, signedInPost } from "~/server/http/api.server";

/**
 * POST /api/checkout: starts a checkout of any kind and answers `{ url }` (the hosted checkout
 * page). The body names only what is bought (app/lib/checkout-request.ts); it is strict, so a
 * request carrying an amount (or any other extra key) is refused with 400 rather than trusted.
 */
const MAX_BODY_BYTES = 4096;

export async function action({ request }: Route.ActionArgs) {
  const signedIn = await signedInPost(request);
  if ("answer" in signedIn) return signedIn.answer;
  const { user } = signedIn;

  const body = await readJsonBody(request, MAX_BODY_BYTES);
  if ("answer" in body) return body.answer;
  const { json } = body;
  const parsed = checkoutRequestSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const isApp = typeof json === "object" && json !== null && (json as { kind?: unknown }).kind === "app";
    if (issue?.code === "unrecognized_keys")
      return data({ error: `Unexpected field: ${issue.keys.join(", ")}` }, { status: 400 });
    if (isApp) return data({ error: "Invalid app data" }, { status: 400 });
    const field = issue?.path.join(".") || undefined;
    return data({ error: issue?.message ?? "Invalid checkout request", field }, { status: 400 });
  }

  try {
    const { url } = await startCheckoutWithinLimits(db(), user, parsed.data, { ip: clientIp(request) });
    return data({ url }, { headers: { "Cache-Control": "no-store" } });
  } catch (error) {
    if (error instanceof CheckoutError)
      return data({ error: error.message }, { status: error.status, headers: retryAfterHeaders(error) });
    throw error;
  }
}

export function loader() {
  return methodNotAllowed();
}
