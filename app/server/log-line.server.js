// What an error says, in one line. Plain JavaScript: server.js describes what throws before the
// bundle loads, and the bundle's log lines (logger.server.js) describe errors the same way.
/** Longest text one error (or one link of its cause chain) contributes to a line. */
const MAX_PART = 1000;
/** Causes followed below the error itself: enough for a query error's driver error and its errno. */
const MAX_CAUSES = 4;
// A PostgreSQL error code (53100 disk full, 25006 read-only transaction, 22P02 invalid input...).
const SQLSTATE = /^(?=.*\d)[0-9A-Z]{5}$/;
const IDENTIFIER = String.raw`(?:"[^"]*"|[\w$]+)(?:\.(?:"[^"]*"|[\w$]+))?`;

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
