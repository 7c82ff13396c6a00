// @ts-check
import { createServer } from "node:http";

/**
 * A local stand-in for the Mailchimp Marketing API (lists/{id}/members/{hash} PUT and .../tags POST),
 * enough to check what the lead delivery sends and how it reacts to outages.
 *
 * One module for the Vitest integration tests (TypeScript, through these JSDoc types) and the plain
 * node scripts of tests/reliability (run as they are, so it is JavaScript).
 */

/**
 * @typedef {object} FakeMember
 * @property {string} email_address
 * @property {string} status
 * @property {string | undefined} [timestamp_opt] When the member opted in to marketing email, as the last upsert with consent said.
 * @property {Record<string, string>} merge_fields
 * @property {string[]} tags
 * @property {number} puts How many PUTs reached this member (an upsert, so retries never add members).
 */

/**
 * @typedef {object} RecordedRequest
 * @property {string} method
 * @property {string} path The API path, without the `/via-<name>` prefix.
 * @property {string | undefined} via The `via-<name>` segment the base URL began with: which server sent it.
 * @property {string | undefined} authorization
 * @property {unknown} body
 * @property {number | undefined} status The status answered, once the answer has been sent.
 */

/**
 * What to answer instead of success: a status (and optional body), a delay, or a delay then a status.
 * @typedef {{ status: number, body?: unknown } | { delayMs: number, status?: number }} Fault
 */

/**
 * `faults` is consumed one per request, front first; `failEmails` answers 400 (or its status) for
 * those members forever. A base URL may carry a first segment `/via-<name>` (one per server under
 * test), recorded as each request's `via`, so every request is attributed to the server that sent it.
 */
export class FakeMailchimp {
  /** @type {Map<string, FakeMember>} */
  members = new Map();
  /** @type {RecordedRequest[]} */
  requests = [];
  /** @type {Fault[]} */
  faults = [];
  /** @type {Map<string, { status: number, body: unknown }>} */
  failEmails = new Map();
  /** Concurrent requests being answered now, and the most seen at once. */
  inFlight = 0;
  maxInFlight = 0;
  /** Delay every successful answer by this much (to observe concurrency). */
  latencyMs = 0;
  /** @type {import("node:http").Server | undefined} */
  #server;

  constructor(apiKey = "test-key-us1", listId = "list123") {
    this.apiKey = apiKey;
    this.listId = listId;
  }

  get url() {
    const address = this.#server?.address();
    if (!address || typeof address === "string") throw new Error("fake Mailchimp not started");
    return `http://127.0.0.1:${address.port}`;
  }

  async start() {
    const server = createServer((req, res) => void this.#handle(req, res));
    this.#server = server;
    await new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(undefined)));
    return this;
  }

  async stop() {
    const server = this.#server;
    this.#server = undefined;
    if (!server) return;
    server.closeAllConnections();
    await new Promise((resolve) => server.close(() => resolve(undefined)));
  }

  /** Answers `status` to the next `n` requests. */
  failNext(n = 1, status = 503) {
    for (let i = 0; i < n; i++) this.faults.push({ status, body: { title: "Service Unavailable", status, detail: "try later" } });
  }

  reset() {
    this.members.clear();
    this.requests.length = 0;
    this.faults = [];
    this.failEmails.clear();
    this.maxInFlight = 0;
    this.latencyMs = 0;
  }

  /**
   * @param {import("node:http").IncomingMessage} req
   * @param {import("node:http").ServerResponse} res
   */
  async #handle(req, res) {
    this.inFlight++;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    try {
      /** @type {Buffer[]} */
      const chunks = [];
      for await (const chunk of req) chunks.push(chunk);
      const text = Buffer.concat(chunks).toString("utf8");
      /** @type {unknown} */
      let body = null;
      try {
        body = text ? JSON.parse(text) : null;
      } catch {
        body = text;
      }
      const [, via, path = "/"] = /^(?:\/(via-[a-z0-9-]+))?(\/.*)?$/.exec(req.url ?? "/") ?? [];
      /** @type {RecordedRequest} */
      const recorded = {
        method: req.method ?? "GET",
        path,
        via,
        authorization: req.headers.authorization,
        body,
        status: undefined,
      };
      this.requests.push(recorded);
      res.once("finish", () => (recorded.status = res.statusCode));

      const expected = `Basic ${Buffer.from(`anystring:${this.apiKey}`).toString("base64")}`;
      if (req.headers.authorization !== expected) return send(res, 401, { title: "API Key Invalid", status: 401 });

      const fault = this.faults.shift();
      if (fault && "delayMs" in fault) await sleep(fault.delayMs);
      if (fault?.status)
        return send(res, fault.status, ("body" in fault && fault.body) || { title: "Error", status: fault.status });

      const match = /^\/3\.0\/lists\/([^/]+)\/members\/([0-9a-f]{32})(\/tags)?$/.exec(path);
      if (!match || decodeURIComponent(match[1] ?? "") !== this.listId)
        return send(res, 404, { title: "Resource Not Found", status: 404 });
      const hash = /** @type {string} */ (match[2]);

      if (this.latencyMs) await sleep(this.latencyMs);
      if (!match[3] && req.method === "PUT") {
        const member =
          /** @type {{ email_address: string, status?: string, status_if_new: string, timestamp_opt?: string, merge_fields: Record<string, string> }} */ (
            body
          );
        const failure = this.failEmails.get(member.email_address);
        if (failure) return send(res, failure.status, failure.body);
        const existing = this.members.get(hash);
        this.members.set(hash, {
          email_address: member.email_address,
          // Mailchimp's PUT: `status` changes an existing member; `status_if_new` only makes a new one.
          status: existing ? (member.status ?? existing.status) : member.status_if_new,
          timestamp_opt: member.timestamp_opt ?? existing?.timestamp_opt,
          merge_fields: { ...existing?.merge_fields, ...member.merge_fields },
          tags: existing?.tags ?? [],
          puts: (existing?.puts ?? 0) + 1,
        });
        return send(res, 200, { id: hash, email_address: member.email_address });
      }
      if (match[3] && req.method === "POST") {
        const existing = this.members.get(hash);
        if (!existing) return send(res, 404, { title: "Resource Not Found", status: 404 });
        const tags = /** @type {{ tags: { name: string, status: string }[] }} */ (body).tags;
        for (const t of tags) {
          if (t.status === "active" && !existing.tags.includes(t.name)) existing.tags.push(t.name);
          if (t.status === "inactive") existing.tags = existing.tags.filter((n) => n !== t.name);
        }
        res.writeHead(204).end();
        return;
      }
      return send(res, 405, { title: "Method Not Allowed", status: 405 });
    } finally {
      this.inFlight--;
    }
  }
}

/**
 * @param {import("node:http").ServerResponse} res
 * @param {number} status
 * @param {unknown} body
 */
function send(res, status, body) {
  res.writeHead(status, { "Content-Type": "application/problem+json" }).end(JSON.stringify(body));
}

/** @param {number} ms */
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
