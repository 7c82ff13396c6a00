import { z } from "zod";
import { INVALID_CHARACTERS, noControlChars } from "~/lib/text";
import { USER_FIELD_LIMITS } from "../auth/auth-input.server";

// Optional, as on sign-up (spec section 5): an account made without names can still save its company.
const name = (label: string) =>
  z.string().trim().max(60, `${label} must be at most 60 characters`).refine(noControlChars, INVALID_CHARACTERS);

export const profileInput = z.object({
  firstName: name("First name"),
  lastName: name("Last name"),
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
