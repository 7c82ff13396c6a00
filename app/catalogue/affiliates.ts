/** Days of history the affiliate dashboard's chart covers (UTC days, today included). */
export const DASHBOARD_DAYS = 30;
