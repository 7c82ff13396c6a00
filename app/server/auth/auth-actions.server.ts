import { data, redirect } from "react-router";
import { z } from "zod";
import { INVALID_CHARACTERS, noControlChars } from "~/lib/text";
import { AUTH_TEXT, TWO_FACTOR_TEXT } from "~/lib/auth-messages";
import { env } from "../env.server";
import { log } from "../log.server";
import { CLIENT_IP_HEADER } from "../http/client-ip.server";
import { auth } from "./auth.server";
import { safeNext } from "./session.server";

const MIN_PASSWORD = 8;
const MAX_PASSWORD = 128;

/** Headers of the browser's request that Better Auth needs: session, CSRF origin, rate-limit key. */
const FORWARDED_HEADERS = ["cookie", "origin", CLIENT_IP_HEADER, "user-agent"] as const;

export interface AuthCallResult {
  status: number;
  /** The parsed JSON body, or null when the body was empty or not JSON. */
  body: Record<string, unknown> | null;
  /** Every Set-Cookie header of Better Auth's answer, to be copied onto our own response. */
  setCookies: string[];
}

/**
 * Calls a Better Auth endpoint THROUGH ITS HTTP HANDLER (not `auth().api`), so the per-IP rate
 * limits, the per-account throttle hooks and the origin checks apply exactly as they do to a
 * direct /api/auth request.
 */
export async function callAuth(request: Request, path: string, body: unknown): Promise<AuthCallResult> {
  const headers = new Headers({ "content-type": "application/json" });
  for (const name of FORWARDED_HEADERS) {
    const value = request.headers.get(name);
    if (value !== null) headers.set(name, value);
  }
  const forwarded = new Request(new URL(`/api/auth${path}`, request.url), {
    method: "POST",
    headers,
    body: JSON.stringify(body),
  });
  const response = await auth().handler(forwarded);
  const text = await response.text();
  let parsed: Record<string, unknown> | null = null;
  try {
    const value: unknown = text ? JSON.parse(text) : null;
    if (value && typeof value === "object") parsed = value as Record<string, unknown>;
  } catch {
    parsed = null;
  }
  return { status: response.status, body: parsed, setCookies: response.headers.getSetCookie() };
}

/** Headers carrying every cookie Better Auth set, for a redirect or data response. */
export function cookieHeaders(setCookies: string[]): Headers {
  const headers = new Headers();
  for (const cookie of setCookies) headers.append("set-cookie", cookie);
  return headers;
}

/** Better Auth's machine-readable error code (e.g. EMAIL_NOT_VERIFIED), if any. */
export function errorCode(result: AuthCallResult): string | undefined {
  const code = result.body?.code;
  return typeof code === "string" ? code : undefined;
}

// ---------------------------------------------------------------------------------------------
// The /auth route's form action.

const email = z
  .string({ error: "Email is required" })
  .trim()
  .min(1, "Email is required")
  .max(254, "Email is too long")
  .pipe(z.email("Enter a valid email address"));
const name = z.string().trim().max(100, "At most 100 characters").refine(noControlChars, INVALID_CHARACTERS).optional();
const newPassword = z
  .string({ error: "Password is required" })
  .min(MIN_PASSWORD, `Password must be at least ${MIN_PASSWORD} characters`)
  .max(MAX_PASSWORD, `Password must be at most ${MAX_PASSWORD} characters`);
const next = z.string().max(2048).optional();

