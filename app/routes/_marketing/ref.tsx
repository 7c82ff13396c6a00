import { isbot } from "isbot";
import { data } from "react-router";
import { islandsHandle } from "~/lib/islands";
import { seo } from "~/lib/seo";
import { recordReferralVisit } from "~/server/affiliates/referral.server";
import { authSecret } from "~/server/auth/auth.server";
import { CLIENT_IP_HEADER } from "~/server/http/client-ip.server";
import { db } from "~/server/db/client.server";
import { env } from "~/server/env.server";
import Home from "./home";
import type { Route } from "./+types/ref";

/** /ref/{username} renders the home page and sets the signed attribution cookie. */

// The same page as /, so the same script: its widgets hydrate without React Router (ADR 0019).
export const handle = islandsHandle;

export const meta: Route.MetaFunction = ({ matches }) =>
  seo(matches, {
    title: "AI is the Future — Is Your Business Ready?",
    description: "Ready-made AI automation apps for small and mid-size businesses.",
    path: "/",
  });

/**
 * A deliberate exception to "no GET changes state" (docs/decisions/0011-affiliates.md): a visit to a
 * known affiliate's link appends one analytics row (at most one per visitor cookie, affiliate and
 * day) and sets the first-party `ref` cookie. It changes no account, money or entitlement.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  const headers = new Headers({ "Cache-Control": "private, no-store" });
  if (request.method !== "GET") return data(null, { headers });
  const visit = await recordReferralVisit(db(), {
    username: params.username,
    cookieHeader: request.headers.get("cookie"),
    clientIp: request.headers.get(CLIENT_IP_HEADER),
    isBot: isbot(request.headers.get("user-agent") ?? ""),
    secure: env().PUBLIC_SITE_URL.startsWith("https://"),
    secret: authSecret(),
  });
  if (visit.setCookie) headers.append("Set-Cookie", visit.setCookie);
  return data(null, { headers });
}

/** The loader's Set-Cookie and no-store must reach the document response too. */
export function headers({ loaderHeaders }: Route.HeadersArgs) {
  return loaderHeaders;
}

export default function Referral() {
  return <Home />;
}
