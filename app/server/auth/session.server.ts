import { redirect } from "react-router";
import { signInPath, type SignInReason } from "~/lib/auth-messages";
import { auth } from "./auth.server";
import { safeNext } from "./safe-next.server";

export interface SessionUser {
  id: string;
  email: string;
  name: string;
  emailVerified: boolean;
  firstName: string | null;
  lastName: string | null;
  companyName: string | null;
  /** The account has a confirmed TOTP enrolment: every password sign-in asks for a code. */
  twoFactorEnabled?: boolean;
  /** This session was opened with a second factor (docs/decisions/0073-two-factor.md). */
  sessionTwoFactorVerified?: boolean;
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
    twoFactorEnabled?: boolean | null;
  };
  const session = result.session as (typeof result.session & { twoFactorVerified?: boolean | null }) | undefined;
  return {
    id: u.id,
    email: u.email,
    name: u.name,
    emailVerified: u.emailVerified,
    firstName: u.firstName ?? null,
    lastName: u.lastName ?? null,
    companyName: u.companyName ?? null,
    twoFactorEnabled: u.twoFactorEnabled === true,
    sessionTwoFactorVerified: session?.twoFactorVerified === true,
  };
}

// Kept in a module of its own so auth.server.ts can use it without importing this one.
export { safeNext };

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
