import { createHmac } from "node:crypto";
import { EventEmitter } from "node:events";
import http from "node:http";
import type { AddressInfo } from "node:net";
import express, { type NextFunction, type Request, type Response } from "express";
import { afterEach, describe, expect, it, vi } from "vitest";
import { admissionClient, createAdmission, defaultConcurrency, type Admission } from "./admission.server";
import { CLIENT_IP_HEADER } from "./client-ip.server";

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

/**
 * Sends one request through the middleware; `started` says whether the app got to work on it.
 * `headers`: the client's (its address as the HTTP server wrote it, its cookie).
 */
function send(admission: Admission, name: string, started: string[], method = "GET", headers: Record<string, string> = {}) {
  const res = new FakeResponse();
  const next: NextFunction = () => started.push(name);
  admission.middleware({ method, headers } as unknown as Request, res as unknown as Response, next);
  return res;
}

/** A client's headers from one IPv6 address, with a cookie when given. */
const headers = (cookie?: string) => ({ [CLIENT_IP_HEADER]: "2001:db8:1:2:3:4:5:6", ...(cookie ? { cookie } : {}) });

/** Answers the oldest request the app is working on (started, not yet answered): one turn. */
function answerOldest(started: string[], answers: Map<string, FakeResponse>) {
  const oldest = started.find((name) => answers.get(name)!.listenerCount("prefinish") > 0);
  if (!oldest) throw new Error("nothing is being worked on");
  answers.get(oldest)!.answer();
}

