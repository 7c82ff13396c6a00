import { INVALID_CHARACTERS, noControlChars } from "~/lib/text";

/**
 * Limits on the user fields a client may set through Better Auth's own endpoints
 * (`/api/auth/sign-up/email`, `/api/auth/update-user`). Better Auth checks only that `name` is a
 * string on sign-up and does not check additional fields at all: without this, update-user stored a
 * 5,000-character name, a `javascript:` image URL, and answered `{"name": null}` with a 500 (the
 * column is NOT NULL). The limits are the sign-up forms' (100 per name part); the display name they
 * send is the two parts joined, or the email address (at most 254) when both are empty.
 */
export const USER_FIELD_LIMITS = { name: 256, firstName: 100, lastName: 100, companyName: 100 } as const;

/** The first problem with the body's user fields as `field: message`, or null when they are acceptable. */
export function userFieldsProblem(body: unknown): string | null {
  if (typeof body !== "object" || body === null) return null;
  const fields = body as Record<string, unknown>;
  for (const [field, max] of Object.entries(USER_FIELD_LIMITS)) {
    const value = fields[field];
    if (value === undefined) continue;
    // The extra name fields may be cleared; the display name is required wherever it is sent.
    if (value === null && field !== "name") continue;
    if (typeof value !== "string") return `${field}: Invalid input: expected text`;
    if (!noControlChars(value)) return `${field}: ${INVALID_CHARACTERS}`;
    if (value.length > max) return `${field}: At most ${max} characters`;
    if (field === "name" && value.trim() === "") return "name: Name is required";
  }
  // The product shows no profile pictures; a URL stored here would only wait to be misused.
  if (fields.image !== undefined && fields.image !== null) return "image: Profile pictures are not supported";
  return null;
}

/**
 * Whether a NUL character is anywhere in a request's strings (body, query or path parameters, at any
 * depth). PostgreSQL text cannot hold NUL, so a token or id carrying one made Better Auth's lookup
 * fail with a 500 (`/revoke-session`, `/reset-password`) and print the failed query with its stack.
 */
export function holdsNul(value: unknown, depth = 0): boolean {
  if (typeof value === "string") return value.includes("\u0000");
  if (typeof value !== "object" || value === null || depth > 8) return false;
  return Object.values(value).some((item) => holdsNul(item, depth + 1));
}
