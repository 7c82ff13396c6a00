import { redirect } from "react-router";
import { auth } from "./auth.server";

export interface SessionUser {
  id: string;
  email: string;
  name: string;
  emailVerified: boolean;
  firstName: string | null;
  lastName: string | null;
  companyName: string | null;
}

/** The signed-in user of this request, or null. Reads the session from the database every time. */
export async function getUser(request: Request): Promise<SessionUser | null> {
  const result = await auth().api.getSession({ headers: request.headers });
  if (!result) return null;
  const u = result.user as typeof result.user & {
    firstName?: string | null;
    lastName?: string | null;
    companyName?: string | null;
  };
  return {
    id: u.id,
    email: u.email,
    name: u.name,
    emailVerified: u.emailVerified,
    firstName: u.firstName ?? null,
    lastName: u.lastName ?? null,
    companyName: u.companyName ?? null,
  };
}

/** Same-site path to come back to after signing in; anything else falls back to /dashboard. */
export function safeNext(value: string | null | undefined, fallback = "/dashboard"): string {
  if (!value || !value.startsWith("/") || value.startsWith("//") || value.startsWith("/\\") || value.includes("\\"))
    return fallback;
  return value;
}

/**
 * The page a request belongs to: React Router's data requests (`/x.data?_routes=…`) are mapped
 * back to the page URL, so signing in returns the user to the page, not to raw data.
 */
export function pagePath(requestUrl: string): string {
  const url = new URL(requestUrl);
  url.searchParams.delete("_routes");
  let path = url.pathname;
  if (path === "/_root.data") path = "/";
  else if (path.endsWith(".data")) path = path.slice(0, -".data".length);
  return path + url.search;
}

/**
 * First line of every protected loader and action: the signed-in user, or a redirect to /auth
 * (with the page to return to). A layout guard alone protects nothing: loaders run in parallel.
 */
export async function requireUser(request: Request): Promise<SessionUser> {
  const user = await getUser(request);
  if (user) return user;
  throw redirect(`/auth?next=${encodeURIComponent(safeNext(pagePath(request.url)))}`);
}
