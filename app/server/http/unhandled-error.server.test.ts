import type { NextFunction, Request, Response } from "express";
import { afterEach, describe, expect, it, vi } from "vitest";
import { answerUnhandledError } from "./unhandled-error.server";

afterEach(() => {
  vi.restoreAllMocks();
});

function respond(error: unknown, headersSent = false) {
  const lines: string[] = [];
  vi.spyOn(console, "error").mockImplementation((line: unknown) => void lines.push(String(line)));
  const answer: { status?: number; body?: unknown; destroyed: boolean } = { destroyed: false };
  const res = {
    headersSent,
    status: (code: number) => ((answer.status = code), res),
    set: () => res,
    type: () => res,
    send: (body: unknown) => ((answer.body = body), res),
  };
  const req = {
    method: "TRACE",
    path: "/apps",
    originalUrl: "/apps?email=ada@example.com",
    socket: { destroy: () => (answer.destroyed = true) },
  };
  answerUnhandledError(error, req as unknown as Request, res as unknown as Response, (() => {}) as NextFunction);
  return { answer, lines };
}

describe("answerUnhandledError", () => {
  it("answers a plain 500 and logs one JSON line with the method, path and stack, not the query", () => {
    const { answer, lines } = respond(new TypeError("'TRACE' HTTP method is unsupported."));
    expect(answer).toMatchObject({ status: 500, body: "Internal Server Error" });
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({
      level: "error",
      method: "TRACE",
      path: "/apps",
      error: expect.stringMatching(/^TypeError: 'TRACE' HTTP method is unsupported\.\n\s+at /),
    });
    expect(lines[0]).not.toContain("email");
  });

  it("keeps a library's 4xx, unlogged", () => {
    const { answer, lines } = respond(Object.assign(new Error("Failed to decode param"), { status: 400 }));
    expect(answer).toMatchObject({ status: 400, body: "Bad Request" });
    expect(lines).toEqual([]);
  });

  it("closes the connection when part of the answer already went out", () => {
    const { answer } = respond(new Error("stream broke"), true);
    expect(answer).toEqual({ destroyed: true });
  });
});
