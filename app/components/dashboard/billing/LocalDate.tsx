import { formatInZone } from "~/lib/time-zone";
import { useShownTimeZone } from "~/lib/time-zone-context";

/**
 * A date (or date and time, with its zone's name) in the customer's own time zone: the account's,
 * given by the dashboard, which the server and the browser print alike. Where no page gives one, the
 * first render (the server's, and hydration's) is in UTC and says so for a time; once hydrated the
 * browser's zone is used. `dateTime` keeps the exact instant for machines.
 */
export function LocalDate({ iso, withTime = false, testId }: { iso: string; withTime?: boolean; testId?: string }) {
  const timeZone = useShownTimeZone();
  return (
    <time dateTime={iso} data-testid={testId}>
      {formatInZone(new Date(iso), timeZone, withTime ? "date-time" : "date")}
    </time>
  );
}
