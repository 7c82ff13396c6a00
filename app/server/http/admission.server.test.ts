import { EventEmitter } from "node:events";
import type { NextFunction, Request, Response } from "express";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createAdmission, defaultConcurrency, type Admission } from "./admission.server";

/** Just enough of Express's response: the events admission listens to and the 503's chain. */
class FakeResponse extends EventEmitter {
  statusCode = 200;
  headers: Record<string, string> = {};
  body: string | undefined;
  status(code: number) {
    this.statusCode = code;
    return this;
  }
  set(name: string, value: string) {
    this.headers[name.toLowerCase()] = value;
    return this;
  }
  type(value: string) {
    return this.set("content-type", value);
  }
  send(body: string) {
    this.body = body;
    this.answer();
    return this;
  }
  /** The handler answered: Node emits prefinish at res.end(), finish once sent, then close. */
  answer() {
    this.emit("prefinish");
    this.emit("finish");
    this.emit("close");
  }
}

/** Sends one request through the middleware; `started` says whether the app got to work on it. */
function send(admission: Admission, name: string, started: string[], method = "GET") {
  const res = new FakeResponse();
  const next: NextFunction = () => started.push(name);
  admission.middleware({ method } as Request, res as unknown as Response, next);
  return res;
}

describe("request admission", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("works on at most `limit` requests at once and lets the rest in by arrival order", () => {
    const admission = createAdmission({ limit: 2, maxWaiting: 10, slotTimeoutMs: 60_000 });
    const started: string[] = [];
    const [a, b] = ["a", "b", "c", "d"].map((name) => send(admission, name, started));
    expect(started).toEqual(["a", "b"]);
    expect(admission.stats()).toEqual({ active: 2, waiting: 2 });
    b!.answer();
    expect(started).toEqual(["a", "b", "c"]);
    a!.answer();
    expect(started).toEqual(["a", "b", "c", "d"]);
    expect(admission.stats()).toEqual({ active: 2, waiting: 0 });
  });

  it("frees the slot when the answer is handed over, before a slow client has read it", () => {
    const admission = createAdmission({ limit: 1, maxWaiting: 10, slotTimeoutMs: 60_000 });
    const started: string[] = [];
    const first = send(admission, "first", started);
    send(admission, "second", started);
    first.emit("prefinish");
    expect(started).toEqual(["first", "second"]);
  });

  it("does not hold a request with a body in line, so a slow sender cannot keep a slot", () => {
    const admission = createAdmission({ limit: 1, maxWaiting: 10, slotTimeoutMs: 60_000 });
    const started: string[] = [];
    send(admission, "page", started);
    send(admission, "sign-in", started, "POST");
    send(admission, "another page", started);
    expect(started).toEqual(["page", "sign-in"]);
    expect(admission.stats()).toEqual({ active: 1, waiting: 1 });
  });

  it("never starts a request whose client left while it waited", () => {
    const admission = createAdmission({ limit: 1, maxWaiting: 10, slotTimeoutMs: 60_000 });
    const started: string[] = [];
    const first = send(admission, "first", started);
    const gone = send(admission, "gone", started);
    send(admission, "third", started);
    gone.emit("close");
    expect(admission.stats()).toEqual({ active: 1, waiting: 1 });
    first.answer();
    expect(started).toEqual(["first", "third"]);
  });

  it("answers 503 with Retry-After once the waiting line is full, and starts nothing for it", () => {
    const admission = createAdmission({ limit: 1, maxWaiting: 1, slotTimeoutMs: 60_000 });
    const started: string[] = [];
    send(admission, "working", started);
    send(admission, "waiting", started);
    const refused = send(admission, "refused", started);
    expect(refused.statusCode).toBe(503);
    expect(refused.headers["retry-after"]).toBe("5");
    expect(refused.body).toBe("The server is busy. Please try again in a few seconds.");
    expect(started).toEqual(["working"]);
    expect(admission.stats()).toEqual({ active: 1, waiting: 1 });
  });

  it("stops counting a request that holds its slot too long, so the next one starts", () => {
    vi.useFakeTimers();
    const admission = createAdmission({ limit: 1, maxWaiting: 10, slotTimeoutMs: 5000 });
    const started: string[] = [];
    const stuck = send(admission, "stuck", started);
    send(admission, "next", started);
    vi.advanceTimersByTime(4999);
    expect(started).toEqual(["stuck"]);
    vi.advanceTimersByTime(1);
    expect(started).toEqual(["stuck", "next"]);
    // Its late answer does not free a second slot.
    stuck.answer();
    expect(admission.stats()).toEqual({ active: 1, waiting: 0 });
  });

  it("defaults to 4 on PGlite and to the pool's 10 connections on PostgreSQL; REQUEST_CONCURRENCY wins", () => {
    expect(defaultConcurrency({ REQUEST_CONCURRENCY: undefined, DATABASE_URL: undefined })).toBe(4);
    expect(defaultConcurrency({ REQUEST_CONCURRENCY: undefined, DATABASE_URL: "postgres://db/app" })).toBe(10);
    expect(defaultConcurrency({ REQUEST_CONCURRENCY: 2, DATABASE_URL: "postgres://db/app" })).toBe(2);
  });
});
