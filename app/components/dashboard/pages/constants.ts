/** Shared by the dashboard pages (client) and their server modules. */
export const TICKET_CATEGORIES = ["Billing", "Technical", "Account", "Other"] as const;
export type TicketCategory = (typeof TICKET_CATEGORIES)[number];

/** How many days of activity /dashboard/analytics charts. */
export const ANALYTICS_DAYS = 30;
