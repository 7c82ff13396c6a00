/**
 * Affiliate username rules (spec section 5), shared by the sign-up page and the server.
 * Usernames are stored lower-case and appear in referral links: /ref/{username}.
 */
const USERNAME_MIN = 3;
export const USERNAME_MAX = 30;
export const USERNAME_PATTERN = /^[a-z0-9_-]{3,30}$/;
export const USERNAME_HINT = "3-30 characters: lower-case letters, digits, _ and -";

/** What the visitor typed, as it would be stored: trimmed and lower-cased. */
export function normalizeUsername(value: string): string {
  return value.trim().toLowerCase();
}

/** null when `value` (already normalised) is a valid username, else the message to show. */
export function usernameError(value: string): string | null {
  if (value.length < USERNAME_MIN) return `Username must be at least ${USERNAME_MIN} characters`;
  if (value.length > USERNAME_MAX) return `Username must be at most ${USERNAME_MAX} characters`;
  if (!USERNAME_PATTERN.test(value)) return "Use only lower-case letters, digits, _ and -";
  return null;
}

/**
 * Names nobody may take as a new username: /ref/{username} links that look like the site's own
 * (support, billing, its brand), addresses people trust by convention (postmaster, abuse, noreply),
 * and the first segment of every route (a link /ref/dashboard reads like a page of the site). The
 * route segments are checked against app/routes.ts by this module's test, so a new route cannot be
 * forgotten. Usernames already taken before a word was reserved keep working.
 */
// prettier-ignore
const RESERVED_WORDS = [
  // Roles and addresses people trust.
  "admin", "administrator", "support", "help", "api", "root", "www", "billing", "security", "staff",
  "ops", "operator", "operators", "mail", "email", "info", "abuse", "postmaster", "webmaster",
  "hostmaster", "noreply", "no-reply", "system", "moderator", "contact", "sales",
  // The site's own brand.
  "aiautomationapps", "ai-automation-apps", "aiautomation", "automationapps", "aiapps", "official", "team",
  // First segments of the routes (app/routes.ts) and of what the server answers besides them.
  "sitemap", "robots", "auth", "checkout", "dev", "dashboard", "affiliate-dashboard", "affiliate-signup",
  "how-it-works", "results", "industries", "goals", "packages", "questionnaire", "apps", "live-training",
  "earn", "distributors", "distributor-success", "payment-success", "payment-cancel", "ref", "assets",
  "favicon", "healthz", "privacy", "terms",
];

/** How two usernames are compared for reservation: case, "-" and "_" ignored ("No_Reply" is "noreply"). */
function reservedKey(value: string): string {
  return value.toLowerCase().replace(/[-_]/g, "");
}

const RESERVED = new Set(RESERVED_WORDS.map(reservedKey));

export const USERNAME_RESERVED = "This username is reserved. Please choose another.";

export function isReservedUsername(value: string): boolean {
  return RESERVED.has(reservedKey(value.trim()));
}

/**
 * null when `value` (already normalised) may be taken as a new username, else the message to show:
 * the format of usernameError, and no reserved name. Looking up an existing affiliate uses
 * usernameError alone, so a name taken before it was reserved still resolves.
 */
export function newUsernameError(value: string): string | null {
  return usernameError(value) ?? (isReservedUsername(value) ? USERNAME_RESERVED : null);
}

/** The name part of a default username: first + last name lower-cased, non-alphanumerics removed, or 'affiliate'. */
export function usernameBase(firstName: string | null | undefined, lastName: string | null | undefined): string {
  const base = `${firstName ?? ""}${lastName ?? ""}`
    .normalize("NFKD")
    .toLowerCase()
    .replace(/[^a-z0-9]/g, "");
  // Leave room for up to three digits within the 30-character limit.
  return (base || "affiliate").slice(0, USERNAME_MAX - 3);
}

/**
 * The spec's default username: the base plus a random number below 1000. A one-letter base gets a
 * zero-padded number ("j07") so the result still has the minimum 3 characters.
 */
export function defaultUsername(
  firstName: string | null | undefined,
  lastName: string | null | undefined,
  random: () => number = Math.random,
): string {
  const base = usernameBase(firstName, lastName);
  const n = Math.min(999, Math.max(0, Math.floor(random() * 1000)));
  return base + String(n).padStart(Math.max(1, USERNAME_MIN - base.length), "0");
}
