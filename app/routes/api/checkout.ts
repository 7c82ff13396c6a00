import { data } from "react-router";
import { getUser } from "~/server/auth/session.server";
import { refusalHeaders, refuseCheckout, startCheckout, type CheckoutRefused } from "~/server/billing/start-checkout.server";
import { db } from "~/server/db/client.server";
import { clientIp } from "~/server/http/client-ip.server";
import { parseJsonBody } from "~/server/http/api.server";
import type { Route } from "./+types/checkout";

/**
 * POST /api/checkout: starts a checkout of any kind and answers `{ url }` (the hosted checkout
 * page). The body names only what is bought (app/lib/checkout-request.ts); it is strict, so a
 * request carrying an amount (or any other extra key) is refused with 400 rather than trusted.
 * A refusal answers `{ code, message, field? }` (app/lib/checkout-codes.ts) with its status; `error`
 * repeats the message for clients that read the older answer.
 */
const MAX_BODY_BYTES = 4096;

export async function action({ request }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed();
  // Not requireUser: its redirect to /auth would be followed by fetch and read as a 200 by the page.
  const user = await getUser(request);
  if (!user) return refusal(refuseCheckout(401, "not_signed_in", "Authentication required"));
  const body = await parseJsonBody(request, MAX_BODY_BYTES);
  if (!("json" in body)) return refusal(refuseCheckout(body.status, "invalid_input", body.error));
  const started = await startCheckout(db(), user, body.json, { ip: clientIp(request) });
  if ("refused" in started) return refusal(started);
  return data({ url: started.url }, { headers: { "Cache-Control": "no-store" } });
}

export function loader() {
  return methodNotAllowed();
}

function methodNotAllowed() {
  return refusal(refuseCheckout(405, "method_not_allowed", "Method not allowed"), { Allow: "POST" });
}

function refusal(refused: CheckoutRefused, headers?: Record<string, string>) {
  return data(
    { ...refused.refused, error: refused.refused.message },
    { status: refused.status, headers: { ...refusalHeaders(refused), ...headers } },
  );
}
