/** Dashboard navigation and sidebar rules (spec sections 2 'Dashboard shell', 4 'Sidebar', 9). */

export interface NavItem {
  to: string;
  label: string;
  icon: "overview" | "billing" | "addons" | "scaling" | "onboarding" | "profile" | "analytics" | "settings" | "support";
}

export const MAIN_MENU: readonly NavItem[] = [
  { to: "/dashboard", label: "Overview & Analytics", icon: "overview" },
  { to: "/dashboard/billing", label: "Subscription & Billing", icon: "billing" },
  { to: "/dashboard/addons", label: "Add-Ons Marketplace", icon: "addons" },
  { to: "/dashboard/scaling", label: "Scaling Plans", icon: "scaling" },
  { to: "/dashboard/onboarding", label: "Onboarding Tracker", icon: "onboarding" },
  { to: "/dashboard/profile", label: "Profile", icon: "profile" },
];

export const SUPPORT_MENU: readonly NavItem[] = [
  { to: "/dashboard/analytics", label: "Analytics", icon: "analytics" },
  { to: "/dashboard/settings", label: "Settings", icon: "settings" },
  { to: "/dashboard/support", label: "Support", icon: "support" },
];

/**
 * Spec rule: an item is active when the path equals it or starts with it plus '/'. Taken literally
 * '/dashboard' would be active on every dashboard page, so the overview matches only exactly.
 */
export function isNavItemActive(pathname: string, to: string): boolean {
  const path = pathname.length > 1 && pathname.endsWith("/") ? pathname.slice(0, -1) : pathname;
  if (to === "/dashboard") return path === "/dashboard";
  return path === to || path.startsWith(`${to}/`);
}

const SIDEBAR_COOKIE = "sidebar_state";
/** 7 days, in seconds. */
const SIDEBAR_COOKIE_MAX_AGE = 60 * 60 * 24 * 7;
export const SIDEBAR_SHORTCUT_KEY = "b";
export const MOBILE_BREAKPOINT_PX = 768;

/** The sidebar's open state from a Cookie header: open unless the cookie says 'false'. */
export function readSidebarOpen(cookieHeader: string | null | undefined, fallback = true): boolean {
  if (!cookieHeader) return fallback;
  for (const part of cookieHeader.split(";")) {
    const [name, ...rest] = part.trim().split("=");
    if (name === SIDEBAR_COOKIE) return rest.join("=").trim() !== "false";
  }
  return fallback;
}

/** The cookie string the browser stores when the sidebar is toggled. */
export function sidebarCookie(open: boolean): string {
  return `${SIDEBAR_COOKIE}=${open}; path=/; max-age=${SIDEBAR_COOKIE_MAX_AGE}; SameSite=Lax`;
}

/** Avatar initials: the first two letters of the email, upper case. */
export function emailInitials(email: string): string {
  return email.slice(0, 2).toUpperCase();
}

/** The part of the email before the @. */
export function emailName(email: string): string {
  const at = email.indexOf("@");
  return at === -1 ? email : email.slice(0, at);
}

/** The greeting name: the first name when set, else the part of the email before the @. */
export function displayFirstName(firstName: string | null | undefined, email: string): string {
  return firstName?.trim() || emailName(email);
}

/** The success toasts a redirect can ask for with `?toast=` (spec section 8). */
const TOAST_MESSAGES = {
  "welcome-back": "Welcome back!",
  "account-created": "Account Created!",
  "trial-started": "Trial Started!",
} as const;
type ToastKey = keyof typeof TOAST_MESSAGES;

export function toastMessage(key: string | null): string | null {
  return key && Object.hasOwn(TOAST_MESSAGES, key) ? TOAST_MESSAGES[key as ToastKey] : null;
}
