import { env } from "./env.server";

const levels = { debug: 10, info: 20, warn: 30, error: 40 } as const;
type Level = keyof typeof levels;

/** One JSON line per event, so logs stay greppable and machine-readable in production. */
function write(level: Level, msg: string, fields?: Record<string, unknown>) {
  if (levels[level] < levels[env().LOG_LEVEL]) return;
  const line = JSON.stringify({ t: new Date().toISOString(), level, msg, ...fields });
  if (level === "error" || level === "warn") console.error(line);
  else console.log(line);
}

export const log = {
  debug: (msg: string, f?: Record<string, unknown>) => write("debug", msg, f),
  info: (msg: string, f?: Record<string, unknown>) => write("info", msg, f),
  warn: (msg: string, f?: Record<string, unknown>) => write("warn", msg, f),
  error: (msg: string, f?: Record<string, unknown>) => write("error", msg, f),
};

/** What was thrown, as text for a log field or a stored failure reason. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** What was thrown, with its stack where it has one: for errors nobody expected. */
export function errorDetail(error: unknown): string {
  // (Some libraries blank the stack of their own errors: the message is all there is.)
  return error instanceof Error ? error.stack || error.message : String(error);
}
