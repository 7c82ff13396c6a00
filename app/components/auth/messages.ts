/** Every text /auth shows (spec sections 4, 5 and 8), shared by the action and the page. */
export const AUTH_TEXT = {
  signInFailedToast: "Sign In Failed",
  signUpFailedToast: "Sign Up Failed",
  googleFailedToast: "Google Sign In Failed",
  invalidCredentials: "Invalid email or password",
  emailNotVerified: "Please verify your email address. We've sent you a new link.",
  tooManyAttempts: "Too many attempts. Please wait a minute and try again.",
  signUpSuccess: "Account created successfully! Please check your email to verify your account.",
  googleNotConfigured: "Google sign-in is not configured on this server.",
  googleFailed: "Google sign-in did not complete. Please try again.",
  resetRequested: "If an account exists for that email, we've sent a reset link.",
  passwordUpdated: "Password updated. Please sign in.",
  // /auth?reason=trial: where a signed-out "Start 3-Day Trial" on /apps leads (spec section 8's text).
  signInForTrial: "Please sign in to start your free trial.",
  resetLinkInvalid: "This reset link is invalid or has expired. Please request a new one.",
  generic: "Something went wrong. Please try again.",
  unreadableForm: "The form could not be read. Please try again.",
  checkFields: "Please check the highlighted fields.",
} as const;

/** `/auth?reason=` of a signed-out trial click (app/components/apps/trial-sign-in.tsx). */
export const SIGN_IN_REASON_TRIAL = "trial";

/** The note above the Sign In form that its address asks for, if any. */
export function signInNote(params: URLSearchParams): string | null {
  if (params.get("reset") === "done") return AUTH_TEXT.passwordUpdated;
  if (params.get("reason") === SIGN_IN_REASON_TRIAL) return AUTH_TEXT.signInForTrial;
  return null;
}

export type AuthTab = "signin" | "signup" | "reset";

export function parseTab(value: string | null): AuthTab {
  return value === "signup" || value === "reset" ? value : "signin";
}
