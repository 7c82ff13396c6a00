import type { GenericEndpointContext } from "better-auth";
import { deleteSessionCookie } from "better-auth/cookies";
import { generateRandomString } from "better-auth/crypto";
import { safeNext } from "./safe-next.server";

/** The two-factor plugin's sign-in challenge cookie (its TWO_FACTOR_COOKIE_NAME) and lifetime (its default). */
export const TWO_FACTOR_CHALLENGE_COOKIE = "two_factor";
const CHALLENGE_SECONDS = 600;

/** Better Auth's OAuth callback (`/callback/google`), the only way in besides a password that opens a session. */
export const isOAuthCallback = (path: string | undefined) => path === "/callback/:id";

/**
 * Where the code step sends the browser once the code is right: the callback's own target (the
 * page the sign-in was started from, given to Better Auth as a path on this site), kept only when
 * `safeNext` accepts it, without the toast the sign-in added to it, which the code step adds again.
 */
function nextOf(location: string | null): string | null {
  const path = safeNext(location, "");
  if (!path) return null;
  const target = new URL(path, "http://site.invalid");
  target.searchParams.delete("toast");
  return `${target.pathname}${target.search}`;
}

/** The callback answers with a redirect: an error object (better-call's class, not Better Auth's) carrying its Location. */
function locationOf(returned: unknown): string | null {
  const headers = (returned as { headers?: unknown } | null | undefined)?.headers;
  return headers instanceof Headers ? headers.get("location") : null;
}

/**
 * Better Auth's two-factor plugin asks for a code only after a password sign-in: Google's callback
 * opens a full session for an account with two-factor authentication. This does for that callback
 * what the plugin does for a password: the session just opened is deleted (row and cookies), the
 * plugin's own challenge (its verification rows and signed cookie) is set, and the browser goes to
 * the sign-in page's code step, whose `/two-factor/verify-*` call opens the session and marks it
 * verified. Call it from an after hook with what the callback returned; it throws the redirect
 * that answers the callback.
 */
export async function challengeOAuthSignIn(ctx: GenericEndpointContext, returned: unknown, site: string): Promise<void> {
  const opened = ctx.context.newSession;
  if (!opened || (opened.user as { twoFactorEnabled?: boolean | null }).twoFactorEnabled !== true) return;
  const next = nextOf(locationOf(returned));

  deleteSessionCookie(ctx, true);
  await ctx.context.internalAdapter.deleteSession(opened.session.token);
  ctx.context.setNewSession(null);

  const identifier = `2fa-${generateRandomString(20)}`;
  const expiresAt = new Date(Date.now() + CHALLENGE_SECONDS * 1000);
  await ctx.context.internalAdapter.createVerificationValue({ value: opened.user.id, identifier, expiresAt });
  await ctx.context.internalAdapter.createVerificationValue({ value: "0", identifier: `2fa-attempts-${identifier}`, expiresAt });
  const cookie = ctx.context.createAuthCookie(TWO_FACTOR_CHALLENGE_COOKIE, { maxAge: CHALLENGE_SECONDS });
  await ctx.setSignedCookie(cookie.name, identifier, ctx.context.secret, cookie.attributes);

  const params = new URLSearchParams({ tab: "signin", step: "code" });
  if (next) params.set("next", next);
  throw ctx.redirect(`${site}/auth?${params.toString()}`);
}
