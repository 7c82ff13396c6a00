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
  // The dashboard's sign-in reasons (spec sections 5 and 8).
  authRequired: "Authentication Required",
  signInForDashboardTrial: "Please sign in to start your trial.",
  signInForAddons: "Please sign in to add add-ons",
  signInForUpgrade: "Please sign in to upgrade your plan",
  resetLinkInvalid: "This reset link is invalid or has expired. Please request a new one.",
  generic: "Something went wrong. Please try again.",
  unreadableForm: "The form could not be read. Please try again.",
  checkFields: "Please check the highlighted fields.",
} as const;

/** The sign-in's second step and the Settings card (docs/decisions/0073-two-factor.md). */
export const TWO_FACTOR_TEXT = {
  stepTitle: "Two-factor authentication",
  stepDescription: "Enter the 6-digit code from your authenticator app, or one of your recovery codes.",
  codeRequired: "Enter the code from your authenticator app",
  codeWrong: "That code is not valid. Check your authenticator app and try again.",
  expired: "Your sign-in timed out or had too many wrong codes. Enter your password again.",
} as const;

export interface SignInNote {
  title?: string;
  message: string;
}

/**
 * `/auth?reason=` codes and the one note each shows. The address only picks an entry: /auth never
 * shows text taken from the URL, so a crafted link cannot put its own words on the sign-in page.
 */
const SIGN_IN_REASONS = {
  // A signed-out trial click on /apps (app/components/apps/trial-sign-in.tsx).
  trial: { message: AUTH_TEXT.signInForTrial },
  // The dashboard's trial chooser posted by a session that has ended.
  "dashboard-trial": { title: AUTH_TEXT.authRequired, message: AUTH_TEXT.signInForDashboardTrial },
  addons: { message: AUTH_TEXT.signInForAddons },
  upgrade: { message: AUTH_TEXT.signInForUpgrade },
} as const satisfies Record<string, SignInNote>;

export type SignInReason = keyof typeof SIGN_IN_REASONS;

export const SIGN_IN_REASON_TRIAL = "trial" satisfies SignInReason;

// Own keys only: `?reason=constructor` must not find Object.prototype's members.
const isSignInReason = (value: string | null): value is SignInReason => value !== null && Object.hasOwn(SIGN_IN_REASONS, value);

/**
 * The sign-in page, coming back to `next` (a same-site path). `next` comes first: the redirect
 * checks (tests/e2e/access-control.spec.ts) recognise a sign-in redirect by `/auth?next=`.
 */
export function signInPath(next: string, reason?: SignInReason | null): string {
  return `/auth?next=${encodeURIComponent(next)}${reason ? `&reason=${reason}` : ""}`;
}

/** The note above the Sign In form that its address asks for, if any. */
export function signInNote(params: URLSearchParams): SignInNote | null {
  if (params.get("reset") === "done") return { message: AUTH_TEXT.passwordUpdated };
  if (params.get("two-factor") === "expired") return { message: TWO_FACTOR_TEXT.expired };
  const reason = params.get("reason");
  return isSignInReason(reason) ? SIGN_IN_REASONS[reason] : null;
}

export type AuthTab = "signin" | "signup" | "reset";

export function parseTab(value: string | null): AuthTab {
  return value === "signup" || value === "reset" ? value : "signin";
}
