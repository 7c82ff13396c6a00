// The cost of one SQL statement of the kinds a signed-in dashboard load runs (ADR 0017):
// a round trip with no work (`select 1`), a primary-key read of a session-sized row (as objects and
// as arrays, which Drizzle asks for), and a one-row insert committed on its own (the dashboard
// visit). A dashboard load runs 8 such reads and 1 insert, so these figures bound from below what
// the database part of a page can cost, whatever the code around it does.
//
//   node bench/db-statements.js                 PGlite in a temp folder, fsync on (as the server opens it)
//   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test node bench/db-statements.js
//                                               PGlite, then PostgreSQL (tables in a schema of its own,
//                                               dropped at the end)
//   DB_STATEMENT_RUNS=2000: timed runs per statement (after 200 untimed)
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pgliteOptions } from "../app/server/db/pglite-options.server.js";
import pg from "pg";
import { loadAverage, summarise, table } from "./lib/common.js";

const RUNS = Number(process.env.DB_STATEMENT_RUNS ?? 2000);
const SCHEMA = `bench_statements_${process.pid}`;
const SETUP = [
  "create table s (id text primary key, expires_at timestamptz, token text, created_at timestamptz, updated_at timestamptz, ip_address text, user_agent text, user_id text)",
  "create table t (id serial primary key, user_id text not null, kind text not null, created_at timestamptz not null)",
  "insert into s values ('x', now(), 'token', now(), now(), '127.0.0.1', 'agent', 'u')",
];

/** Microseconds of each of `RUNS` awaited calls of fn, after 200 untimed ones. */
async function time(fn) {
  for (let i = 0; i < 200; i++) await fn();
  const us = [];
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    await fn();
    us.push((performance.now() - t) * 1000);
  }
  return summarise(us);
}

/** The four statements against one engine; `query(text, params, arrays)` runs one. */
async function measure(engine, query) {
  const rows = [];
  for (const [name, fn] of [
    ["select 1", () => query("select 1", [], false)],
    ["primary-key read, rows as objects", () => query("select * from s where id = $1", ["x"], false)],
    ["primary-key read, rows as arrays", () => query("select * from s where id = $1", ["x"], true)],
    [
      "one-row insert, own commit",
      () => query("insert into t (user_id, kind, created_at) values ($1, $2, $3)", ["u", "dashboard_visit", new Date()], false),
    ],
  ]) {
    const s = await time(fn);
    rows.push([engine, name, s.p50.toFixed(0), s.p99.toFixed(0)]);
  }
  return rows;
}

const before = await loadAverage();
console.log(
  `bench/db-statements.js: ${RUNS} runs per statement; ${new Date().toISOString()}; load average ${before.loadavg.join(" ")} (${before.cpus} cores)`,
);
const rows = [];

const dir = mkdtempSync(path.join(tmpdir(), "bench-statements-"));
try {
  // The server's settings: fsync on, durable commits, its buffer pool.
  const lite = new PGlite(pgliteOptions(dir));
  await lite.waitReady;
  for (const statement of SETUP) await lite.exec(statement);
  rows.push(...(await measure("PGlite", (text, params, arrays) => lite.query(text, params, arrays ? { rowMode: "array" } : {}))));
  await lite.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}

const url = process.env.TEST_DATABASE_URL || process.env.BENCH_DATABASE_URL;
if (url) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`create schema ${SCHEMA}`);
    await client.query(`set search_path to ${SCHEMA}`);
    for (const statement of SETUP) await client.query(statement);
    rows.push(
      ...(await measure("PostgreSQL", (text, params, arrays) =>
        client.query(arrays ? { text, values: params, rowMode: "array" } : { text, values: params }),
      )),
    );
  } finally {
    await client.query(`drop schema if exists ${SCHEMA} cascade`).catch(() => {});
    await client.end();
  }
}

console.log("");
console.log(table(["engine", "statement", "p50 us", "p99 us"], rows));
