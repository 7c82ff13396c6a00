import { createHmac, timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { NextFunction, Request, Response } from "express";
import { env, type Env } from "../env.server";
import { CLIENT_IP_HEADER, ipKey } from "./client-ip.server";

/**
 * Admission into the app's pipeline (docs/decisions/0026-request-admission.md): at most `limit` page
 * and data requests are worked on at once, the rest wait their turn.
 *
 * Node accepts one new connection, and serves one page-cache hit, per turn of its event loop, and a
 * turn runs a step of every request in flight. With many signed-in pages rendering at once a turn
 * grew long, so a visitor opening `/` (a cached page) waited for every render in flight, and the last
 * of many new connections waited seconds. With a few requests at a time a turn is short, and waiting requests are
 * answered in turn instead of all slowly together.
 *
 * The turns are fair between clients (docs/decisions/0031-fair-admission.md): each client (a
 * signed-in session, else a client address) waits in a line of its own, and a free slot goes to the
 * next client in round-robin order, so one client's thousand requests delay another's by one
 * request each, not a thousand. A client may keep `maxWaitingPerClient` requests waiting; more are
 * answered 429.
 */
export interface AdmissionOptions {
  /** Requests worked on at once. */
  limit: number;
  /** Requests that may wait, all clients together; one more is answered 503 with Retry-After. */
  maxWaiting: number;
  /** Requests one client may have waiting; one more is answered 429 with Retry-After. Default: maxWaiting. */
  maxWaitingPerClient?: number;
  /**
   * A request holding a slot this long stops counting against the limit (it goes on running): a
   * request stuck on something slow must not take the server's capacity with it.
   */
  slotTimeoutMs: number;
  /** Whose turn a request is: default, its client address (admissionClient without a session). */
  clientOf?: (req: Request) => string;
  /** Told how long each admitted request waited for its slot (0 for one admitted at once). */
  onAdmit?: (waitedSeconds: number) => void;
  /** Told of each request refused (503: the line is full; 429: the client's line is). */
  onRefuse?: (status: 429 | 503) => void;
}

type State = "waiting" | "held" | "overtime" | "done";

interface Slot {
  state: State;
  /** The client whose line it waits in; "" for a request admitted at once. */
  client: string;
  /** performance.now() when it joined a line. */
  queuedAt?: number;
  timer?: NodeJS.Timeout;
  start: () => void;
}

export interface Admission {
  middleware: (req: Request, res: Response, next: NextFunction) => void;
  /** Requests being worked on and waiting (for tests). */
  stats: () => { active: number; waiting: number };
}

const SIGNATURE = /^[A-Za-z0-9+/]{43}=$/;

/**
 * The session token of a cookie header holding exactly one session cookie signed with `secret`, in
 * Better Auth's form (`<token>.<base64 HMAC-SHA256(token)>`, URI-encoded); anything else is null.
 * Only a key for taking turns: whether the session is alive is Better Auth's question, asked by
 * requireUser once the request is admitted.
 */
function signedSessionToken(cookieHeader: string, cookieName: string, secret: string): string | null {
  let value: string | null = null;
  for (const part of cookieHeader.split(";")) {
    const eq = part.indexOf("=");
    if (eq < 0 || part.slice(0, eq).trim() !== cookieName) continue;
    if (value !== null) return null;
    value = part.slice(eq + 1).trim();
  }
  if (value === null) return null;
  let decoded: string;
  try {
    decoded = decodeURIComponent(value);
  } catch {
    return null;
  }
  const dot = decoded.lastIndexOf(".");
  if (dot < 1) return null;
  const token = decoded.slice(0, dot);
  const signature = decoded.slice(dot + 1);
  if (!SIGNATURE.test(signature)) return null;
  const expected = createHmac("sha256", secret).update(token).digest();
  const given = Buffer.from(signature, "base64");
  return given.length === expected.length && timingSafeEqual(given, expected) ? token : null;
}

/**
 * Whose turn a request is: its session when it carries a session cookie whose signature is good
 * (checked with the secret, no database read; a forged value is not a session), else its client
 * address as the HTTP server determined it, an IPv6 client by its /64.
 */
export function admissionClient(
  req: Pick<IncomingMessage, "headers">,
  session?: { cookieName: string; secret: () => string },
): string {
  const cookie = req.headers?.cookie;
  if (session && cookie) {
    let token: string | null = null;
    try {
      token = signedSessionToken(cookie, session.cookieName, session.secret());
    } catch {
      // No secret yet (the server is still booting): the address.
    }
    if (token) return `session:${token}`;
  }
  const ip = req.headers?.[CLIENT_IP_HEADER];
  return `ip:${ipKey(typeof ip === "string" ? ip : "unknown")}`;
}

function refuse(res: Response, status: number, text: string) {
  res.status(status).set("Retry-After", "5").set("Cache-Control", "no-store").type("text/plain").send(text);
}

export function createAdmission({
  limit,
  maxWaiting,
  maxWaitingPerClient = maxWaiting,
  slotTimeoutMs,
  clientOf = (req) => admissionClient(req),
  onAdmit,
  onRefuse,
}: AdmissionOptions): Admission {
  let active = 0;
  let waiting = 0;
  /** Each client's waiting requests, in arrival order. */
  const lines = new Map<string, Slot[]>();
  /** The clients with a request waiting, in the order their next request gets a slot. */
  const turns: string[] = [];

  function hold(slot: Slot) {
    onAdmit?.(slot.queuedAt === undefined ? 0 : (performance.now() - slot.queuedAt) / 1000);
    active++;
    slot.state = "held";
    slot.timer = setTimeout(() => leave(slot, "overtime"), slotTimeoutMs);
    slot.timer.unref();
  }

  function dropWaiting(slot: Slot) {
    const line = lines.get(slot.client);
    const at = line ? line.indexOf(slot) : -1;
    if (!line || at < 0) return;
    line.splice(at, 1);
    waiting--;
    if (line.length === 0) {
      lines.delete(slot.client);
      turns.splice(turns.indexOf(slot.client), 1);
    }
  }

  function leave(slot: Slot, next: State) {
    if (slot.state === "held") {
      clearTimeout(slot.timer);
      active--;
    } else if (slot.state === "waiting") dropWaiting(slot);
    slot.state = next;
    while (active < limit && turns.length > 0) {
      // Round robin: the next client's oldest request; the client goes to the back if it has more.
      const client = turns.shift()!;
      const line = lines.get(client)!;
      const first = line.shift()!;
      waiting--;
      if (line.length > 0) turns.push(client);
      else lines.delete(client);
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
    if (active >= limit && waiting >= maxWaiting) {
      onRefuse?.(503);
      refuse(res, 503, "The server is busy. Please try again in a few seconds.");
      return;
    }
    // Whose turn a request is matters only when it has to wait: one admitted at once skips working
    // out its client (a signature check of its session cookie).
    const client = active < limit ? "" : clientOf(req);
    const line = client ? lines.get(client) : undefined;
    if (line && line.length >= maxWaitingPerClient) {
      onRefuse?.(429);
      refuse(res, 429, "Too many requests at once. Please try again in a few seconds.");
      return;
    }
    const slot: Slot = { state: "waiting", client, start: next };
    // The slot is free once the app has handed the whole answer over ("prefinish", at res.end()), not
    // when a slow client has read it ("finish"). A client that leaves while waiting is dropped from its
    // line: nothing is worked on for nobody.
    const done = () => leave(slot, "done");
    res.once("prefinish", done);
    res.once("close", done);
    if (active < limit) {
      hold(slot);
      next();
      return;
    }
    waiting++;
    if (onAdmit) slot.queuedAt = performance.now();
    if (line) line.push(slot);
    else {
      lines.set(client, [slot]);
      turns.push(client);
    }
  }

  return { middleware, stats: () => ({ active, waiting }) };
}

/** Requests that may wait per process before the server answers 503. */
const MAX_WAITING_REQUESTS = 1000;
/**
 * Requests one client may have waiting before it is answered 429: a tenth of the line, far more than
 * a browser opens at once (a page and its data requests), room for an office behind one address.
 */
const MAX_WAITING_PER_CLIENT = 100;
/** A request holding a slot longer than this stops counting against the limit. */
const SLOT_TIMEOUT_MS = 5000;

/**
 * Requests worked on at once: REQUEST_CONCURRENCY, else 4 on PGlite, whose queries are CPU in this
 * process, and the pool's size on PostgreSQL, whose queries are waits on the network (with fewer slots
 * than connections, a distant database would leave the CPU idle).
 */
export function defaultConcurrency(e: Pick<Env, "REQUEST_CONCURRENCY" | "DATABASE_URL" | "PG_POOL_SIZE">): number {
  return e.REQUEST_CONCURRENCY ?? (e.DATABASE_URL ? e.PG_POOL_SIZE : 4);
}

let shared: Admission | undefined;

/**
 * The process's admission (created on first use). `session`: the session cookie's name and the
 * secret that signs it, so a signed-in visitor's requests are its session's turns. `observe`: what
 * /metrics is told of waits and refusals.
 */
export function requestAdmission(
  session?: { cookieName: string; secret: () => string },
  observe?: Pick<AdmissionOptions, "onAdmit" | "onRefuse">,
): Admission {
  shared ??= createAdmission({
    ...observe,
    limit: defaultConcurrency(env()),
    maxWaiting: MAX_WAITING_REQUESTS,
    maxWaitingPerClient: MAX_WAITING_PER_CLIENT,
    slotTimeoutMs: SLOT_TIMEOUT_MS,
    clientOf: (req) => admissionClient(req, session),
  });
  return shared;
}
