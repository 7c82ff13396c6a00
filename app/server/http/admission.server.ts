import type { NextFunction, Request, Response } from "express";
import { PG_POOL_SIZE } from "../db/client.server";
import { env, type Env } from "../env.server";

/**
 * Admission into the app's pipeline (docs/decisions/0026-request-admission.md): at most `limit` page
 * and data requests are worked on at once, the rest wait their turn in arrival order.
 *
 * Node accepts one new connection, and serves one page-cache hit, per turn of its event loop, and a
 * turn runs a step of every request in flight. With 64 signed-in pages rendering at once a turn took
 * about 100 ms, so a visitor opening `/` (a cached page) waited 200 ms or more, and the last of 64 new
 * connections seconds. With a few requests at a time a turn is short, and waiting requests are
 * answered in the order they came instead of all slowly together.
 */
export interface AdmissionOptions {
  /** Requests worked on at once. */
  limit: number;
  /** Requests that may wait; one more is answered 503 with Retry-After. */
  maxWaiting: number;
  /**
   * A request holding a slot this long stops counting against the limit (it goes on running): a
   * request stuck on something slow must not take the server's capacity with it.
   */
  slotTimeoutMs: number;
}

type State = "waiting" | "held" | "overtime" | "done";

interface Slot {
  state: State;
  timer?: NodeJS.Timeout;
  start: () => void;
}

export interface Admission {
  middleware: (req: Request, res: Response, next: NextFunction) => void;
  /** Requests being worked on and waiting (for tests). */
  stats: () => { active: number; waiting: number };
}

export function createAdmission({ limit, maxWaiting, slotTimeoutMs }: AdmissionOptions): Admission {
  let active = 0;
  const queue: Slot[] = [];

  function hold(slot: Slot) {
    active++;
    slot.state = "held";
    slot.timer = setTimeout(() => leave(slot, "overtime"), slotTimeoutMs);
    slot.timer.unref();
  }

  function leave(slot: Slot, next: State) {
    if (slot.state === "held") {
      clearTimeout(slot.timer);
      active--;
    } else if (slot.state === "waiting") {
      const at = queue.indexOf(slot);
      if (at >= 0) queue.splice(at, 1);
    }
    slot.state = next;
    while (active < limit && queue.length > 0) {
      const first = queue.shift()!;
      hold(first);
      first.start();
    }
  }

  function middleware(req: Request, res: Response, next: NextFunction) {
    // A request with a body is not held in line: its body arrives at the client's pace, so a slow
    // sender would hold a slot (a cheap way to stall everyone). Actions are few, and they are people
    // paying, signing up or asking to be called.
    if (req.method !== "GET" && req.method !== "HEAD") {
      next();
      return;
    }
    if (active >= limit && queue.length >= maxWaiting) {
      res
        .status(503)
        .set("Retry-After", "5")
        .set("Cache-Control", "no-store")
        .type("text/plain")
        .send("The server is busy. Please try again in a few seconds.");
      return;
    }
    const slot: Slot = { state: "waiting", start: next };
    // The slot is free once the app has handed the whole answer over ("prefinish", at res.end()), not
    // when a slow client has read it ("finish"). A client that leaves while waiting is dropped from the
    // queue: nothing is worked on for nobody.
    const done = () => leave(slot, "done");
    res.once("prefinish", done);
    res.once("close", done);
    if (active < limit) {
      hold(slot);
      next();
    } else queue.push(slot);
  }

  return { middleware, stats: () => ({ active, waiting: queue.length }) };
}

/** Requests that may wait per process before the server answers 503. */
export const MAX_WAITING_REQUESTS = 1000;
/** A request holding a slot longer than this stops counting against the limit. */
export const SLOT_TIMEOUT_MS = 5000;

/**
 * Requests worked on at once: REQUEST_CONCURRENCY, else 4 on PGlite, whose queries are CPU in this
 * process, and the pool's size on PostgreSQL, whose queries are waits on the network (with fewer slots
 * than connections, a distant database would leave the CPU idle).
 */
export function defaultConcurrency(e: Pick<Env, "REQUEST_CONCURRENCY" | "DATABASE_URL">): number {
  return e.REQUEST_CONCURRENCY ?? (e.DATABASE_URL ? PG_POOL_SIZE : 4);
}

let shared: Admission | undefined;

/** The process's admission (created on first use). */
export function requestAdmission(): Admission {
  shared ??= createAdmission({
    limit: defaultConcurrency(env()),
    maxWaiting: MAX_WAITING_REQUESTS,
    slotTimeoutMs: SLOT_TIMEOUT_MS,
  });
  return shared;
}
