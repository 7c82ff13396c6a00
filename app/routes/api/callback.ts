import { data } from "react-router";
import { handleCallbackRequest } from "~/server/leads/http.server";
import type { Route } from "./+types/callback";
import { methodNotAllowed } from "~/server/http/api.server";

/**
 * POST /api/callback: the 'Schedule AI Consultation' form (JSON or form-encoded). 200 `{ ok: true }`,
 * 400 `{ error, fields }`, 413 oversize, 429 too many, 503 on a fault; never a stack trace. The lead is
 * stored with its Mailchimp delivery job in one transaction (app/server/leads/leads.server.ts).
 */
export async function action({ request }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed();
  const { status, body } = await handleCallbackRequest(request);
  return data(body, { status, headers: { "Cache-Control": "no-store" } });
}

export function loader() {
  return methodNotAllowed();
}
