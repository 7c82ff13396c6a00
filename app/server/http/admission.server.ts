import { AsyncLocalStorage } from "node:async_hooks";
import type { NextFunction, Request, Response } from "express";
import { PG_POOL_SIZE } from "../db/client.server";
import { env, type Env } from "../env.server";

/**
 * Admission into the app's pipeline (docs/decisions/0026-request-admission.md): at most `limit`
 * requests are worked on at once, the rest wait their turn in arrival order.
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
   * request stuck on a slow outside service must not take the server's capacity with it.
   */
  slotTimeoutMs: number;
}

type State = "waiting" | "held" | "away" | "done";

interface Slot {
  state: State;
  timer?: NodeJS.Timeout;
  /** Runs the request (or resumes it after waitOutside) once a slot is free. */
  resume: () => void;
  /** A request that already ran is let go on when its client leaves while it waits to resume. */
  resumeOnLeave?: boolean;
}

export interface Admission {
  middleware: (req: Request, res: Response, next: NextFunction) => void;
  /**
   * Runs work that waits off the event loop (password hashing on libuv's thread pool, a call to an
   * outside service) with the request's slot given back meanwhile, so waiting requests use the CPU.
   * The request goes to the front of the queue when the work is done. Outside a request it only runs
   * the work. Not inside a database transaction: on PGlite an open transaction stops every other
   * request's queries, and those would hold the slots this request waits for (until the slot timeout).
   */
  waitOutside: <T>(work: () => Promise<T>) => Promise<T>;
  /** Requests being worked on and waiting (for tests and the health of the process). */
  stats: () => { active: number; waiting: number };
}

export function createAdmission({ limit, maxWaiting, slotTimeoutMs }: AdmissionOptions): Admission {
  let active = 0;
  const queue: Slot[] = [];
  const slotOfRequest = new AsyncLocalStorage<Slot>();

  function hold(slot: Slot) {
    active++;
    slot.state = "held";
    slot.timer = setTimeout(() => giveBack(slot, "away"), slotTimeoutMs);
    slot.timer.unref();
  }

  function giveBack(slot: Slot, next: State) {
    if (slot.state === "held") {
      clearTimeout(slot.timer);
      active--;
    } else if (slot.state === "waiting") {
      const at = queue.indexOf(slot);
      if (at >= 0) queue.splice(at, 1);
      if (slot.resumeOnLeave) {
        slot.state = next;
        slot.resume();
      }
    }
    slot.state = next;
    while (active < limit && queue.length > 0) {
      const first = queue.shift()!;
      hold(first);
      first.resume();
    }
  }

  function middleware(_req: Request, res: Response, next: NextFunction) {
    if (active >= limit && queue.length >= maxWaiting) {
      res
        .status(503)
        .set("Retry-After", "5")
        .set("Cache-Control", "no-store")
        .type("text/plain")
        .send("The server is busy. Please try again in a few seconds.");
      return;
    }
    const slot: Slot = { state: "waiting", resume: () => slotOfRequest.run(slot, next) };
    // A client that leaves while waiting is dropped from the queue: nothing is worked on for nobody.
    const done = () => giveBack(slot, "done");
    res.once("finish", done);
    res.once("close", done);
    if (active < limit) {
      hold(slot);
      slot.resume();
    } else queue.push(slot);
  }

  async function waitOutside<T>(work: () => Promise<T>): Promise<T> {
    const slot = slotOfRequest.getStore();
    if (!slot || slot.state !== "held") return work();
    giveBack(slot, "away");
    try {
      return await work();
    } finally {
      // The client may have left meanwhile ("done"): then there is nothing to take back.
      if ((slot.state as State) === "away") {
        if (active < limit) hold(slot);
        else
          await new Promise<void>((resolve) => {
            slot.state = "waiting";
            slot.resume = resolve;
            slot.resumeOnLeave = true;
            queue.unshift(slot);
          });
      }
    }
  }

  return { middleware, waitOutside, stats: () => ({ active, waiting: queue.length }) };
}

/** Requests that may wait per process before the server answers 503. */
export const MAX_WAITING_REQUESTS = 1000;
/** A request holding a slot longer than this stops counting against the limit. */
export const SLOT_TIMEOUT_MS = 5000;

let shared: Admission | undefined;

/**
 * Requests worked on at once: REQUEST_CONCURRENCY, else 4 on PGlite, whose queries are CPU in this
 * process, and the pool's size on PostgreSQL, whose queries are waits on the network (with fewer slots
 * than connections, a distant database would leave the CPU idle).
 */
export function defaultConcurrency(e: Pick<Env, "REQUEST_CONCURRENCY" | "DATABASE_URL">): number {
  return e.REQUEST_CONCURRENCY ?? (e.DATABASE_URL ? PG_POOL_SIZE : 4);
}

/** The process's admission (created on first use). */
export function requestAdmission(): Admission {
  shared ??= createAdmission({
    limit: defaultConcurrency(env()),
    maxWaiting: MAX_WAITING_REQUESTS,
    slotTimeoutMs: SLOT_TIMEOUT_MS,
  });
  return shared;
}

/** Admission.waitOutside for the process's admission; outside a request it runs the work. */
export function waitOutside<T>(work: () => Promise<T>): Promise<T> {
  return shared ? shared.waitOutside(work) : work();
}
