import { EventEmitter } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import {
  createLogger,
  createRequestLogger,
  keepOutputJsonLines,
  labelRoute,
  pathOf,
  requestContext,
  saneRequestId,
  redirectLogLines,
  type FinishedRequest,
} from "./logger.server.js";

/** Every line the loggers write while `fn` runs, per stream. */
async function captured(fn: () => unknown | Promise<unknown>) {
  const lines = { stdout: [] as string[], stderr: [] as string[] };
  const restore = redirectLogLines({
    stdout: { write: (line: string) => lines.stdout.push(line) },
    stderr: { write: (line: string) => lines.stderr.push(line) },
  });
  try {
    await fn();
  } finally {
    restore();
  }
  return lines;
}
const parsed = (lines: string[]) => lines.map((line) => JSON.parse(line) as Record<string, unknown>);

describe("request ids", () => {
  it("keep a sane incoming id and refuse anything else", () => {
    expect(saneRequestId("req-1.abc_DEF")).toBe("req-1.abc_DEF");
    expect(saneRequestId("a".repeat(128))).toBe("a".repeat(128));
    expect(saneRequestId(["first", "second"])).toBe("first");
    for (const bad of ["", "a".repeat(129), "has space", 'quote"', "new\nline", "ünicode", "a/b", undefined, 42]) {
      expect(saneRequestId(bad)).toBeNull();
    }
  });
});

describe("log lines", () => {
  it("are one JSON object each, errors on stderr, with the level first and a time", async () => {
    const log = createLogger("debug");
    const lines = await captured(() => {
      log.info({ port: 1 }, "listening");
      log.error({ code: "EADDRINUSE" }, "cannot listen");
    });
    expect(parsed(lines.stdout)).toEqual([{ level: "info", t: expect.any(String), port: 1, msg: "listening" }]);
    expect(parsed(lines.stderr)).toEqual([{ level: "error", t: expect.any(String), code: "EADDRINUSE", msg: "cannot listen" }]);
    expect(lines.stdout[0]!.endsWith("\n")).toBe(true);
  });

  it("redact cookies, authorisation, emails and card-ish fields, at the top and one level down", async () => {
    const log = createLogger("info");
    const lines = await captured(() =>
      log.info(
        {
          cookie: "better-auth.session_token=secret-session",
          authorization: "Bearer secret-token",
          email: "ada@example.com",
          cardNumber: "4242424242424242",
          headers: { cookie: "a=secret-cookie", authorization: "Basic c2VjcmV0", "set-cookie": "b=secret-set" },
          payment: { number: "4000000000000002", cvc: "123", card: "4242 4242 4242 4242", exp: "12/30" },
          user: { email: "grace@example.org", id: "u1" },
          note: "mailed ada.lovelace+x@example.co.uk about it",
        },
        "checkout for ada@example.com",
      ),
    );
    const text = lines.stdout.join("");
    for (const secret of [
      "secret-session",
      "secret-token",
      "c2VjcmV0",
      "secret-cookie",
      "secret-set",
      "4242",
      "4000",
      '"123"',
      "12/30",
    ]) {
      expect(text).not.toContain(secret);
    }
    expect(text).not.toMatch(/example\.(com|org|co\.uk)/);
    const [line] = parsed(lines.stdout);
    expect(line).toMatchObject({ msg: "checkout for [email]", user: { id: "u1" }, note: "mailed [email] about it" });
  });

  it("written inside a request carry its id", async () => {
    const log = createLogger("info");
    const lines = await captured(async () => {
      await requestContext.run({ id: "req-42" }, async () => {
        await Promise.resolve();
        log.warn("inside");
      });
      log.warn("outside");
    });
    expect(parsed(lines.stderr)).toEqual([
      expect.objectContaining({ msg: "inside", reqId: "req-42" }),
      expect.not.objectContaining({ reqId: expect.anything() }),
    ]);
  });
});

