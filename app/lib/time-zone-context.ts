import { createContext, useContext } from "react";
import { FALLBACK_TIME_ZONE } from "./time-zone";
import { useHydrated } from "./use-hydrated";

/**
 * The account's time zone, from the dashboard layout's loader (stored with the account, else the
 * browser's cookie), so the server's render and the browser's hydration print the same text. Null
 * when neither is known yet, and outside the dashboard.
 */
export const TimeZoneContext = createContext<string | null>(null);

/**
 * The zone to show a time in: the account's when the page knows it; otherwise UTC for the server's
 * render and hydration (which must match it), then the browser's own zone.
 */
export function useShownTimeZone(): string {
  const known = useContext(TimeZoneContext);
  const hydrated = useHydrated();
  if (known) return known;
  return hydrated ? new Intl.DateTimeFormat().resolvedOptions().timeZone : FALLBACK_TIME_ZONE;
}
