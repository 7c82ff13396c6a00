// One JSON object per log line, and what an error says in one. Plain JavaScript: server.js writes
// its lines, and catches what throws, before the bundle loads; app/server/log.server.ts writes the
// app's lines through the same two functions, so the two cannot drift apart.
import { formatWithOptions } from "node:util";

/** Longest text one error (or one link of its cause chain) contributes to a line. */
const MAX_PART = 1000;
/** Causes followed below the error itself: enough for a query error's driver error and its errno. */
const MAX_CAUSES = 4;
// Not request data a log may hold: a lead's or customer's address, wherever it ended up (a
// message, a provider's answer, a path).
const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g;
// A PostgreSQL error code (53100 disk full, 25006 read-only transaction, 22P02 invalid input...).
const SQLSTATE = /^(?=.*\d)[0-9A-Z]{5}$/;
const IDENTIFIER = String.raw`(?:"[^"]*"|[\w$]+)(?:\.(?:"[^"]*"|[\w$]+))?`;

/**
 * One log line: `{ t, level, msg, ...fields }` as JSON. An Error among the fields is described with
 * its stack; e-mail addresses anywhere in the line are replaced by "[email]". Never throws: a field
 * JSON cannot hold (a cycle) costs the fields, not the line.
 * @param {string} level
 * @param {string} msg
 * @param {Record<string, unknown>} [fields]
 * @returns {string}
 */
export function logLine(level, msg, fields) {
  const t = new Date().toISOString();
  let text;
  try {
    text = JSON.stringify({ t, level, msg: String(msg), ...fields }, jsonValue);
  } catch (error) {
    text = JSON.stringify({ t, level, msg: String(msg), fieldsDropped: describeError(error) });
  }
  return text.replace(EMAIL, "[email]");
}

/** @param {string} _key @param {unknown} value */
function jsonValue(_key, value) {
  if (typeof value === "bigint") return value.toString();
  if (value instanceof Error) return describeError(value, { stack: true });
  return value;
}

/**
 * What was thrown, as one line: its message and the message (and SQLSTATE) of each cause, e.g.
 * `Failed query (insert into "leads"); cause: could not extend file "base/5/16385": No space left
 * on device (SQLSTATE 53100)`. Never the request's data: a failed query is named by its statement
 * and table, not its SQL and parameters (Drizzle puts both in its message), a driver error's
 * `detail` (the failing row) is left out, and so is the value a data exception quotes. With
 * `stack`, the thrown error's name and stack frames are added, as `Error.stack` has them.
 * @param {unknown} value
 * @param {{ stack?: boolean }} [options]
 * @returns {string}
 */
export function describeError(value, { stack = false } = {}) {
  const parts = [];
  const seen = new Set();
  for (let current = value; current !== undefined && current !== null && parts.length <= MAX_CAUSES;) {
    if (seen.has(current)) break;
    seen.add(current);
    parts.push(summary(current));
    current = causeOf(current);
  }
  const text = parts.join("; cause: ");
  if (!stack || !(value instanceof Error) || typeof value.stack !== "string") return text;
  // (Some libraries blank the stack of their own errors: the message is all there is.)
  const frames = value.stack.split("\n").filter((line) => /^\s+at /.test(line));
  return frames.length ? `${value.name || "Error"}: ${text}\n${frames.join("\n")}` : text;
}

/** @param {unknown} value @returns {string} */
function summary(value) {
  if (typeof value !== "object" || value === null || typeof (/** @type {{ message?: unknown }} */ (value).message) !== "string") {
    return clip(String(value));
  }
  const error = /** @type {{ message: string, name?: unknown, code?: unknown, query?: unknown }} */ (value);
  // Drizzle's DrizzleQueryError (PGlite's own errors carry `query` and `params` too, and a message of their own).
  if (typeof error.query === "string" && "params" in error && error.message.startsWith("Failed query: ")) {
    return `Failed query (${statementOf(error.query)})`;
  }
  const code = typeof error.code === "string" && SQLSTATE.test(error.code) ? error.code : undefined;
  // A message that embeds Drizzle's (a wrapper's) still ends before the parameters.
  let message = error.message
    .split("\nparams:")[0]
    .replace(/\s*\n\s*/g, " ")
    .trim();
  if (code?.startsWith("22")) message = message.replace(/"(?:[^"]|"")*"/g, '"…"');
  message = clip(message || (typeof error.name === "string" && error.name) || "Error");
  return code && !message.includes(code) ? `${message} (SQLSTATE ${code})` : message;
}

/** @param {unknown} value @returns {unknown} */
function causeOf(value) {
  if (typeof value !== "object" || value === null) return undefined;
  const error = /** @type {{ cause?: unknown, errors?: unknown }} */ (value);
  if (error.cause !== undefined) return error.cause;
  return Array.isArray(error.errors) ? error.errors[0] : undefined;
}

/** `insert into "leads"`, `select … from "apps"`: what a statement did and where, without its values. */
function statementOf(query) {
  const text = query.replace(/\s+/g, " ").trim();
  const write = new RegExp(`^(insert into|delete from|update) (${IDENTIFIER})`, "i").exec(text);
  if (write) return `${write[1].toLowerCase()} ${write[2]}`;
  const read = new RegExp(`^select\\b.*? from (${IDENTIFIER})`, "i").exec(text);
  if (read) return `select … from ${read[1]}`;
  return (/^\w+/.exec(text)?.[0] ?? "statement").toLowerCase();
}

/** @param {string} text */
function clip(text) {
  return text.length > MAX_PART ? `${text.slice(0, MAX_PART)}…` : text;
}

/**
 * Production: whatever a library prints with console.* (React, React Router, a driver) and Node's
 * own warnings become one JSON line each, like the server's lines, instead of bare, often
 * multi-line text a log collector would split. Lines the loggers made pass through as they are.
 * @param {Pick<Console, "error" | "warn" | "log" | "info" | "debug">} [target]
 * @param {Pick<NodeJS.Process, "on" | "removeAllListeners">} [proc]
 */
export function keepOutputJsonLines(target = console, proc = process) {
  /** @type {[keyof Console & ("error" | "warn" | "log" | "info" | "debug"), string][]} */
  const methods = [
    ["error", "error"],
    ["warn", "warn"],
    ["log", "info"],
    ["info", "info"],
    ["debug", "debug"],
  ];
  for (const [name, level] of methods) {
    const write = target[name].bind(target);
    target[name] = (...args) => {
      if (args.length === 1 && typeof args[0] === "string" && args[0].startsWith('{"t":"')) return write(args[0]);
      const error = args.find((arg) => arg instanceof Error);
      const text = clip(formatWithOptions({ colors: false }, ...args.filter((arg) => arg !== error)));
      write(logLine(level, text || `console.${name}`, error ? { error } : undefined));
    };
  }
  // Node prints a warning (a deprecation, a listener leak) over several lines unless someone listens.
  proc.removeAllListeners("warning");
  proc.on("warning", (warning) => {
    target.warn(
      logLine("warn", warning.message, { warning: warning.name, code: /** @type {{ code?: string }} */ (warning).code }),
    );
  });
}
