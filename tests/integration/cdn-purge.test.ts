import http from "node:http";
import type { AddressInfo } from "node:net";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { queryRows, setDatabase } from "~/server/db/client.server";
import { resetEnvCache } from "~/server/env.server";
import { CDN_PURGE_QUEUE, requestCdnPurge } from "~/server/http/purge-cdn.server";
import { JOBS_SCHEMA, type JobsOptions, startJobs, stopJobs } from "~/server/jobs/queue.server";
import { engine, freshDatabase } from "./support/db";
import { waitFor } from "./support/wait";

process.env.LOG_LEVEL ??= "error";

/** Second-long retries instead of production's 30 s .. 10 min backoff. */
const FAST: JobsOptions = {
  cdnPurge: { retryLimit: 3, retryDelay: 1, retryBackoff: true, retryDelayMax: 1, expireInSeconds: 30 },
  pollingIntervalSeconds: 0.5,
  schedules: false,
  stopTimeoutMs: 10_000,
};

interface Received {
  method: string;
  authorization: string | undefined;
  contentType: string | undefined;
  body: string;
}

/** A CDN's purge endpoint: records each request and answers the next status queued (200 when none). */
class FakeCdn {
  received: Received[] = [];
  statuses: number[] = [];
  /** While set, answers wait for it: a purge in flight. */
  hold: Promise<void> | undefined;
  private server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString()));
    req.on("end", async () => {
      await this.hold;
      this.received.push({
        method: req.method ?? "",
        authorization: req.headers.authorization,
        contentType: req.headers["content-type"],
        body,
      });
      const status = this.statuses.shift() ?? 200;
      res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify({ success: status === 200 }));
    });
  });

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/zones/z1/purge_cache`;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

describe(`CDN purge after a catalogue change (${engine})`, () => {
  let database: Awaited<ReturnType<typeof freshDatabase>>;
  const cdn = new FakeCdn();
  let url = "";

  const jobs = async () =>
    queryRows<{ state: string; retry_count: number }>(
      database.db,
      sql`select state, retry_count from ${sql.identifier(JOBS_SCHEMA)}.job where name = ${CDN_PURGE_QUEUE} order by created_on`,
    );

  beforeAll(async () => {
    url = await cdn.start();
    database = await freshDatabase();
    setDatabase(database);
    await startJobs(database, FAST);
  });

  afterAll(async () => {
    await stopJobs();
    setDatabase(undefined);
    await database?.cleanup();
    await cdn.stop();
    vi.unstubAllEnvs();
    resetEnvCache();
  });

  beforeEach(() => {
    vi.stubEnv("CDN_PURGE_URL", url);
    vi.stubEnv("CDN_PURGE_TOKEN", "cdn-token");
    vi.stubEnv("CDN_PURGE_BODY", "");
    resetEnvCache();
  });

  it("every instance noticing one change makes one purge, with the token and Cloudflare's body", async () => {
    // The committing instance, its own poll and another instance's poll, before the purge is due.
    await Promise.all([requestCdnPurge(1), requestCdnPurge(1), requestCdnPurge(1)]);
    expect((await jobs()).length).toBe(1);
    await waitFor(
      () => jobs(),
      (rows) => rows.every((r) => r.state === "completed"),
    );
    expect(cdn.received).toEqual([
      {
        method: "POST",
        authorization: "Bearer cdn-token",
        contentType: "application/json",
        body: '{"purge_everything":true}',
      },
    ]);
  });

  it("a change made while a purge is on its way gets a purge of its own", async () => {
    cdn.received = [];
    let release: (() => void) | undefined;
    cdn.hold = new Promise<void>((resolve) => {
      release = resolve;
    });
    const before = (await jobs()).length;
    await requestCdnPurge(0);
    await waitFor(
      () => jobs(),
      (rows) => rows.at(-1)?.state === "active",
    );
    // The change after the CDN was asked: queued beside the running purge, not dropped.
    await Promise.all([requestCdnPurge(0), requestCdnPurge(0)]);
    expect((await jobs()).length).toBe(before + 2);
    cdn.hold = undefined;
    release?.();
    await waitFor(
      () => jobs(),
      (rows) => rows.every((r) => r.state === "completed"),
    );
    expect(cdn.received).toHaveLength(2);
  });

  it("a purge the CDN refuses is tried again until it is accepted", async () => {
    cdn.received = [];
    cdn.statuses = [503, 429];
    vi.stubEnv("CDN_PURGE_BODY", '{"files":["https://shop.example.com/apps"]}');
    resetEnvCache();
    await requestCdnPurge(0);
    const rows = await waitFor(
      () => jobs(),
      (all) => all.at(-1)?.state === "completed",
    );
    expect(rows.at(-1)?.retry_count).toBe(2);
    expect(cdn.received.map((r) => r.body)).toEqual(Array(3).fill('{"files":["https://shop.example.com/apps"]}'));
  });

  it("without CDN_PURGE_URL nothing is queued", async () => {
    vi.stubEnv("CDN_PURGE_URL", "");
    vi.stubEnv("CDN_PURGE_TOKEN", "");
    resetEnvCache();
    const before = (await jobs()).length;
    await requestCdnPurge(0);
    expect((await jobs()).length).toBe(before);
  });
});
