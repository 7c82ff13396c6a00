import { describe, expect, it } from "vitest";
import { dayRangeBounds, pageCount, parseDay, parseTableParams, tableSearch, type TableSpec } from "./table-params";

const spec: TableSpec = {
  id: "orders",
  title: "Orders",
  searchLabel: "Email, item or order id",
  sortKeys: ["createdAt", "amount", "email"],
  defaultSort: { key: "createdAt", dir: "desc" },
  filters: [
    {
      key: "status",
      label: "Status",
      options: [
        { value: "paid", label: "Paid" },
        { value: "refunded", label: "Refunded" },
      ],
    },
  ],
  dateRange: true,
};
const parse = (qs: string) => parseTableParams(spec, new URLSearchParams(qs));

describe("parseTableParams", () => {
  it("gives the defaults for an empty query", () => {
    expect(parse("")).toEqual({
      q: "",
      sort: "createdAt",
      dir: "desc",
      page: 1,
      size: 25,
      filters: {},
      from: null,
      to: null,
      timeZone: "UTC",
    });
  });

  it("reads every valid field", () => {
    expect(parse("q=%20ann%40x.com%20&sort=amount&dir=asc&page=3&size=100&status=paid&from=2026-01-02&to=2026-02-01")).toEqual({
      q: "ann@x.com",
      sort: "amount",
      dir: "asc",
      page: 3,
      size: 100,
      filters: { status: "paid" },
      from: "2026-01-02",
      to: "2026-02-01",
      timeZone: "UTC",
    });
  });

  it("clamps bad input instead of failing", () => {
    const p = parse("sort=password&dir=sideways&page=-4&size=1000&status=%27%20or%201%3D1&from=2026-02-30&to=yesterday");
    expect(p).toEqual({
      q: "",
      sort: "createdAt",
      dir: "desc",
      page: 1,
      size: 25,
      filters: {},
      from: null,
      to: null,
      timeZone: "UTC",
    });
    expect(parse("page=abc").page).toBe(1);
    expect(parse("page=1e3").page).toBe(1);
    expect(parse("page=99999999").page).toBe(10_000);
    expect(parse("page=0").page).toBe(1);
  });

  it("cuts long searches and drops control characters", () => {
    expect(parse(`q=${"a".repeat(500)}`).q).toHaveLength(100);
    expect(parse("q=a%00b%0Ac").q).toBe("a b c");
  });

  it("sorts a non-default column ascending unless told", () => {
    expect(parse("sort=email").dir).toBe("asc");
    expect(parse("sort=email&dir=desc").dir).toBe("desc");
  });

  it("swaps a reversed date range", () => {
    expect(parse("from=2026-03-01&to=2026-01-01")).toMatchObject({ from: "2026-01-01", to: "2026-03-01" });
  });

  it("ignores a date range on a table without one", () => {
    expect(parseTableParams({ ...spec, dateRange: false }, new URLSearchParams("from=2026-01-01")).from).toBeNull();
  });
});

describe("parseDay", () => {
  it("accepts real days only", () => {
    expect(parseDay("2026-11-27")).toBe("2026-11-27");
    expect(parseDay("2024-02-29")).toBe("2024-02-29");
    expect(parseDay("2026-02-29")).toBeNull();
    expect(parseDay("26-11-27")).toBeNull();
    expect(parseDay("1900-01-01")).toBeNull();
    expect(parseDay(null)).toBeNull();
  });
});

describe("tableSearch", () => {
  it("leaves defaults out and round-trips", () => {
    const p = parse("q=ann&status=paid&sort=amount&dir=asc&page=2&size=50");
    expect(tableSearch(spec, p)).toBe("?q=ann&status=paid&sort=amount&dir=asc&size=50&page=2");
    expect(parse(tableSearch(spec, p).slice(1))).toEqual(p);
    expect(tableSearch(spec, parse(""))).toBe("");
  });

  it("applies changes", () => {
    expect(tableSearch(spec, parse("page=4"), { page: 1, sort: "email", dir: "asc" })).toBe("?sort=email&dir=asc");
  });
});

describe("pageCount", () => {
  it("is at least one", () => {
    expect(pageCount(0, 25)).toBe(1);
    expect(pageCount(25, 25)).toBe(1);
    expect(pageCount(26, 25)).toBe(2);
  });
});

describe("dayRangeBounds", () => {
  it("takes the operator's zone for the range, which the address does not carry", () => {
    expect(parseTableParams(spec, new URLSearchParams("from=2026-01-02"), "Pacific/Auckland").timeZone).toBe("Pacific/Auckland");
    expect(tableSearch(spec, parseTableParams(spec, new URLSearchParams("from=2026-01-02"), "Pacific/Auckland"))).toBe(
      "?from=2026-01-02",
    );
  });

  it("covers whole days in the zone: midnight there to the midnight after the last day", () => {
    expect(dayRangeBounds("2026-11-27", "2026-11-27", "UTC")).toEqual({
      start: new Date("2026-11-27T00:00:00Z"),
      end: new Date("2026-11-28T00:00:00Z"),
    });
    // Auckland is 13 hours ahead in its summer: its Nov 27 starts at 11:00 UTC on Nov 26.
    expect(dayRangeBounds("2026-11-27", "2026-11-27", "Pacific/Auckland")).toEqual({
      start: new Date("2026-11-26T11:00:00Z"),
      end: new Date("2026-11-27T11:00:00Z"),
    });
    expect(dayRangeBounds(null, "2026-12-31", "America/Los_Angeles")).toEqual({
      start: null,
      end: new Date("2027-01-01T08:00:00Z"),
    });
  });

  it("keeps a 23- or 25-hour day whole across daylight-saving changes", () => {
    const spring = dayRangeBounds("2026-03-08", "2026-03-08", "America/New_York");
    expect(spring).toEqual({ start: new Date("2026-03-08T05:00:00Z"), end: new Date("2026-03-09T04:00:00Z") });
    const autumn = dayRangeBounds("2026-11-01", "2026-11-01", "America/New_York");
    expect(autumn).toEqual({ start: new Date("2026-11-01T04:00:00Z"), end: new Date("2026-11-02T05:00:00Z") });
  });
});