/** A request from the client at address `ip`. */
const from = (admission: Admission, ip: string, name: string, started: string[]) =>
  send(admission, name, started, "GET", { [CLIENT_IP_HEADER]: ip });

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

  it("with one client's 1,000 requests waiting, another client's request starts within two turns", () => {
    const admission = createAdmission({ limit: 2, maxWaiting: 5000, maxWaitingPerClient: 5000, slotTimeoutMs: 60_000 });
    const started: string[] = [];
    const answers = new Map<string, FakeResponse>();
    for (let i = 0; i < 1000; i++) answers.set(`flood-${i}`, from(admission, "198.51.100.1", `flood-${i}`, started));
    answers.set("visitor", from(admission, "203.0.113.7", "visitor", started));
    expect(admission.stats()).toEqual({ active: 2, waiting: 999 });

    // A turn: the oldest request being worked on is answered, and its slot goes to the next in line.
    let turns = 0;
    while (!started.includes("visitor")) {
      answerOldest(started, answers);
      turns++;
    }
    expect(turns).toBeLessThanOrEqual(2);
    expect(started.filter((name) => name.startsWith("flood-")).length).toBeLessThanOrEqual(4);
  });

  it("serves waiting clients round robin, each client's own requests in arrival order", () => {
    const admission = createAdmission({ limit: 1, maxWaiting: 100, slotTimeoutMs: 60_000 });
    const started: string[] = [];
    const answers = new Map<string, FakeResponse>();
    const request = (ip: string, name: string) => answers.set(name, from(admission, ip, name, started));
    for (const name of ["a0", "a1", "a2", "a3"]) request("10.0.0.1", name);
    for (const name of ["b1", "b2"]) request("10.0.0.2", name);
    request("10.0.0.3", "c1");
    for (let i = 0; i < 6; i++) answerOldest(started, answers);
    expect(started).toEqual(["a0", "a1", "b1", "c1", "a2", "b2", "a3"]);
  });

  it("answers 429 with Retry-After past one client's share of the line; other clients still wait their turn", () => {
    const admission = createAdmission({ limit: 1, maxWaiting: 10, maxWaitingPerClient: 2, slotTimeoutMs: 60_000 });
    const started: string[] = [];
    const working = from(admission, "10.0.0.1", "a0", started);
    from(admission, "10.0.0.1", "a1", started);
    from(admission, "10.0.0.1", "a2", started);
    const refused = from(admission, "10.0.0.1", "a3", started);
    expect(refused.statusCode).toBe(429);
    expect(refused.headers["retry-after"]).toBe("5");
    expect(refused.body).toBe("Too many requests at once. Please try again in a few seconds.");
    const other = from(admission, "10.0.0.2", "b1", started);
    expect(other.statusCode).toBe(200);
    expect(admission.stats()).toEqual({ active: 1, waiting: 3 });
    working.answer();
    expect(started).toEqual(["a0", "a1"]);
    // The client's line has room again.
    expect(from(admission, "10.0.0.1", "a4", started).statusCode).toBe(200);
  });

  it("works out whose turn a request is only when it has to wait", () => {
    const clientOf = vi.fn<(req: Request) => string>((req) => String(req.headers[CLIENT_IP_HEADER]));
    const admission = createAdmission({ limit: 2, maxWaiting: 10, slotTimeoutMs: 60_000, clientOf });
    const started: string[] = [];
    const first = from(admission, "10.0.0.1", "a0", started);
    from(admission, "10.0.0.2", "b0", started);
    expect(clientOf).not.toHaveBeenCalled();
    from(admission, "10.0.0.1", "a1", started);
    from(admission, "10.0.0.3", "c1", started);
    expect(clientOf).toHaveBeenCalledTimes(2);
    first.answer();
    expect(started).toEqual(["a0", "b0", "a1"]);
  });

  it("drops a client that left from the rotation when its line empties", () => {
    const admission = createAdmission({ limit: 1, maxWaiting: 10, slotTimeoutMs: 60_000 });
    const started: string[] = [];
    const first = from(admission, "10.0.0.1", "a0", started);
    const gone = from(admission, "10.0.0.2", "b1", started);
    from(admission, "10.0.0.3", "c1", started);
    gone.emit("close");
    expect(admission.stats()).toEqual({ active: 1, waiting: 1 });
    first.answer();
    expect(started).toEqual(["a0", "c1"]);
  });

  it("a request's turn is its session's when the session cookie's signature is good, else its address's", () => {
    const secret = "s".repeat(32);
    const cookieName = "better-auth.session_token";
    const signed = (token: string) =>
      `${cookieName}=${encodeURIComponent(`${token}.${createHmac("sha256", secret).update(token).digest("base64")}`)}`;
    const session = { cookieName, secret: () => secret };
    expect(admissionClient({ headers: headers(signed("tok-1")) }, session)).toBe("session:tok-1");
    // Two sessions behind one address are two clients; a forged or missing signature is the address.
    expect(admissionClient({ headers: headers(signed("tok-2")) }, session)).toBe("session:tok-2");
    const address = admissionClient({ headers: headers() }, session);
    expect(admissionClient({ headers: headers(`${cookieName}=tok-3.forged`) }, session)).toBe(address);
    // Another secret, a changed token, a bare token, two session cookies, another name, bad encoding.
    const other = { cookieName, secret: () => "t".repeat(32) };
    expect(admissionClient({ headers: headers(signed("tok-1")) }, other)).toBe(address);
    const [, value = ""] = signed("tok-1").split("=", 2);
    expect(admissionClient({ headers: headers(`${cookieName}=tok-9${value.slice(5)}`) }, session)).toBe(address);
    expect(admissionClient({ headers: headers(`${cookieName}=tok-1`) }, session)).toBe(address);
    expect(admissionClient({ headers: headers(`${signed("tok-1")}; ${signed("tok-2")}`) }, session)).toBe(address);
    expect(admissionClient({ headers: headers(signed("tok-1").replace(cookieName, `__Secure-${cookieName}`)) }, session)).toBe(
      address,
    );
    expect(admissionClient({ headers: headers(`${cookieName}=%E0%A4%A`) }, session)).toBe(address);
    // Other cookies beside it do not matter.
    expect(admissionClient({ headers: headers(`sidebar_state=true; ${signed("tok-1")}; ref=a`) }, session)).toBe("session:tok-1");
    // An IPv6 client is its /64, whichever address in it it uses.
    expect(admissionClient({ headers: { [CLIENT_IP_HEADER]: "2001:db8:1:2:ffff::9" } })).toBe(address);
    // Before boot there is no secret yet: the address.
    const booting = {
      cookieName,
      secret: (): string => {
        throw new Error("not booted");
      },
    };
    expect(admissionClient({ headers: headers(signed("tok-1")) }, booting)).toBe(address);
  });

  it("defaults to 4 on PGlite and to the pool's connections (PG_POOL_SIZE) on PostgreSQL; REQUEST_CONCURRENCY wins", () => {
    const pool = { PG_POOL_SIZE: 10 };
    expect(defaultConcurrency({ ...pool, REQUEST_CONCURRENCY: undefined, DATABASE_URL: undefined })).toBe(4);
    expect(defaultConcurrency({ ...pool, REQUEST_CONCURRENCY: undefined, DATABASE_URL: "postgres://db/app" })).toBe(10);
    expect(defaultConcurrency({ PG_POOL_SIZE: 25, REQUEST_CONCURRENCY: undefined, DATABASE_URL: "postgres://db/app" })).toBe(25);
    expect(defaultConcurrency({ ...pool, REQUEST_CONCURRENCY: 2, DATABASE_URL: "postgres://db/app" })).toBe(2);
  });
});

