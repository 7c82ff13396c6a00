import { env } from "./env.server";
import { describeError, logLine } from "./log-line.server.js";

const levels = { debug: 10, info: 20, warn: 30, error: 40 } as const;
type Level = keyof typeof levels;

/** One JSON line per event, so logs stay greppable and machine-readable in production. */
function write(level: Level, msg: string, fields?: Record<string, unknown>) {
  if (levels[level] < levels[env().LOG_LEVEL]) return;
  const line = logLine(level, msg, fields);
  if (level === "error" || level === "warn") console.error(line);
  else console.log(line);
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
