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
