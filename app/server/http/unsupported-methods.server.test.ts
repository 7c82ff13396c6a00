import { EventEmitter } from "node:events";
import type { Duplex } from "node:stream";
import type { NextFunction, Request, Response } from "express";
import { describe, expect, it } from "vitest";
import {
  allowedMethods,
  answerClientError,
  refuseConnect,
  refuseMethodsRoutesLack,
  refuseUnimplementedMethod,
} from "./unsupported-methods.server";

const build = {
  basename: undefined,
  routes: {
    root: { id: "root", path: "", module: { default: () => null } },
    layout: { id: "layout", parentId: "root", module: { default: () => null } },
    home: { id: "home", parentId: "layout", index: true, module: { default: () => null } },
    training: { id: "training", parentId: "layout", path: "live-training", module: { default: () => null, action: () => null } },
    callback: { id: "callback", parentId: "root", path: "api/callback", module: { loader: () => null, action: () => null } },
    robots: { id: "robots", parentId: "root", path: "robots.txt", module: { loader: () => null } },
    notFound: { id: "notFound", parentId: "layout", path: "*", module: { default: () => null } },
  },
} as unknown as Parameters<typeof allowedMethods>[0];

/** What a middleware answered: its status, headers and body, or that it passed the request on. */
function run(middleware: (req: Request, res: Response, next: NextFunction) => void, method: string, path = "/") {
  const answer: { status?: number; headers: Record<string, string>; body?: unknown; passed: boolean } = {
    headers: {},
    passed: false,
  };
  const res = {
    status(code: number) {
      answer.status = code;
      return res;
    },
    set(headers: Record<string, string>) {
      Object.assign(answer.headers, headers);
      return res;
    },
    type(type: string) {
      answer.headers["Content-Type"] = type;
      return res;
    },
    send(body: unknown) {
      answer.body = body;
      return res;
    },
    json(body: unknown) {
      answer.body = body;
      return res;
    },
  };
  middleware({ method, path } as Request, res as unknown as Response, () => (answer.passed = true));
  return answer;
}

describe("unsupported methods", () => {
  it("501 for every method no resource here takes, before anything else; the rest pass", () => {
    for (const method of ["TRACE", "CONNECT", "TRACK", "PROPFIND", "MKCOL", "PURGE", "SEARCH", "QUERY"]) {
      expect(run(refuseUnimplementedMethod, method)).toMatchObject({ status: 501, passed: false });
    }
    for (const method of ["GET", "HEAD", "POST", "OPTIONS", "PUT", "PATCH", "DELETE"]) {
      expect(run(refuseUnimplementedMethod, method).passed).toBe(true);
    }
  });

  it("405 with the route's Allow for OPTIONS, PUT, PATCH and DELETE; JSON under /api", () => {
    const guard = refuseMethodsRoutesLack(build);
    expect(run(guard, "PUT", "/live-training")).toMatchObject({ status: 405, headers: { Allow: "GET, HEAD, POST" } });
    expect(run(guard, "DELETE", "/")).toMatchObject({ status: 405, headers: { Allow: "GET, HEAD" }, body: "Method Not Allowed" });
    expect(run(guard, "OPTIONS", "/robots.txt")).toMatchObject({ status: 405, headers: { Allow: "GET, HEAD" } });
    expect(run(guard, "PATCH", "/api/callback")).toMatchObject({ status: 405, body: { error: "Method not allowed" } });
    expect(run(guard, "PUT", "/no/such/page")).toMatchObject({ status: 405, headers: { Allow: "GET, HEAD" } });
    for (const method of ["GET", "HEAD", "POST"]) expect(run(guard, method, "/live-training").passed).toBe(true);
  });

  it("a data request's Allow is its page's", () => {
    const allowed = allowedMethods(build);
    expect(allowed("/live-training.data")).toBe("GET, HEAD, POST");
    expect(allowed("/_root.data")).toBe("GET, HEAD");
  });
});

/** A socket that records what was written to it and whether it was destroyed. */
function fakeSocket(options: { writable?: boolean; answering?: boolean } = {}) {
  const socket = Object.assign(new EventEmitter(), {
    writable: options.writable ?? true,
    written: "",
    destroyed: false,
    _httpMessage: options.answering ? { headersSent: true } : undefined,
    end(text: string, done?: () => void) {
      socket.written += text;
      done?.();
    },
    destroy() {
      socket.destroyed = true;
    },
  });
  return socket;
}

describe("requests that never reach Express", () => {
  it("a method Node's parser does not know is a 501, other parse errors what Node answers", () => {
    const cases: [string | undefined, string][] = [
      ["HPE_INVALID_METHOD", "HTTP/1.1 501 Not Implemented"],
      ["HPE_HEADER_OVERFLOW", "HTTP/1.1 431 Request Header Fields Too Large"],
      ["HPE_INVALID_HEADER_TOKEN", "HTTP/1.1 400 Bad Request"],
      [undefined, "HTTP/1.1 400 Bad Request"],
    ];
    for (const [code, statusLine] of cases) {
      const socket = fakeSocket();
      answerClientError(Object.assign(new Error("Parse Error"), { code }), socket as unknown as Duplex);
      expect(socket.written.split("\r\n")[0]).toBe(statusLine);
      expect(socket.written).toContain("Connection: close\r\n");
      expect(socket.destroyed).toBe(true);
    }
  });

  it("writes nothing into a connection that is gone or already answering", () => {
    for (const socket of [fakeSocket({ writable: false }), fakeSocket({ answering: true })]) {
      answerClientError(Object.assign(new Error("Parse Error"), { code: "HPE_INVALID_METHOD" }), socket as unknown as Duplex);
      expect(socket.written).toBe("");
      expect(socket.destroyed).toBe(true);
    }
  });

  it("a CONNECT is a 501, and an error on its socket afterwards is not an uncaught one", () => {
    const socket = fakeSocket();
    refuseConnect({} as never, socket as unknown as Duplex);
    expect(socket.written.split("\r\n")[0]).toBe("HTTP/1.1 501 Not Implemented");
    expect(() => socket.emit("error", new Error("ECONNRESET"))).not.toThrow();
  });
});
