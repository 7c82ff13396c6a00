import { describe, expect, it } from "vitest";
import { countersFor, decide, RATE_LIMITS, tooManyRequestsMessage } from "./rate-limits.server";

describe("request limits' rules", () => {
  it("counts an attempt per account and per address, each window its own counter, in one order", () => {
    expect(countersFor(RATE_LIMITS.checkout, { userId: "u1", ip: "::ffff:198.51.100.7" })).toEqual([
      { key: "checkout:account:u1:3600", max: 60, seconds: 3600 },
      { key: "checkout:account:u1:60", max: 10, seconds: 60 },
      { key: "checkout:ip:198.51.100.7:3600", max: 600, seconds: 3600 },
      { key: "checkout:ip:198.51.100.7:60", max: 60, seconds: 60 },
    ]);
    // An IPv6 client is its /64; without an address (an in-process call) the account alone counts.
    expect(countersFor(RATE_LIMITS.dashboardVisit, { userId: "u1", ip: "2001:db8:1:2:aaaa::1" }).map((c) => c.key)).toEqual([
      "dashboard-visit:account:u1:60",
      "dashboard-visit:ip:2001:0db8:0001:0002:0000:0000:0000:0000:60",
    ]);
    expect(countersFor(RATE_LIMITS.supportTicket, { userId: "u1", ip: null }).map((c) => c.key)).toEqual([
      "support-ticket:account:u1:60",
      "support-ticket:account:u1:86400",
    ]);
  });

  it("refuses past any counter's maximum and waits for the latest of the refusing windows", () => {
    const counters = countersFor(RATE_LIMITS.checkout, { userId: "u1", ip: "192.0.2.1" });
    const now = 1_000_000;
    const rows = (minute: number, hour: number) => [
      { key: "checkout:account:u1:60", count: minute, expires_at: now + 20_000 },
      { key: "checkout:account:u1:3600", count: String(hour), expires_at: String(now + 1_800_000) },
    ];
    expect(decide(counters, rows(10, 60), now)).toEqual({ allowed: true });
    expect(decide(counters, rows(11, 11), now)).toEqual({ allowed: false, retryAfterSeconds: 20 });
    expect(decide(counters, rows(11, 61), now)).toEqual({ allowed: false, retryAfterSeconds: 1800 });
  });

  it("says how long to wait in the largest whole unit", () => {
    expect(tooManyRequestsMessage(1)).toBe("Too many requests. Please try again in 1 second.");
    expect(tooManyRequestsMessage(59)).toBe("Too many requests. Please try again in 59 seconds.");
    expect(tooManyRequestsMessage(60)).toBe("Too many requests. Please try again in 1 minute.");
    expect(tooManyRequestsMessage(61)).toBe("Too many requests. Please try again in 2 minutes.");
    expect(tooManyRequestsMessage(3600)).toBe("Too many requests. Please try again in 1 hour.");
    expect(tooManyRequestsMessage(3601)).toBe("Too many requests. Please try again in 2 hours.");
  });
});
