/**
 * The customer's time zone (docs/decisions/0061-customer-time-zone.md): IANA names checked with Intl,
 * times formatted in a named zone, and a wall-clock time in a zone turned into an instant. Pure and
 * shared by server and browser, so both render the same text and hydration matches.
 */

/** The cookie the page sets with the browser's zone, read when an account is created or first opens the dashboard. */
const TIME_ZONE_COOKIE = "tz";
/** What a time is shown in when the customer's zone is not known (it says so: "UTC"). */
export const FALLBACK_TIME_ZONE = "UTC";

const NAME = /^[A-Za-z][A-Za-z0-9_+\-/]{0,63}$/;

/**
 * The canonical IANA name of `value` ("america/new_york" -> "America/New_York"), or null when Intl
 * does not know it. Only zone names: a bare offset ("+05:00") is refused, it has no daylight rules.
 */
export function canonicalTimeZone(value: unknown): string | null {
  if (typeof value !== "string" || !NAME.test(value)) return null;
  let resolved: string;
  try {
    resolved = new Intl.DateTimeFormat("en-US", { timeZone: value }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
  // The list's spelling when it has this zone: ICU resolves some current names to older ones
  // ("Asia/Kolkata" to "Asia/Calcutta"), which the list and the customer know by the new name.
  return listedSpelling().get(value.toLowerCase()) ?? resolved;
}

let listed: Map<string, string> | undefined;
function listedSpelling(): Map<string, string> {
  listed ??= new Map(timeZoneNames().map((n) => [n.toLowerCase(), n]));
  return listed;
}

/** Every zone this runtime knows, for the settings page's select (UTC first). */
export function timeZoneNames(): string[] {
  const names = typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone") : [];
  return [FALLBACK_TIME_ZONE, ...names.filter((n) => n !== FALLBACK_TIME_ZONE)];
}

/** The zone named by the `tz` cookie of a Cookie header, if it is one Intl knows. */
export function timeZoneFromCookie(cookieHeader: string | null | undefined): string | null {
  if (!cookieHeader) return null;
  for (const part of cookieHeader.split(";")) {
    const i = part.indexOf("=");
    if (i === -1 || part.slice(0, i).trim() !== TIME_ZONE_COOKIE) continue;
    try {
      return canonicalTimeZone(decodeURIComponent(part.slice(i + 1).trim()));
    } catch {
      return null;
    }
  }
  return null;
}

/** The customer's zone as far as the server knows it: the account's, else the browser's (its cookie). */
export function knownTimeZone(stored: string | null | undefined, cookieHeader: string | null | undefined): string | null {
  return canonicalTimeZone(stored) ?? timeZoneFromCookie(cookieHeader);
}

/**
 * In the browser, once the page runs: writes the browser's zone to the `tz` cookie when it is not
 * there yet (or the device moved), so the server learns it with the next request.
 */
export function writeBrowserTimeZone(): void {
  const zone = canonicalTimeZone(new Intl.DateTimeFormat().resolvedOptions().timeZone);
  if (zone && timeZoneFromCookie(document.cookie) !== zone) document.cookie = timeZoneCookie(zone);
}

/** The Set-Cookie value the page writes (a year; Lax; readable by the page, it holds nothing secret). */
export function timeZoneCookie(zone: string): string {
  return `${TIME_ZONE_COOKIE}=${encodeURIComponent(zone)}; Path=/; Max-Age=${365 * 24 * 60 * 60}; SameSite=Lax`;
}

const formats = new Map<string, Intl.DateTimeFormat>();
function format(options: Intl.DateTimeFormatOptions, timeZone: string): Intl.DateTimeFormat {
  const key = `${timeZone}|${JSON.stringify(options)}`;
  let f = formats.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", { ...options, timeZone });
    formats.set(key, f);
  }
  return f;
}

/** The zone's short name at that moment ("EST", "EDT", "GMT+1", "UTC"). */
export function zoneAbbreviation(date: Date, timeZone: string): string {
  return (
    format({ timeZoneName: "short" }, timeZone)
      .formatToParts(date)
      .find((p) => p.type === "timeZoneName")?.value ?? ""
  );
}

export type TimeStyle = "date" | "date-time" | "long";

const STYLES: Record<TimeStyle, Intl.DateTimeFormatOptions> = {
  date: { dateStyle: "medium" },
  "date-time": { dateStyle: "medium", timeStyle: "short" },
  long: { weekday: "long", month: "long", day: "numeric", year: "numeric", hour: "numeric", minute: "2-digit" },
};

/**
 * `date` as the customer reads it in `timeZone`: "Nov 28, 2026" for a date, with the time and the
 * zone's name for the others ("Nov 28, 2026, 2:00 PM EST"), so a time is never ambiguous.
 */
export function formatInZone(date: Date, timeZone: string, style: TimeStyle = "date-time"): string {
  const text = format(STYLES[style], timeZone).format(date);
  return style === "date" ? text : `${text} ${zoneAbbreviation(date, timeZone)}`;
}

interface WallTime {
  year: number;
  /** 1-12 */
  month: number;
  day: number;
  hour: number;
  minute: number;
}

/** The calendar date and clock time `date` shows in `timeZone`. */
export function wallTimeIn(date: Date, timeZone: string): WallTime {
  const parts = format(
    { year: "numeric", month: "numeric", day: "numeric", hour: "numeric", minute: "numeric", hourCycle: "h23" },
    timeZone,
  ).formatToParts(date);
  const get = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)?.value);
  return { year: get("year"), month: get("month"), day: get("day"), hour: get("hour") % 24, minute: get("minute") };
}

/** Minutes `timeZone` is ahead of UTC at `date`. */
function offsetMinutes(date: Date, timeZone: string): number {
  const w = wallTimeIn(date, timeZone);
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute);
  return Math.round((asUtc - Math.floor(date.getTime() / 60_000) * 60_000) / 60_000);
}

/**
 * The instant when the clocks of `timeZone` show `wall`. Two passes settle the offset across a
 * daylight-saving change; a time the spring change skips lands just after it (02:30 -> 03:30), one
 * the autumn change repeats is its first occurrence.
 */
export function instantOfWallTime(wall: WallTime, timeZone: string): Date {
  const guess = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute);
  const first = guess - offsetMinutes(new Date(guess), timeZone) * 60_000;
  const second = guess - offsetMinutes(new Date(first), timeZone) * 60_000;
  if (first === second) return new Date(first);
  // The offset differs either side: the earlier reading that shows this wall time wins.
  const candidates = [first, second].sort((a, b) => a - b);
  const shows = (t: number) => {
    const w = wallTimeIn(new Date(t), timeZone);
    return w.hour === wall.hour && w.minute === wall.minute && w.day === wall.day;
  };
  return new Date(candidates.find(shows) ?? Math.max(first, second));
}
