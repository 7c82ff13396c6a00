import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface FakeMember {
  email_address: string;
  status: string;
  /** When the member opted in to marketing email, as the last upsert with consent said. */
  timestamp_opt?: string | undefined;
  merge_fields: Record<string, string>;
  tags: string[];
  /** How many PUTs reached this member (an upsert, so retries never add members). */
  puts: number;
}

export interface RecordedRequest {
  method: string;
  path: string;
  authorization: string | undefined;
  body: unknown;
}

/** What to answer instead of success: a status (and optional body), a delay, or a delay then a status. */
export type Fault = { status: number; body?: unknown } | { delayMs: number; status?: number };

/**
 * A local stand-in for the Mailchimp Marketing API (lists/{id}/members/{hash} PUT and .../tags POST),
 * enough to check what the delivery sends and how it reacts to outages. `faults` is consumed one per
 * request, front first; `failEmails` answers 400 for those members forever.
 */
export class FakeMailchimp {
  readonly members = new Map<string, FakeMember>();
  readonly requests: RecordedRequest[] = [];
  faults: Fault[] = [];
  failEmails = new Map<string, { status: number; body: unknown }>();
  /** Concurrent requests being answered now, and the most seen at once. */
  inFlight = 0;
  maxInFlight = 0;
  /** Delay every successful answer by this much (to observe concurrency). */
  latencyMs = 0;
  private server: Server | undefined;

  constructor(
    readonly apiKey = "test-key-us1",
    readonly listId = "list123",
  ) {}

  get url(): string {
    const address = this.server?.address() as AddressInfo | null;
    if (!address) throw new Error("fake Mailchimp not started");
    return `http://127.0.0.1:${address.port}`;
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, "127.0.0.1", resolve));
    return this;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Answers `status` to the next `n` requests. */
  failNext(n: number, status = 503) {
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

  private async handle(req: IncomingMessage, res: ServerResponse) {
    this.inFlight++;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    try {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const text = Buffer.concat(chunks).toString("utf8");
      let body: unknown = null;
      try {
        body = text ? JSON.parse(text) : null;
      } catch {
        body = text;
      }
      const path = req.url ?? "/";
      this.requests.push({ method: req.method ?? "GET", path, authorization: req.headers.authorization, body });

      const expected = `Basic ${Buffer.from(`anystring:${this.apiKey}`).toString("base64")}`;
      if (req.headers.authorization !== expected) return send(res, 401, { title: "API Key Invalid", status: 401 });

      const fault = this.faults.shift();
      if (fault && "delayMs" in fault) await sleep(fault.delayMs);
      if (fault?.status)
        return send(res, fault.status, ("body" in fault && fault.body) || { title: "Error", status: fault.status });

      const match = /^\/3\.0\/lists\/([^/]+)\/members\/([0-9a-f]{32})(\/tags)?$/.exec(path);
      if (!match || decodeURIComponent(match[1]!) !== this.listId)
        return send(res, 404, { title: "Resource Not Found", status: 404 });
      const hash = match[2]!;

      if (this.latencyMs) await sleep(this.latencyMs);
      if (!match[3] && req.method === "PUT") {
        const member = body as {
          email_address: string;
          status?: string;
          status_if_new: string;
          timestamp_opt?: string;
          merge_fields: Record<string, string>;
        };
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
        const tags = (body as { tags: { name: string; status: string }[] }).tags;
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

function send(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { "Content-Type": "application/problem+json" }).end(JSON.stringify(body));
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
