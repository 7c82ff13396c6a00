import { redirect } from "react-router";
import { signInPath, type SignInReason } from "~/lib/auth-messages";
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

/**
 * One session lookup per request: a document request runs the layout's and the page's loaders (each
 * starts with requireUser) on the same Request object. Loaders that run after an action get a new
 * Request, so a sign-out in the action is seen by them.
 */
const sessionOfRequest = new WeakMap<Request, Promise<SessionUser | null>>();

/** The signed-in user of this request, or null. Reads the session from the database once per request. */
export function getUser(request: Request): Promise<SessionUser | null> {
  let pending = sessionOfRequest.get(request);
  if (!pending) {
    pending = readUser(request);
    sessionOfRequest.set(request, pending);
    // A failed lookup is not remembered: the next caller asks the database again.
    pending.catch(() => sessionOfRequest.delete(request));
  }
  return pending;
}

async function readUser(request: Request): Promise<SessionUser | null> {
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

const SITE = "http://site.invalid";
/** `%2F` and `%5C` in any case: a slash or backslash some server or router may decode into the path. */
const ENCODED_SEPARATOR = /%2f|%5c/i;

/**
 * Same-site path to come back to after signing in; anything else falls back to /dashboard.
 * Whatever this accepts Better Auth must accept too, as the sign-in's callbackURL (its check of
 * relative URLs, `isSafeRelativeURL`, refuses the same things): a value it refused made the sign-in
 * answer 403 before the password was looked at, which the form reported as a wrong password.
 */
export function safeNext(value: string | null | undefined, fallback = "/dashboard"): string {
  if (!value || !value.startsWith("/") || value.startsWith("//") || value.startsWith("/\\") || value.includes("\\"))
    return fallback;
  // Control characters: browsers drop tabs and newlines from a URL (`/<TAB>/evil.example` becomes
  // `//evil.example`), and a newline in a Location header fails the response. C1 controls too, as
  // Better Auth refuses them.
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f-\u009f]/.test(value)) return fallback;
  // An encoded separator in the path (`/dashboard%2Fbilling`, `/%2F%2Fevil.example`): no page of
  // ours has one, and decoded it could name another path or host. In the query it is only data.
  const end = value.search(/[?#]/);
  if (ENCODED_SEPARATOR.test(end === -1 ? value : value.slice(0, end))) return fallback;
  // What a browser would make of it must stay on this site.
  try {
    if (new URL(value, SITE).origin !== SITE) return fallback;
  } catch {
    return fallback;
  }
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
  // React Router 8 names an index route's data `/_.data` (`/dashboard/_.data`); 7 named the root's
  // `/_root.data`.
  if (path === "/_root.data" || path === "/_.data") path = "/";
  else if (path.endsWith("/_.data")) path = path.slice(0, -"/_.data".length);
  else if (path.endsWith(".data")) path = path.slice(0, -".data".length);
  return path + url.search;
}

/**
 * First line of every protected loader and action: the signed-in user, or a redirect to /auth
 * (with the page to return to). A layout guard alone protects nothing: loaders run in parallel.
 * `signInReason` is asked only once the request is known to be signed out (it may read the body),
 * and picks the note /auth shows.
 */
export async function requireUser(
  request: Request,
  signInReason?: (request: Request) => Promise<SignInReason | null>,
): Promise<SessionUser> {
  const user = await getUser(request);
  if (user) return user;
  const reason = signInReason ? await signInReason(request).catch(() => null) : null;
  throw redirect(signInPath(safeNext(pagePath(request.url)), reason));
}