describe("request admission behind Express, over real connections", () => {
  let server: http.Server | undefined;
  afterEach(async () => {
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    server = undefined;
  });

  it("with 200 of one address's requests waiting, another address's request is answered within two turns", async () => {
    const admission = createAdmission({ limit: 1, maxWaiting: 1000, maxWaitingPerClient: 1000, slotTimeoutMs: 60_000 });
    // As server/app.ts: the client address from the socket, then admission, then the app, which here
    // holds every answer until the test gives it one turn.
    const app = express();
    app.use((req, _res, next) => {
      req.headers[CLIENT_IP_HEADER] = req.socket.remoteAddress ?? "unknown";
      next();
    });
    app.use(admission.middleware);
    const working: { name: string; res: express.Response }[] = [];
    app.get("/page", (req, res) => {
      working.push({ name: String(req.query.name), res });
    });
    server = http.createServer(app);
    await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
    const answered: string[] = [];
    const get = (name: string, localAddress: string) =>
      new Promise<void>((resolve, reject) => {
        http
          .get({ host: "127.0.0.1", port, path: `/page?name=${name}`, localAddress, agent }, (res) => {
            res.resume();
            res.on("end", () => {
              answered.push(name);
              resolve();
            });
          })
          .on("error", reject);
      });
    const turn = () => {
      const oldest = working.shift()!;
      oldest.res.send("ok");
    };

    const flood = Array.from({ length: 200 }, (_, i) => get(`flood-${i}`, "127.0.0.2"));
    await vi.waitFor(() => expect(admission.stats()).toEqual({ active: 1, waiting: 199 }), { timeout: 30_000 });
    const visitor = get("visitor", "127.0.0.3");
    await vi.waitFor(() => expect(admission.stats().waiting).toBe(200), { timeout: 30_000 });

    let turns = 0;
    while (!working.some((w) => w.name === "visitor")) {
      turn();
      turns++;
      await vi.waitFor(() => expect(working.length).toBe(1), { timeout: 30_000 });
    }
    expect(turns).toBeLessThanOrEqual(2);
    turn();
    await visitor;
    expect(answered.filter((name) => name.startsWith("flood-")).length).toBeLessThanOrEqual(2);
    // The rest of the burst, a turn each.
    for (let left = 200 - turns; left > 0; left--) {
      await vi.waitFor(() => expect(working.length).toBe(1), { timeout: 30_000 });
      turn();
    }
    await Promise.all(flood);
    agent.destroy();
  }, 60_000);
});
