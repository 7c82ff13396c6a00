// Global setup of the integration project: one migrated database that every test file copies
// instead of migrating its own (support/db.ts). Made once per run, from the migrations in the tree,
// so it is never stale. A fresh PGlite folder costs a cluster's initdb plus every migration (several
// seconds of CPU per file); copying a migrated folder and opening it costs about a fifth of that.
// On PostgreSQL the template is a database (`<name>_template`) that each file's database is created
// from (CREATE DATABASE ... TEMPLATE), instead of dropping the schemas and migrating again.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { openDatabase } from "~/server/db/client.server";

declare module "vitest" {
  export interface ProvidedContext {
    /** A migrated PGlite data folder to copy (PGlite runs), or the template database's name (PostgreSQL runs). */
    databaseTemplate: string;
  }
}

let cleanup: (() => Promise<void>) | undefined;

export async function setup(project: TestProject) {
  const url = process.env.TEST_DATABASE_URL;
  if (url) {
    const name = `${templateBase(url)}_template`;
    await recreateDatabase(url, name);
    const target = new URL(url);
    target.pathname = `/${encodeURIComponent(name)}`;
    const database = await openDatabase({ databaseUrl: target.toString(), dataDir: "unused" });
    await database.close();
    project.provide("databaseTemplate", name);
    return;
  }
  const dir = mkdtempSync(path.join(tmpdir(), "it-pglite-template-"));
  const database = await openDatabase({ dataDir: dir });
  await database.close();
  project.provide("databaseTemplate", dir);
  cleanup = async () => rmSync(dir, { recursive: true, force: true });
}

export async function teardown() {
  await cleanup?.();
}

/** The database name TEST_DATABASE_URL names (the workers' databases are `<name>_w<n>`). */
export function templateBase(url: string) {
  return decodeURIComponent(new URL(url).pathname.slice(1)) || "postgres";
}

const quote = (identifier: string) => `"${identifier.replaceAll('"', '""')}"`;

/** Drops `name` (ending any connection to it) and creates it again, empty or from `template`. */
export async function recreateDatabase(url: string, name: string, template?: string) {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(`drop database if exists ${quote(name)} with (force)`);
    await admin.query(`create database ${quote(name)}${template ? ` template ${quote(template)}` : ""}`);
  } finally {
    await admin.end();
  }
}
