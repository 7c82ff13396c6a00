import { describeError } from "./log-line.server.js";
import { logger } from "./logger.server.js";

type Level = "debug" | "info" | "warn" | "error";

/**
 * One JSON line per event through the process's pino logger (logger.server.js): inside a request the
 * line carries its id, addresses and credentials are redacted. An Error among the fields is described
 * with its stack (pino would print an Error under any other key than `err` as `{}`).
 */
function write(level: Level, msg: string, fields?: Record<string, unknown>) {
  const log = logger();
  if (!log.isLevelEnabled(level)) return;
  if (fields === undefined) {
    log[level](msg);
    return;
  }
  let shown = fields;
  for (const key in fields) {
    if (fields[key] instanceof Error) {
      shown = Object.fromEntries(
        Object.entries(fields).map(([k, v]) => [k, v instanceof Error ? describeError(v, { stack: true }) : v]),
      );
      break;
    }
  }
  log[level](shown, msg);
}

export const log = {
  debug: (msg: string, f?: Record<string, unknown>) => write("debug", msg, f),
  info: (msg: string, f?: Record<string, unknown>) => write("info", msg, f),
  warn: (msg: string, f?: Record<string, unknown>) => write("warn", msg, f),
  error: (msg: string, f?: Record<string, unknown>) => write("error", msg, f),
};

/**
 * What was thrown, as one line for a log field or a stored failure reason: its message and each
 * cause's, never a failed query's SQL parameters (log-line.server.js).
 */
export function errorMessage(error: unknown): string {
  return describeError(error);
}

/** What was thrown, with its stack where it has one: for errors nobody expected. */
export function errorDetail(error: unknown): string {
  return describeError(error, { stack: true });
}
