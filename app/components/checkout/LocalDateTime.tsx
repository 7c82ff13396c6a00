import { useContext, useSyncExternalStore } from "react";
import { TimeZoneContext } from "~/lib/time-zone-context";

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
 * A moment in the viewer's time zone: the account's when the page gives it (the dashboard; the same
 * text on the server and in the browser). Otherwise the server renders it in UTC (the first paint
 * must match the hydrated one), then the browser rewrites it in its own zone. Every reading says
 * which zone it is in, so none is ever ambiguous.
 */
export function LocalDateTime({ iso, testId }: { iso: string; testId?: string }) {
  const account = useContext(TimeZoneContext);
  const inBrowser = useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
  const format = account
    ? new Intl.DateTimeFormat("en-US", { ...FIELDS, timeZone: account })
    : inBrowser
      ? new Intl.DateTimeFormat("en-US", FIELDS)
      : utc;
  const text = format.format(new Date(iso));
  return (
    <time dateTime={iso} data-testid={testId}>
      {text}
    </time>
  );
}
