import { useHydrated } from "~/lib/use-hydrated";

const formats = new Map<string, Intl.DateTimeFormat>();

function formatter(withTime: boolean, timeZone: string | undefined): Intl.DateTimeFormat {
  const key = `${withTime}|${timeZone ?? ""}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", ...(withTime ? { timeStyle: "short" } : {}), timeZone });
    formats.set(key, format);
  }
  return format;
}

/** The browser's time zone as a short name ("EST", "GMT+1"), for a time that says which zone it is in. */
function zoneName(date: Date, timeZone: string | undefined): string {
  const part = new Intl.DateTimeFormat("en-US", { timeZone, timeZoneName: "short" })
    .formatToParts(date)
    .find((p) => p.type === "timeZoneName");
  return part?.value ?? "";
}

/**
 * A date (or date and time) in the customer's own time zone. The server does not know it, so the
 * first render (the server's, and hydration's, which must match it) is in UTC and says so for a
 * time; once hydrated the browser's zone is used. `dateTime` keeps the exact instant for machines.
 */
export function LocalDate({ iso, withTime = false, testId }: { iso: string; withTime?: boolean; testId?: string }) {
  const hydrated = useHydrated();
  const date = new Date(iso);
  const timeZone = hydrated ? undefined : "UTC";
  const text = formatter(withTime, timeZone).format(date);
  return (
    <time dateTime={iso} data-testid={testId}>
      {withTime ? `${text} ${zoneName(date, timeZone)}` : text}
    </time>
  );
}
