import { data } from "react-router";
import { z } from "zod";
import { APP_PRICING_TABS } from "~/catalogue/pricing";
import { getUser } from "~/server/auth/session.server";
import { CheckoutError, createAppCheckout } from "~/server/billing/checkout.server";
import { db } from "~/server/db/client.server";
import type { Route } from "./+types/checkout";

/**
 * POST /api/checkout: starts a checkout and answers `{ url }` (the hosted checkout page).
 * The body names only what is bought; it is strict, so a request carrying an amount (or any other
 * extra key) is refused with 400 rather than silently trusted or silently dropped.
 */
const body = z.strictObject({
  kind: z.literal("app"),
  appId: z.number().int().positive(),
  tab: z.enum(APP_PRICING_TABS),
});

export async function action({ request }: Route.ActionArgs) {
  if (request.method !== "POST") return data({ error: "Method not allowed" }, { status: 405, headers: { Allow: "POST" } });
  const user = await getUser(request);
  if (!user) return data({ error: "Authentication required" }, { status: 401 });

  let json: unknown;
  try {
    json = await request.json();
  } catch {
    return data({ error: "Invalid JSON body" }, { status: 400 });
  }
  const parsed = body.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const message = issue?.code === "unrecognized_keys" ? `Unexpected field: ${issue.keys.join(", ")}` : "Invalid app data";
    return data({ error: message }, { status: 400 });
  }

  try {
    const { url } = await createAppCheckout(db(), user, { appId: parsed.data.appId, tab: parsed.data.tab });
    return data({ url }, { headers: { "Cache-Control": "no-store" } });
  } catch (error) {
    if (error instanceof CheckoutError) return data({ error: error.message }, { status: 400 });
    throw error;
  }
}

export function loader() {
  return data({ error: "Method not allowed" }, { status: 405, headers: { Allow: "POST" } });
}
