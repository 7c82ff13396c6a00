import { describe, expect, it } from "vitest";
import { emailRetryable, emailStatus } from "./email-status";

const now = new Date("2026-11-27T12:00:00Z");
const minutesAgo = (m: number) => new Date(now.getTime() - m * 60_000);
const row = (over: Partial<Parameters<typeof emailStatus>[0]> = {}) => ({
  sentAt: null,
  failedAt: null,
  error: null,
  createdAt: minutesAgo(1),
  ...over,
});

describe("emailStatus", () => {
  it("a sent email is sent, whatever failed before", () => {
    expect(emailStatus(row({ sentAt: minutesAgo(0), error: null, createdAt: minutesAgo(5000) }), now)).toBe("sent");
  });

  it("a new email waits; untouched for an hour it is stuck", () => {
    expect(emailStatus(row({ createdAt: minutesAgo(59) }), now)).toBe("waiting");
    expect(emailStatus(row({ createdAt: minutesAgo(60) }), now)).toBe("stuck");
  });

  it("an email with an error is retrying until its retries are over (a day), then stuck", () => {
    expect(emailStatus(row({ error: "421 try later", createdAt: minutesAgo(600) }), now)).toBe("retrying");
    expect(emailStatus(row({ error: "421 try later", createdAt: minutesAgo(24 * 60) }), now)).toBe("stuck");
  });

  it("a failed email stays failed however old, and takes ISO strings too", () => {
    expect(emailStatus(row({ failedAt: minutesAgo(1), error: "550" }), now)).toBe("failed");
    expect(emailStatus(row({ failedAt: minutesAgo(1).toISOString(), createdAt: minutesAgo(9000).toISOString() }), now)).toBe(
      "failed",
    );
  });
});

describe("emailRetryable", () => {
  it("only failed or stuck emails that have content", () => {
    expect(emailRetryable(row({ failedAt: minutesAgo(1) }), now, false)).toBe(true);
    expect(emailRetryable(row({ createdAt: minutesAgo(90) }), now, false)).toBe(true);
    expect(emailRetryable(row({ failedAt: minutesAgo(1) }), now, true)).toBe(false);
    expect(emailRetryable(row(), now, false)).toBe(false);
    expect(emailRetryable(row({ error: "421", createdAt: minutesAgo(90) }), now, false)).toBe(false);
    expect(emailRetryable(row({ sentAt: minutesAgo(1) }), now, false)).toBe(false);
  });
});
