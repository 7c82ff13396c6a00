import { z } from "zod";
import { INVALID_CHARACTERS, noControlChars } from "~/lib/text";
import { USER_FIELD_LIMITS } from "../auth/auth-input.server";

// Optional, as on sign-up (spec section 5): an account made without names can still save its company.
// The limits are sign-up's (USER_FIELD_LIMITS, held by Better Auth's user-field hook): a name accepted
// at sign-up can be saved again unchanged.
const name = (label: string, max: number) =>
  z.string().trim().max(max, `${label} must be at most ${max} characters`).refine(noControlChars, INVALID_CHARACTERS);

/** The form's maxLength per field: the same limits as the schema below. */
export const PROFILE_FIELD_MAX = {
  firstName: USER_FIELD_LIMITS.firstName,
  lastName: USER_FIELD_LIMITS.lastName,
  companyName: USER_FIELD_LIMITS.companyName,
} as const;

export const profileInput = z.object({
  firstName: name("First name", USER_FIELD_LIMITS.firstName),
  lastName: name("Last name", USER_FIELD_LIMITS.lastName),
  companyName: z
    .string()
    .trim()
    // Better Auth's before-hook holds user fields to USER_FIELD_LIMITS: the same limit, so the form says it.
    .max(USER_FIELD_LIMITS.companyName, `Company name must be at most ${USER_FIELD_LIMITS.companyName} characters`)
    .refine(noControlChars, INVALID_CHARACTERS),
});
export type ProfileInput = z.infer<typeof profileInput>;

export const passwordInput = z
  .object({
    currentPassword: z.string().min(1, "Enter your current password"),
    newPassword: z
      .string()
      .min(8, "New password must be at least 8 characters")
      .max(128, "New password must be at most 128 characters"),
    confirmPassword: z.string(),
    revokeOtherSessions: z
      .literal("on")
      .optional()
      .transform((v) => v === "on"),
  })
  .refine((d) => d.newPassword === d.confirmPassword, {
    path: ["confirmPassword"],
    message: "Passwords do not match",
  });

/** An account without a password (Google sign-in only) has nothing to change. */
export const NO_PASSWORD_MESSAGE = "This account signs in with Google and has no password to change.";
export const WRONG_PASSWORD_MESSAGE = "Current password is incorrect";
export const PASSWORD_CHANGE_FAILED_MESSAGE = "Could not change the password. Please try again.";

/**
 * The change-password form's errors for Better Auth's refusal: CREDENTIAL_ACCOUNT_NOT_FOUND (400)
 * is an account with no password, which must not be told its password is wrong; INVALID_PASSWORD
 * and the other 400s and 401s are about the current password; anything else is a form error.
 */
export function passwordChangeErrors(status: number, body: { code?: string; message?: string } | null): Record<string, string> {
  if (body?.code === "CREDENTIAL_ACCOUNT_NOT_FOUND") return { form: NO_PASSWORD_MESSAGE };
  if (body?.code === "INVALID_PASSWORD" || status === 400 || status === 401) {
    return { currentPassword: WRONG_PASSWORD_MESSAGE };
  }
  return { form: body?.message ?? PASSWORD_CHANGE_FAILED_MESSAGE };
}

/** Better Auth's display name, kept in step with the first and last name. */
export const displayName = (input: ProfileInput, email: string) =>
  [input.firstName, input.lastName].filter(Boolean).join(" ") || email;

/** First message per field, for re-rendering a form after a 400. */
export function fieldErrors(error: z.ZodError): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = String(issue.path[0] ?? "form");
    out[key] ??= issue.message;
  }
  return out;
}
