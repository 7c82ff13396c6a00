import { data, redirect } from "react-router";
import { z } from "zod";
import { AFFILIATE_TEXT, type AffiliateField } from "~/lib/affiliate-messages";
import { newUsernameError, normalizeUsername } from "~/catalogue/username";
import { INVALID_CHARACTERS, noControlChars } from "~/lib/text";
import { callAuth, cookieHeaders } from "../auth/auth-actions.server";
import type { SessionUser } from "../auth/session.server";
import type { Db } from "../db/client.server";
import { log } from "../log.server";
import { AFFILIATE_DASHBOARD, createAffiliate, isUsernameTaken, pickDefaultUsername } from "./affiliates.server";

/**
 * /affiliate-signup (docs/decisions/0011-affiliates.md). A visitor creates an account through Better
 * Auth's sign-up exactly like /auth (verification required, no enumeration); the chosen username
 * travels in the verification link's callback URL and the affiliates row is created when the link is
 * opened (`completeAffiliateFromVerification` in affiliates.server.ts), so nothing observable depends on whether the email
 * was already registered. A signed-in user without an affiliate row just picks a username.
 */
const MIN_PASSWORD = 8;
const MAX_PASSWORD = 128;
const MAX_FORM_BYTES = 16 * 1024;

const name = (label: string) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(100, "At most 100 characters")
    .refine(noControlChars, INVALID_CHARACTERS);
// NUL and other control characters are refused here, not by PostgreSQL (a NUL there is a 500).
const optionalText = z.string().trim().max(100, "At most 100 characters").refine(noControlChars, INVALID_CHARACTERS).optional();
const usernameField = z
  .string()
  .trim()
  .max(60, "Username must be at most 30 characters")
  .optional()
  .superRefine((value, ctx) => {
    const message = value ? newUsernameError(normalizeUsername(value)) : null;
    if (message) ctx.addIssue({ code: "custom", message });
  });

const formSchema = z.discriminatedUnion("intent", [
  z.strictObject({
    intent: z.literal("signup"),
    firstName: name("First name"),
    lastName: name("Last name"),
    email: z
      .string({ error: "Email is required" })
      .trim()
      .min(1, "Email is required")
      .max(254, "Email is too long")
      .pipe(z.email("Enter a valid email address")),
    password: z
      .string({ error: "Password is required" })
      .min(MIN_PASSWORD, `Password must be at least ${MIN_PASSWORD} characters`)
      .max(MAX_PASSWORD, `Password must be at most ${MAX_PASSWORD} characters`),
    businessName: optionalText,
    username: usernameField,
  }),
  z.strictObject({ intent: z.literal("join"), businessName: optionalText, username: usernameField }),
]);

export interface AffiliateActionResult {
  intent: "signup" | "join" | "unknown";
  ok: boolean;
  message: string;
  toast?: { kind: "success" | "error"; title: string; description?: string };
  fieldErrors?: Partial<Record<AffiliateField, string>>;
  values?: Partial<Record<Exclude<AffiliateField, "password">, string>>;
}

function fail(
  status: number,
  intent: AffiliateActionResult["intent"],
  message: string,
  extra: Partial<AffiliateActionResult> = {},
) {
  // Spec section 8: toast 'Signup failed' with the error message (or the generic text).
  return data<AffiliateActionResult>(
    {
      intent,
      ok: false,
      message,
      toast: {
        kind: "error",
        title: AFFILIATE_TEXT.signupFailedToast,
        description: message || AFFILIATE_TEXT.signupFailedGeneric,
      },
      ...extra,
    },
    { status },
  );
}

/** A single field's error: shown beside the field, named in the toast; the alert points to the field. */
function fieldFail(
  intent: AffiliateActionResult["intent"],
  field: AffiliateField,
  message: string,
  values: AffiliateActionResult["values"],
) {
  return fail(400, intent, AFFILIATE_TEXT.checkFields, {
    fieldErrors: { [field]: message },
    values,
    toast: { kind: "error", title: AFFILIATE_TEXT.signupFailedToast, description: message },
  });
}

/** The verification link's landing page, carrying the username chosen on the form. */
function affiliateCallbackUrl(username: string): string {
  return `${AFFILIATE_DASHBOARD}?toast=account-created&username=${encodeURIComponent(username)}`;
}

