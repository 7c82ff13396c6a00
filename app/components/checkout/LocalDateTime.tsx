import { useSyncExternalStore } from "react";

const FIELDS: Intl.DateTimeFormatOptions = {
  weekday: "short",
  year: "numeric",
  month: "short",
  day: "numeric",
  hour: "numeric",
  minute: "2-digit",
  timeZoneName: "short",
};

const noSubscription = () => () => {};

const utc = new Intl.DateTimeFormat("en-US", { ...FIELDS, timeZone: "UTC" });

/**
 * A moment in the viewer's time zone: the server renders it in UTC (it does not know the zone, and the
 * first paint must match the hydrated one), then the browser rewrites it in its own zone. Both say
 * which zone they are in, so neither is ever ambiguous.
 */
export function LocalDateTime({ iso, testId }: { iso: string; testId?: string }) {
  const inBrowser = useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
  const text = (inBrowser ? new Intl.DateTimeFormat("en-US", FIELDS) : utc).format(new Date(iso));
  return (
    <time dateTime={iso} data-testid={testId}>
      {text}
    </time>
  );
}
