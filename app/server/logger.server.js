// The process's one logger (pino), shared by server.js and the bundle: one JSON object per line,
// `{"level":"info","t":"…","msg":"…",…}`, warnings and errors on stderr, the rest on stdout
// (docs/decisions/0071-structured-logs-and-metrics.md). Plain JavaScript: server.js writes its lines,
// and logs every request, before the bundle loads. The logger and the request context live on
// globalThis so that the bundle's copy of this module uses the same ones as server.js.
import { AsyncLocalStorage } from "node:async_hooks";
import { randomUUID } from "node:crypto";
import { formatWithOptions } from "node:util";
import pino from "pino";
import pinoHttp from "pino-http";
import { describeError } from "./log-line.server.js";

const LEVELS = /** @type {const} */ (["debug", "info", "warn", "error"]);

// Not request data a log may hold: a lead's or customer's address, wherever it ended up (a
// message, a provider's answer, a path).
const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g;

/**
 * Fields a line never shows, wherever a caller put them (top level or one object down): credentials
 * and the headers that carry them, addresses, and what looks like a card.
 */
const REDACTED_KEYS = [
  "cookie",
  "set-cookie",
  "authorization",
  "password",
  "email",
  "card",
  "cardNumber",
  "card_number",
  "number",
  "cvc",
  "cvv",
  "exp",
];
const REDACT_PATHS = REDACTED_KEYS.flatMap((key) => {
  const path = /^[A-Za-z_$][\w$]*$/.test(key) ? key : `["${key}"]`;
  return [path, `*.${path}`.replace(".[", "[")];
}).concat(["req.headers.cookie", "req.headers.authorization", 'res.headers["set-cookie"]']);

/** An incoming X-Request-Id is kept only when it is this: short, and nothing a log line could be fooled by. */
const SANE_REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

/**
 * The request id a client or proxy sent, when it looks sane; otherwise null (a new one is made).
 * @param {unknown} value
 * @returns {string | null}
 */
export function saneRequestId(value) {
  const id = Array.isArray(value) ? value[0] : value;
  return typeof id === "string" && SANE_REQUEST_ID.test(id) ? id : null;
}

/**
 * The path of a request URL, without its query string or fragment: a query may hold an address
 * (`?email=…`) or a token, and the path alone names what was asked for.
 * @param {string | undefined} url
 */
