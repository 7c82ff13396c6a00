import { describe, expect, it } from "vitest";
import {
  canonicalTimeZone,
  formatInZone,
  instantOfWallTime,
  timeZoneCookie,
  timeZoneFromCookie,
  timeZoneNames,
  wallTimeIn,
  zoneAbbreviation,
} from "./time-zone";

describe("time zones", () => {
  it("accepts only zone names Intl knows, in their canonical spelling", () => {
    expect(canonicalTimeZone("America/New_York")).toBe("America/New_York");
    expect(canonicalTimeZone("america/new_york")).toBe("America/New_York");
    expect(canonicalTimeZone("UTC")).toBe("UTC");
    for (const bad of [
      "Mars/Olympus",
      "",
      "+05:00",
      "../etc/passwd",
      "America/New_York\n",
      "a".repeat(65),
      42,
      null,
      undefined,
    ]) {
      expect(canonicalTimeZone(bad)).toBeNull();
    }
  });

  it("reads the page's cookie, refusing what is not a zone", () => {
    expect(timeZoneFromCookie("a=1; tz=America%2FNew_York; b=2")).toBe("America/New_York");
    expect(timeZoneFromCookie("tz=Europe/Berlin")).toBe("Europe/Berlin");
    expect(timeZoneFromCookie("xtz=Europe/Berlin")).toBeNull();
    expect(timeZoneFromCookie("tz=Nowhere%2FLand")).toBeNull();
    expect(timeZoneFromCookie("tz=%E0%A4%A")).toBeNull();
    expect(timeZoneFromCookie(null)).toBeNull();
    expect(timeZoneCookie("America/New_York")).toMatch(/^tz=America%2FNew_York; Path=\/; Max-Age=\d+; SameSite=Lax$/);
  });

  it("lists UTC first, then every zone the runtime knows", () => {
    const names = timeZoneNames();
    expect(names[0]).toBe("UTC");
    expect(names).toContain("America/New_York");
    expect(new Set(names).size).toBe(names.length);
  });

  it("formats a moment in the customer's zone with its name", () => {
    const at = new Date("2026-11-28T19:00:00Z");
    expect(formatInZone(at, "America/New_York")).toBe("Nov 28, 2026, 2:00 PM EST");
    expect(formatInZone(at, "UTC")).toBe("Nov 28, 2026, 7:00 PM UTC");
    expect(formatInZone(at, "America/New_York", "long")).toBe("Saturday, November 28, 2026 at 2:00 PM EST");
    expect(formatInZone(new Date("2026-11-29T02:00:00Z"), "America/New_York", "date")).toBe("Nov 28, 2026");
    expect(zoneAbbreviation(new Date("2026-07-01T12:00:00Z"), "America/New_York")).toBe("EDT");
  });

  it("turns a wall-clock time in a zone into the instant, across daylight-saving changes", () => {
    const ny = "America/New_York";
    expect(instantOfWallTime({ year: 2026, month: 11, day: 28, hour: 14, minute: 0 }, ny).toISOString()).toBe(
      "2026-11-28T19:00:00.000Z",
    );
    expect(instantOfWallTime({ year: 2026, month: 7, day: 1, hour: 14, minute: 0 }, ny).toISOString()).toBe(
      "2026-07-01T18:00:00.000Z",
    );
    // 02:30 on 8 March 2026 does not exist in New York: it lands after the change, at 03:30 EDT.
    expect(instantOfWallTime({ year: 2026, month: 3, day: 8, hour: 2, minute: 30 }, ny).toISOString()).toBe(
      "2026-03-08T07:30:00.000Z",
    );
    // 01:30 on 1 November 2026 happens twice: the first (EDT) is taken.
    expect(instantOfWallTime({ year: 2026, month: 11, day: 1, hour: 1, minute: 30 }, ny).toISOString()).toBe(
      "2026-11-01T05:30:00.000Z",
    );
    expect(wallTimeIn(new Date("2026-11-28T19:00:00Z"), ny)).toEqual({ year: 2026, month: 11, day: 28, hour: 14, minute: 0 });
  });
});

describe("time zone names", () => {
  it("gives a zone known by two names (Asia/Kolkata, once Asia/Calcutta) the spelling of the runtime's list", () => {
    const names = timeZoneNames();
    for (const spelling of ["Asia/Kolkata", "asia/kolkata", "Asia/Calcutta"]) {
      const zone = canonicalTimeZone(spelling);
      expect(["Asia/Kolkata", "Asia/Calcutta"]).toContain(zone);
      expect(names).toContain(zone);
    }
  });
});