/** One strict schema per intent: unknown fields, files and oversize values are a 400, never a 500. */
const formSchema = z.discriminatedUnion("intent", [
  z.strictObject({
    intent: z.literal("signin"),
    next,
    email,
    // Sign-in checks only presence: the stored hash decides; oversize values are still refused.
    password: z.string({ error: "Password is required" }).min(1, "Password is required").max(1024, "Password is too long"),
  }),
  z.strictObject({
    intent: z.literal("signup"),
    next,
    email,
    password: newPassword,
    firstName: name,
    lastName: name,
    companyName: name,
  }),
  z.strictObject({ intent: z.literal("forgot"), email }),
  z.strictObject({ intent: z.literal("reset"), token: z.string().min(1).max(512), password: newPassword }),
  z.strictObject({ intent: z.literal("google"), next }),
  z.strictObject({
    intent: z.literal("two-factor"),
    next,
    // A TOTP code (6 digits) or a recovery code (xxxxx-xxxxx); spaces from a copied code are dropped.
    code: z
      .string({ error: TWO_FACTOR_TEXT.codeRequired })
      .transform((v) => v.replace(/\s+/g, ""))
      .pipe(z.string().min(1, TWO_FACTOR_TEXT.codeRequired).max(32, TWO_FACTOR_TEXT.codeWrong)),
  }),
]);

export type AuthIntent = "signin" | "signup" | "forgot" | "reset" | "google" | "two-factor" | "unknown";

/** What the page renders after a submission (never secrets; email only to refill the form). */
export interface AuthActionResult {
  intent: AuthIntent;
  ok: boolean;
  /** The text of the red alert (failure) or of the confirmation (success). */
  message: string;
  toast?: { kind: "success" | "error"; title: string; description?: string };
  fieldErrors?: Partial<Record<"email" | "password" | "firstName" | "lastName" | "companyName" | "code", string>>;
  values?: { email?: string; firstName?: string; lastName?: string; companyName?: string };
  /** After sign-up: the page the verification link opens ("dashboard", or the page the visitor came from). */
  returnsTo?: "dashboard" | "page";
}

const MAX_FORM_BYTES = 16 * 1024;
const RESET_CALLBACK = "/auth?tab=reset";

const failureToast = (intent: AuthIntent, description: string): AuthActionResult["toast"] => {
  const title =
    intent === "signup"
      ? AUTH_TEXT.signUpFailedToast
      : intent === "google"
        ? AUTH_TEXT.googleFailedToast
        : intent === "signin"
          ? AUTH_TEXT.signInFailedToast
          : undefined;
  return title ? { kind: "error", title, description } : undefined;
};

function fail(status: number, intent: AuthIntent, message: string, extra: Partial<AuthActionResult> = {}) {
  return data<AuthActionResult>({ intent, ok: false, message, toast: failureToast(intent, message), ...extra }, { status });
}

function withToast(path: string, key: string) {
  return `${path}${path.includes("?") ? "&" : "?"}toast=${key}`;
}

/**
 * Where a sign-in lands: the page it was asked for (`next`), with its toast where a page shows it
 * (the dashboard); another page, such as /apps after a signed-out trial click, gets its own address
 * back unchanged.
 */
function afterSignIn(next: string | undefined, toastKey: "welcome-back" | "account-created") {
  const target = safeNext(next);
  return target === "/dashboard" || target.startsWith("/dashboard/") || target.startsWith("/dashboard?")
    ? withToast(target, toastKey)
    : target;
}

/** The sign-in's second step: the same page, asking for a code. */
function twoFactorStep(next: string | undefined) {
  const params = new URLSearchParams({ tab: "signin", step: "code" });
  if (next) params.set("next", safeNext(next));
  return `/auth?${params.toString()}`;
}

/** Back to the password step, saying why. */
function signInAgain(next: string | undefined) {
  const params = new URLSearchParams({ tab: "signin", "two-factor": "expired" });
  if (next) params.set("next", safeNext(next));
  return `/auth?${params.toString()}`;
}

function returnsTo(next: string | undefined): "dashboard" | "page" {
  const target = safeNext(next);
  return target === "/dashboard" || target.startsWith("/dashboard?") ? "dashboard" : "page";
}

/** The text for a rate-limited answer: the per-account throttle says so, the per-IP one asks for a minute. */
export function tooManyMessage(result: Pick<AuthCallResult, "body">) {
  const message = typeof result.body?.message === "string" ? result.body.message : "";
  return /account/i.test(message) ? message : AUTH_TEXT.tooManyAttempts;
}