/** Resolves the username a form asked for: the typed one (validated, free) or a free default. */
async function resolveUsername(
  db: Db,
  typed: string | undefined,
  names: { firstName?: string | null; lastName?: string | null },
): Promise<{ username: string } | { error: string }> {
  if (typed) {
    const username = normalizeUsername(typed);
    const message = newUsernameError(username);
    if (message) return { error: message };
    if (await isUsernameTaken(db, username)) return { error: AFFILIATE_TEXT.usernameTaken };
    return { username };
  }
  return { username: await pickDefaultUsername(db, names.firstName, names.lastName) };
}

export async function handleAffiliateAction(db: Db, request: Request, user: SessionUser | null) {
  if (Number(request.headers.get("content-length") ?? 0) > MAX_FORM_BYTES) {
    return fail(413, "unknown", AFFILIATE_TEXT.unreadableForm);
  }
  let entries: Record<string, FormDataEntryValue>;
  try {
    entries = Object.fromEntries(await request.formData());
  } catch {
    return fail(400, "unknown", AFFILIATE_TEXT.unreadableForm);
  }
  const text = (key: string) => (typeof entries[key] === "string" ? (entries[key] as string).slice(0, 254) : undefined);
  const values: AffiliateActionResult["values"] = {
    firstName: text("firstName"),
    lastName: text("lastName"),
    email: text("email"),
    businessName: text("businessName"),
    username: text("username"),
  };
  const intent = entries.intent === "signup" || entries.intent === "join" ? entries.intent : "unknown";
  const parsed = formSchema.safeParse(entries);
  if (!parsed.success) {
    const fieldErrors: AffiliateActionResult["fieldErrors"] = {};
    const known = ["firstName", "lastName", "email", "password", "businessName", "username"] as const;
    for (const issue of parsed.error.issues) {
      const field = known.find((k) => k === issue.path[0]);
      if (field && !fieldErrors[field]) fieldErrors[field] = issue.message;
    }
    const first = Object.values(fieldErrors)[0];
    if (!first) return fail(400, intent, AFFILIATE_TEXT.unreadableForm, { values });
    return fail(400, intent, AFFILIATE_TEXT.checkFields, {
      fieldErrors,
      values,
      toast: { kind: "error", title: AFFILIATE_TEXT.signupFailedToast, description: first },
    });
  }
  const form = parsed.data;

  if (form.intent === "join") {
    // Becoming an affiliate needs an account; a signed-out join is a stale form.
    if (!user) throw redirect(`/auth?next=${encodeURIComponent("/affiliate-signup")}`);
    const resolved = await resolveUsername(db, form.username, user);
    if ("error" in resolved) return fieldFail("join", "username", resolved.error, values);
    const created = await createAffiliate(db, user.id, { username: resolved.username, businessName: form.businessName });
    if (created.ok || created.reason === "already_affiliate") throw redirect(`${AFFILIATE_DASHBOARD}?toast=joined`);
    const message = created.reason === "invalid" ? created.message : AFFILIATE_TEXT.usernameTaken;
    return fieldFail("join", "username", message, values);
  }

  // A signed-in visitor submitting the full form (e.g. from another tab): nothing to create.
  if (user) throw redirect(AFFILIATE_DASHBOARD);
  const resolved = await resolveUsername(db, form.username, form);
  if ("error" in resolved) return fieldFail("signup", "username", resolved.error, values);
  const result = await callAuth(request, "/sign-up/email", {
    email: form.email,
    password: form.password,
    name: `${form.firstName} ${form.lastName}`,
    firstName: form.firstName,
    lastName: form.lastName,
    companyName: form.businessName || undefined,
    callbackURL: affiliateCallbackUrl(resolved.username),
  });
  if (result.status === 429) return fail(429, "signup", AFFILIATE_TEXT.tooManyAttempts, { values });
  if (result.status !== 200) {
    const message =
      result.status < 500 && typeof result.body?.message === "string" ? result.body.message : AFFILIATE_TEXT.signupFailedGeneric;
    if (result.status >= 500) log.error("affiliate sign-up failed", { status: result.status });
    return fail(result.status >= 500 ? 502 : 400, "signup", message, { values });
  }
  // New or already registered email: the same answer (the owner of a taken address gets an email).
  return data<AffiliateActionResult>(
    {
      intent: "signup",
      ok: true,
      message: AFFILIATE_TEXT.checkEmail,
      toast: { kind: "success", title: AFFILIATE_TEXT.checkEmail },
      values: { username: resolved.username },
    },
    { headers: cookieHeaders(result.setCookies) },
  );
}
