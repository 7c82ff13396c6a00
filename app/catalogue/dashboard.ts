/** Shared by the dashboard pages (client) and their server modules. */
export const TICKET_CATEGORIES = ["Billing", "Technical", "Account", "Other"] as const;

/** How many days of activity /dashboard/analytics charts. */
export const ANALYTICS_DAYS = 30;

/** How /dashboard/analytics names each kind of activity event in its chart and table. */
const ACTIVITY_LABELS: Record<string, string> = {
  dashboard_visit: "Dashboard visit",
  trial_started: "Trial started",
  onboarding_call_scheduled: "Onboarding call scheduled",
  ticket_opened: "Ticket opened",
};

/** A kind's label; an unknown kind reads as its words ('some_kind' -> 'Some kind'). */
export function activityLabel(kind: string): string {
  const words = kind.replaceAll("_", " ");
  return ACTIVITY_LABELS[kind] ?? words.charAt(0).toUpperCase() + words.slice(1);
}
