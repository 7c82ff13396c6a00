import { APIError, BetterAuthError } from "better-auth";
import { afterEach, describe, expect, it, vi } from "vitest";
import { logFromAuth } from "./auth-log.server";

/** The JSON lines written to stderr while `fn` runs. */
function stderrLines(fn: () => void): Record<string, unknown>[] {
  const spy = vi.spyOn(console, "error").mockImplementation(() => {});
  fn();
  return spy.mock.calls.map(([line]) => JSON.parse(String(line)) as Record<string, unknown>);
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("logFromAuth", () => {
  it("logs a client's bad input (Better Auth's error level) as one warning line, cut to 500 characters", () => {
    const lines = stderrLines(() => logFromAuth("error", `Invalid callbackURL: https://evil.example/${"x".repeat(2000)}`));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: "warn" });
    expect(String(lines[0]?.msg)).toMatch(/^auth: Invalid callbackURL: https:\/\/evil\.example\/x+$/);
    expect(String(lines[0]?.msg).length).toBe("auth: ".length + 500);
  });

  it("keeps an Error it is handed as an error line with its stack", () => {
    const lines = stderrLines(() => logFromAuth("error", "Error", new Error("Failed query: select 1")));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: "error", msg: "auth: Error" });
    expect(String(lines[0]?.error)).toMatch(/^Error: Failed query: select 1\n\s+at /);
  });

  it("logs Better Auth's own errors about a client's input as warnings (they carry no stack)", () => {
    const lines = stderrLines(() => {
      logFromAuth("error", "Failed to parse state", new BetterAuthError("State not found in OAuth callback"));
      logFromAuth("error", "Refused", new APIError("BAD_REQUEST", { message: "Invalid token" }));
      logFromAuth("error", "Failed", new APIError("INTERNAL_SERVER_ERROR", { message: "Unable to create verification" }));
    });
    expect(lines.map((line) => [line.level, line.msg, line.error])).toEqual([
      ["warn", "auth: Failed to parse state", "State not found in OAuth callback"],
      ["warn", "auth: Refused", expect.stringContaining("Invalid token")],
      ["error", "auth: Failed", expect.stringContaining("Unable to create verification")],
    ]);
  });

  it("keeps warnings and passes other arguments as text", () => {
    const lines = stderrLines(() => logFromAuth("warn", "Password is too short", { length: 3 }, 7));
    expect(lines).toEqual([
      expect.objectContaining({ level: "warn", msg: "auth: Password is too short", detail: '{"length":3} 7' }),
    ]);
  });
});