export function pathOf(url) {
  if (!url) return "/";
  const end = url.search(/[?#]/);
  return end < 0 ? url : url.slice(0, end);
}

/**
 * @typedef {{ write: (line: string) => unknown }} Sink
 * @typedef {{ stdout: Sink, stderr: Sink }} Sinks
 */
const SINKS = Symbol.for("ai-apps.log-sinks");
const LOGGER = Symbol.for("ai-apps.logger");
const CONTEXT = Symbol.for("ai-apps.request-context");
/** @type {Record<symbol, any>} */
const shared = /** @type {any} */ (globalThis);

/** @returns {Sinks} */
function sinks() {
  shared[SINKS] ??= process.env.VITEST
    ? // Under the test runner, through console: it shows each test's lines with the test, and a test
      // can read them (vi.spyOn(console, "error")).
      {
        stdout: { write: (/** @type {string} */ line) => console.log(line.trimEnd()) },
        stderr: { write: (/** @type {string} */ line) => console.error(line.trimEnd()) },
      }
    : // Synchronous writes: a line written just before the process exits (a crash) is not lost.
      { stdout: pino.destination({ dest: 1, sync: true }), stderr: pino.destination({ dest: 2, sync: true }) };
  return shared[SINKS];
}

/**
 * Sends every line to `replacement` until the returned function is called (tests read lines this way).
 * @param {Sinks} replacement
 * @returns {() => void}
 */
export function redirectLogLines(replacement) {
  const before = shared[SINKS];
  shared[SINKS] = replacement;
  return () => {
    shared[SINKS] = before;
  };
}

/** pino's destination: each line with addresses replaced, warnings and errors to stderr. */
const destination = {
  /** @param {string} line */
  write(line) {
    const text = line.includes("@") ? line.replace(EMAIL, "[email]") : line;
    // The level is the line's first field (formatters.level below).
    const toStderr =
      line.startsWith('{"level":"error"') || line.startsWith('{"level":"warn"') || line.startsWith('{"level":"fatal"');
    (toStderr ? sinks().stderr : sinks().stdout).write(text);
  },
};

/** @type {AsyncLocalStorage<{ id: string }>} */
export const requestContext = (shared[CONTEXT] ??= new AsyncLocalStorage());

/**
 * A new pino logger writing as described above.
 * @param {string} [level]
 * @returns {import("pino").Logger}
 */
export function createLogger(level = "info") {
  return pino(
    {
      level: LEVELS.includes(/** @type {any} */ (level)) ? level : "info",
      base: undefined,
      messageKey: "msg",
      timestamp: () => `,"t":"${new Date().toISOString()}"`,
      formatters: { level: (label) => ({ level: label }) },
      redact: { paths: REDACT_PATHS, censor: "[redacted]" },
      // Lines written inside a request (a loader's, an action's) carry its id; the request's own
      // line names it itself.
      mixin(fields) {
        if (/** @type {{ reqId?: unknown }} */ (fields).reqId !== undefined) return {};
        const id = requestContext.getStore()?.id;
        return id === undefined ? {} : { reqId: id };
      },
    },
    destination,
  );
}

/** The process's logger, at LOG_LEVEL (created on first use). */
export function logger() {
  return (shared[LOGGER] ??= createLogger(process.env.LOG_LEVEL));
}

/** Makes the next logger() a new one at LOG_LEVEL as it is then (test files run one after another in a process). */
export function resetLogger() {
  delete shared[LOGGER];
}

// ---- per-request lines -------------------------------------------------------------------------
const ROUTE = Symbol.for("ai-apps.route");
const FROM_CACHE = Symbol.for("ai-apps.from-page-cache");
const STARTED = Symbol("started");

/**
 * Names the route that answers `res`: its pattern (`/apps/:slug`), never the URL, so that log
 * fields and metric labels stay few.
 * @param {object} res
 * @param {string} route
 */
export function labelRoute(res, route) {
  /** @type {any} */ (res)[ROUTE] = route;
}
/** @param {object} res @returns {string} */
export function routeOf(res) {
  return /** @type {any} */ (res)[ROUTE] ?? "unmatched";
}
/** Marks `res` as answered from the anonymous page cache. @param {object} res */
export function markServedFromCache(res) {
  /** @type {any} */ (res)[FROM_CACHE] = true;
}
/** @param {object} res */
function servedFromCache(res) {
  return /** @type {any} */ (res)[FROM_CACHE] === true;
}

/**
 * @typedef {{ method: string, route: string, status: number, seconds: number, cache: boolean }} FinishedRequest
 */

/** A finished request's fields in its log line. @param {FinishedRequest} r */
const requestFields = (r) => ({
  route: r.route,
  status: r.status,
  ms: Math.round(r.seconds * 10_000) / 10,
  ...(r.cache ? { cache: "hit" } : {}),
});

/**
 * The request logger (pino-http): one line when each response finishes, with the request id (taken
 * from a sane X-Request-Id, else a new UUID), method, path (never the query), route, status and
 * duration. `onFinished` sees every finished request, whatever LOG_LEVEL hides (metrics).
 * @param {import("pino").Logger} base
 * @param {(request: FinishedRequest) => void} [onFinished]
 */
export function createRequestLogger(base, onFinished) {
  /** @param {import("node:http").IncomingMessage} req @param {import("node:http").ServerResponse} res */
  const finished = (req, res) => {
    const started = /** @type {{ [STARTED]?: number }} */ (res)[STARTED];
    const seconds = started === undefined ? 0 : (performance.now() - started) / 1000;
    const request = {
      method: req.method ?? "GET",
      route: routeOf(res),
      status: res.headersSent ? res.statusCode : 0,
      seconds,
      cache: servedFromCache(res),
    };
    onFinished?.(request);
    return request;
  };
  const handler = pinoHttp({
    logger: base,
    // The finished line is written by `base` itself with the fields below: no per-request child
    // logger's bindings to build for it.
    quietResLogger: true,
    genReqId: (req) => saneRequestId(req.headers["x-request-id"]) ?? randomUUID(),
    serializers: {
      req: (req) => ({ method: req.method, path: pathOf(req.url) }),
    },
    wrapSerializers: false,
    customLogLevel: (_req, res, error) => (error || res.statusCode >= 500 ? "error" : "info"),
    customSuccessMessage: () => "request completed",
    customErrorMessage: () => "request failed",
    customSuccessObject: (req, res) => ({ reqId: req.id, req, ...requestFields(finished(req, res)) }),
    customErrorObject: (req, res, error) => ({
      reqId: req.id,
      req,
      ...requestFields(finished(req, res)),
      error: describeError(error),
    }),
  });
  /**
   * @param {import("node:http").IncomingMessage} req
   * @param {import("node:http").ServerResponse} res
   * @returns {string} the request's id
   */
  return (req, res) => {
    /** @type {any} */ (res)[STARTED] = performance.now();
    handler(req, res);
    return /** @type {string} */ (/** @type {any} */ (req).id);
  };
}

/**
 * Production: whatever a library prints with console.* (React, React Router, a driver) and Node's
 * own warnings become one JSON line each, like the server's lines, instead of bare, often
 * multi-line text a log collector would split. A line that already is one of ours passes through.
 * @param {import("pino").Logger} [log]
 * @param {Pick<Console, "error" | "warn" | "log" | "info" | "debug">} [target]
 * @param {Pick<NodeJS.Process, "on" | "removeAllListeners">} [proc]
 */
export function keepOutputJsonLines(log = logger(), target = console, proc = process) {
  /** @type {[keyof Console & ("error" | "warn" | "log" | "info" | "debug"), "error" | "warn" | "info" | "debug"][]} */
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
      if (args.length === 1 && typeof args[0] === "string" && args[0].startsWith('{"level":"')) return write(args[0]);
      const error = args.find((arg) => arg instanceof Error);
      const text = formatWithOptions({ colors: false }, ...args.filter((arg) => arg !== error)).slice(0, 2000);
      log[level](error ? { error: describeError(error, { stack: true }) } : {}, text || `console.${name}`);
    };
  }
  // Node prints a warning (a deprecation, a listener leak) over several lines unless someone listens.
  proc.removeAllListeners("warning");
  proc.on("warning", (warning) => {
    log.warn({ warning: warning.name, code: /** @type {{ code?: string }} */ (warning).code }, warning.message);
  });
}