/**
 * Validates the /auth form and forwards it to Better Auth's HTTP handler. Returns a redirect
 * (carrying Better Auth's cookies) on sign-in, or data for the page with a matching status.
 */
export async function handleAuthAction(request: Request) {
  if (Number(request.headers.get("content-length") ?? 0) > MAX_FORM_BYTES) {
    return fail(413, "unknown", AUTH_TEXT.unreadableForm);
  }
  let entries: Record<string, FormDataEntryValue>;
  try {
    entries = Object.fromEntries(await request.formData());
  } catch {
    return fail(400, "unknown", AUTH_TEXT.unreadableForm);
  }
  const intentValue = entries.intent;
  const intent: AuthIntent =
    (["signin", "signup", "forgot", "reset", "google", "two-factor"] as const).find((i) => i === intentValue) ?? "unknown";
  const values = {
    email: typeof entries.email === "string" ? entries.email.slice(0, 254) : undefined,
    firstName: typeof entries.firstName === "string" ? entries.firstName.slice(0, 100) : undefined,
    lastName: typeof entries.lastName === "string" ? entries.lastName.slice(0, 100) : undefined,
    companyName: typeof entries.companyName === "string" ? entries.companyName.slice(0, 100) : undefined,
  };

  const parsed = formSchema.safeParse(entries);
  if (!parsed.success) {
    const fieldErrors: AuthActionResult["fieldErrors"] = {};
    const known = ["email", "password", "firstName", "lastName", "companyName", "code"] as const;
    for (const issue of parsed.error.issues) {
      const field = known.find((k) => k === issue.path[0]);
      if (field && !fieldErrors[field]) fieldErrors[field] = issue.message;
    }
    const message = Object.keys(fieldErrors).length ? AUTH_TEXT.checkFields : AUTH_TEXT.unreadableForm;
    return fail(400, intent, message, { fieldErrors, values });
  }
  const form = parsed.data;

  switch (form.intent) {
    case "signin": {
      const result = await callAuth(request, "/sign-in/email", {
        email: form.email,
        password: form.password,
        // Where the link of the verification email Better Auth sends an unverified account lands
        // (its default is the home page): the page the customer was signing in for.
        callbackURL: afterSignIn(form.next, "account-created"),
      });
      // An account with two-factor authentication: Better Auth opened no session but a short-lived
      // challenge (its cookie); the second step asks for a code (docs/decisions/0073-two-factor.md).
      if (result.status === 200 && result.body?.twoFactorRedirect === true) {
        return redirect(twoFactorStep(form.next), { headers: cookieHeaders(result.setCookies) });
      }
      if (result.status === 200) {
        return redirect(afterSignIn(form.next, "welcome-back"), { headers: cookieHeaders(result.setCookies) });
      }
      const keep = { values: { email: values.email } };
      if (result.status === 429) return fail(429, "signin", tooManyMessage(result), keep);
      if (result.status === 403 && errorCode(result) === "EMAIL_NOT_VERIFIED") {
        return fail(403, "signin", AUTH_TEXT.emailNotVerified, keep);
      }
      if (result.status >= 500) return fail(502, "signin", AUTH_TEXT.generic, keep);
      // Any other 403 (an origin or callback URL refused) came before the password was looked at:
      // it says nothing about the password, so the form does not call it wrong.
      if (result.status === 403) {
        log.warn("sign-in refused before the password check", { code: errorCode(result) ?? null });
        return fail(403, "signin", AUTH_TEXT.generic, keep);
      }
      // One message for an unknown email and a wrong password (no account enumeration).
      return fail(401, "signin", AUTH_TEXT.invalidCredentials, keep);
    }
    case "signup": {
      const result = await callAuth(request, "/sign-up/email", {
        email: form.email,
        password: form.password,
        name: [form.firstName, form.lastName].filter(Boolean).join(" ") || form.email,
        firstName: form.firstName || undefined,
        lastName: form.lastName || undefined,
        companyName: form.companyName || undefined,
        // The verification link signs the new customer in and brings them back to the page they
        // signed up from (a trial or buy button's `next`, with its choices), else the dashboard.
        callbackURL: afterSignIn(form.next, "account-created"),
      });
      if (result.status === 429) return fail(429, "signup", tooManyMessage(result), { values });
      if (result.status >= 500) return fail(502, "signup", AUTH_TEXT.generic, { values });
      if (result.status !== 200) {
        const message = typeof result.body?.message === "string" ? result.body.message : AUTH_TEXT.generic;
        return fail(400, "signup", message, { values });
      }
      // New or already taken: the same answer (the owner of a taken address gets an email instead).
      return data<AuthActionResult>(
        {
          intent: "signup",
          ok: true,
          message: AUTH_TEXT.signUpSuccess,
          toast: { kind: "success", title: AUTH_TEXT.signUpSuccess },
          returnsTo: returnsTo(form.next),
        },
        { headers: cookieHeaders(result.setCookies) },
      );
    }
    case "forgot": {
      const result = await callAuth(request, "/request-password-reset", { email: form.email, redirectTo: RESET_CALLBACK });
      if (result.status === 429) return fail(429, "forgot", tooManyMessage(result), { values: { email: values.email } });
      if (result.status >= 500) return fail(502, "forgot", AUTH_TEXT.generic, { values: { email: values.email } });
      // Same answer whether or not the account exists.
      return data<AuthActionResult>({ intent: "forgot", ok: true, message: AUTH_TEXT.resetRequested });
    }
    case "reset": {
      const result = await callAuth(request, "/reset-password", { newPassword: form.password, token: form.token });
      if (result.status === 200) {
        // Better Auth revoked every session of the account: the customer signs in again.
        return redirect("/auth?tab=signin&reset=done", { headers: cookieHeaders(result.setCookies) });
      }
      if (result.status === 429) return fail(429, "reset", tooManyMessage(result));
      if (result.status >= 500) return fail(502, "reset", AUTH_TEXT.generic);
      return fail(400, "reset", AUTH_TEXT.resetLinkInvalid);
    }
    case "two-factor": {
      // Six digits are an authenticator's code; anything else is tried as a recovery code (each works once).
      const path = /^\d{6}$/.test(form.code) ? "/two-factor/verify-totp" : "/two-factor/verify-backup-code";
      const result = await callAuth(request, path, { code: form.code });
      if (result.status === 200) {
        return redirect(afterSignIn(form.next, "welcome-back"), { headers: cookieHeaders(result.setCookies) });
      }
      const headers = cookieHeaders(result.setCookies);
      const code = errorCode(result);
      if (result.status === 429) return fail(429, "two-factor", tooManyMessage(result));
      if (result.status >= 500) return fail(502, "two-factor", AUTH_TEXT.generic);
      // The challenge is gone (expired, used up, or never there): the password step again.
      if (code === "INVALID_TWO_FACTOR_COOKIE" || code === "TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE") {
        throw redirect(signInAgain(form.next), { headers });
      }
      return data<AuthActionResult>(
        {
          intent: "two-factor",
          ok: false,
          message: TWO_FACTOR_TEXT.codeWrong,
          fieldErrors: { code: TWO_FACTOR_TEXT.codeWrong },
        },
        { status: 401, headers },
      );
    }
    case "google": {
      if (!env().GOOGLE_ENABLED) return fail(400, "google", AUTH_TEXT.googleNotConfigured);
      const result = await callAuth(request, "/sign-in/social", {
        provider: "google",
        callbackURL: afterSignIn(form.next, "welcome-back"),
        errorCallbackURL: "/auth?tab=signin&error=google",
      });
      const url = typeof result.body?.url === "string" ? result.body.url : null;
      if (result.status === 429) return fail(429, "google", tooManyMessage(result));
      if (result.status !== 200 || !url) return fail(502, "google", AUTH_TEXT.googleFailed);
      // The state cookie Better Auth set must travel with the redirect for the callback to verify it.
      return redirect(url, { headers: cookieHeaders(result.setCookies) });
    }
  }
}
