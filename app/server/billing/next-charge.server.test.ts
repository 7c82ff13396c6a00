import { describe, expect, it } from "vitest";
import { addMonths, nextMonthlyDate } from "./next-charge.server";

const at = (iso: string) => new Date(iso);

describe("next monthly charge date", () => {
  it("is the anchor while it is still ahead", () => {
    expect(nextMonthlyDate(at("2026-12-03T10:00:00Z"), at("2026-11-26T12:00:00Z"))).toEqual(at("2026-12-03T10:00:00Z"));
  });

  it("is the first monthly anniversary of the anchor after now, at the anchor's time of day", () => {
    const anchor = at("2026-01-15T09:30:00Z");
    expect(nextMonthlyDate(anchor, at("2026-01-15T09:30:00Z"))).toEqual(at("2026-02-15T09:30:00Z"));
    expect(nextMonthlyDate(anchor, at("2026-11-15T09:29:59Z"))).toEqual(at("2026-11-15T09:30:00Z"));
    expect(nextMonthlyDate(anchor, at("2026-11-15T09:30:00Z"))).toEqual(at("2026-12-15T09:30:00Z"));
    expect(nextMonthlyDate(anchor, at("2027-01-02T00:00:00Z"))).toEqual(at("2027-01-15T09:30:00Z"));
  });

  it("falls on the month's last day when the anchor's day does not exist in it, and back on the anchor's day after", () => {
    const anchor = at("2026-01-31T00:00:00Z");
    expect(nextMonthlyDate(anchor, at("2026-02-01T00:00:00Z"))).toEqual(at("2026-02-28T00:00:00Z"));
    expect(nextMonthlyDate(anchor, at("2026-03-01T00:00:00Z"))).toEqual(at("2026-03-31T00:00:00Z"));
    expect(nextMonthlyDate(anchor, at("2028-02-10T00:00:00Z"))).toEqual(at("2028-02-29T00:00:00Z"));
    expect(addMonths(anchor, 3)).toEqual(at("2026-04-30T00:00:00Z"));
    expect(addMonths(at("2026-11-30T08:00:00Z"), 2)).toEqual(at("2027-01-30T08:00:00Z"));
  });
});