describe("the request logger", () => {
  let server: Server | undefined;
  afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

  it("writes one line per request with its id (also the X-Request-Id answer), route, status and duration, never the query", async () => {
    const finished: FinishedRequest[] = [];
    const logRequest = createRequestLogger(createLogger("info"), (request) => finished.push(request));
    server = createServer((req, res) => {
      const id = logRequest(req, res);
      res.setHeader("X-Request-Id", id);
      labelRoute(res, "/apps/:slug");
      res.end("ok");
    });
    await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const lines = await captured(async () => {
      const given = await fetch(`${url}/apps/crm?email=ada%40example.com&token=abc`, {
        headers: { "x-request-id": "from-the-proxy", cookie: "better-auth.session_token=secret" },
      });
      const made = await fetch(`${url}/apps/x`, { headers: { "x-request-id": "bad id with spaces" } });
      expect(given.headers.get("x-request-id")).toBe("from-the-proxy");
      expect(made.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
      await new Promise((resolve) => setTimeout(resolve, 20));
    });
    const [first, second] = parsed(lines.stdout);
    expect(first).toMatchObject({
      level: "info",
      reqId: "from-the-proxy",
      req: { method: "GET", path: "/apps/crm" },
      route: "/apps/:slug",
      status: 200,
      ms: expect.any(Number),
      msg: "request completed",
    });
    expect(second).toMatchObject({ reqId: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    const text = lines.stdout.join("");
    expect(text).not.toContain("secret");
    expect(text).not.toContain("example.com");
    expect(text).not.toContain("token=");
    expect(finished.map((r) => [r.method, r.route, r.status, r.cache])).toEqual([
      ["GET", "/apps/:slug", 200, false],
      ["GET", "/apps/:slug", 200, false],
    ]);
  });
});

describe("paths", () => {
  it("leave the query and fragment out", () => {
    expect(pathOf("/apps?email=a@b.co")).toBe("/apps");
    expect(pathOf("/a#x")).toBe("/a");
    expect(pathOf(undefined)).toBe("/");
  });
});

/** A console whose methods record what they were given, per method. */
function recordingConsole() {
  const written: Record<string, string[]> = { error: [], warn: [], log: [], info: [], debug: [] };
  const target = Object.fromEntries(
    Object.keys(written).map((name) => [name, (...args: unknown[]) => void written[name]!.push(args.map(String).join(" "))]),
  ) as unknown as Pick<Console, "error" | "warn" | "log" | "info" | "debug">;
  return { target, written };
}

describe("keepOutputJsonLines", () => {
  it("turns what libraries print into one JSON line each and leaves the loggers' lines alone", async () => {
    const { target, written } = recordingConsole();
    const log = createLogger("debug");
    const own = '{"level":"info","t":"2026-11-27T00:00:00.000Z","msg":"listening"}';
    const lines = await captured(() => {
      keepOutputJsonLines(log, target, new EventEmitter() as unknown as NodeJS.Process);
      target.log(own);
      target.error("Error: render failed\n    at Component (app.js:1:1)", new TypeError("boom for ada@example.com"));
      target.warn("No routes matched location %s", "/x?email=ada@example.com");
      target.debug();
    });
    expect(written.log).toEqual([own]);
    for (const line of [...lines.stdout, ...lines.stderr]) expect(line.trimEnd().split("\n")).toHaveLength(1);
    const [error, warn] = parsed(lines.stderr);
    expect(error).toMatchObject({
      level: "error",
      msg: "Error: render failed\n    at Component (app.js:1:1)",
      error: expect.stringMatching(/^TypeError: boom for \[email\]\n\s+at /),
    });
    expect(warn).toMatchObject({ level: "warn", msg: "No routes matched location /x?email=[email]" });
    expect(parsed(lines.stdout)).toEqual([expect.objectContaining({ level: "debug", msg: "console.debug" })]);
  });

  it("logs Node's warnings as JSON lines instead of its multi-line default", async () => {
    const { target } = recordingConsole();
    const proc = new EventEmitter();
    let defaultPrinted = 0;
    proc.on("warning", () => defaultPrinted++);
    const lines = await captured(() => {
      keepOutputJsonLines(createLogger("info"), target, proc as unknown as NodeJS.Process);
      proc.emit(
        "warning",
        Object.assign(new Error("Possible EventEmitter memory leak detected"), { name: "MaxListenersExceededWarning" }),
      );
    });
    expect(defaultPrinted).toBe(0);
    expect(parsed(lines.stderr)).toEqual([
      expect.objectContaining({
        level: "warn",
        msg: "Possible EventEmitter memory leak detected",
        warning: "MaxListenersExceededWarning",
      }),
    ]);
  });
});
