import { APIError, BetterAuthError } from "better-auth";
import { errorDetail, log } from "../log.server";

const MAX_MESSAGE = 500;

/**
 * Better Auth's log lines, into the server's structured log: one JSON line each, where its default is
 * coloured text over several lines. Most of what it logs as an error is a client's bad input (an
 * off-site callbackURL, say) and holds the client's text: those become warnings, cut to 500
 * characters, so nobody's requests can pass for server faults or fill the log with long lines. So do
 * the errors it raises itself for such input (a BetterAuthError, as for a forged OAuth state, or an
 * APIError below 500). Any other Error it hands over (a failed query) stays an error, with its stack.
 */
export function logFromAuth(level: "debug" | "info" | "warn" | "error", message: string, ...args: unknown[]): void {
  const text = `auth: ${String(message).slice(0, MAX_MESSAGE)}`;
  const error = args.find((arg) => arg instanceof Error);
  if (error) {
    const clients = error instanceof BetterAuthError || (error instanceof APIError && Number(error.statusCode) < 500);
    log[clients ? "warn" : "error"](text, { error: errorDetail(error).slice(0, clients ? MAX_MESSAGE : undefined) });
    return;
  }
  const detail = args.length > 0 ? { detail: args.map(asText).join(" ").slice(0, MAX_MESSAGE) } : undefined;
  log[level === "error" ? "warn" : level](text, detail);
}

function asText(value: unknown): string {
  if (typeof value === "string") return value;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
