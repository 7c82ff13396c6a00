import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, renameSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, queryRows, type Database } from "~/server/db/client.server";
import { LOCK_FILE } from "~/server/db/data-dir-lock.server";
import { user, userRoles } from "~/server/db/schema";
import { engine, freshDatabase, migratedDataFolder } from "./support/db";

// Each of these makes PGlite clusters or starts processes that open one: seconds of CPU apiece, and
// minutes on a loaded machine. The bound only guards against a hang.
const SLOW_PROCESSES = { timeout: 240_000 };

/**
 * `npm run grant-operator` (scripts/grant-operator.js) beside a live server: on PGlite it must take
 * the data folder's lock as the server does and refuse while a server holds it, writing nothing
 * (a second PGlite on a live folder lost acknowledged leads and twice left the folder unopenable);
 * with no server it grants; on PostgreSQL it works beside running servers.
 */
const SERVER_RUNNING = "A server is running on this data folder: grant it from /admin → Operators, or stop the server first.";

interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

function grantOperatorCli(email: string, env: Record<string, string>): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["scripts/grant-operator.js", email], {
      cwd: process.cwd(),
      env: { ...process.env, DATABASE_URL: "", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

const operatorRows = async (database: Database, userId: string) =>
  database.db.select().from(userRoles).where(eq(userRoles.userId, userId));

describe.runIf(engine === "pglite")("grant-operator CLI on a PGlite folder", () => {
  let dir: string;
  const dataDir = () => path.join(dir, "data");
  const verified = { id: "cli-user-1", name: "Held", email: "held@example.com", emailVerified: true };
  const unverified = { id: "cli-user-2", name: "New", email: "not-yet@example.com", emailVerified: false };

  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), "it-grant-cli-"));
    renameSync(migratedDataFolder(), dataDir());
  });
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it(
    "refuses with one line and exit 1 while a server holds the folder; writes nothing; the folder reopens with every row",
    SLOW_PROCESSES,
    async () => {
      // Opened as the server opens it (openDatabase takes the folder's lock), and kept writing while
      // the tool runs, as a server receiving leads does.
      const server = await openDatabase({ dataDir: dataDir() });
      let written = 0;
      try {
        await server.db.insert(user).values([verified, unverified]);
        await server.db.execute(sql`create table acknowledged (n int primary key)`);
        const cli: { result?: CliRun } = {};
        const run = grantOperatorCli(verified.email, { DATA_DIR: dataDir() }).then((r) => (cli.result = r));
        while (!cli.result || written < 50) {
          written += 1;
          await server.db.execute(sql`insert into acknowledged values (${written})`);
        }
        const result = await run;
        expect(result).toEqual({ code: 1, stdout: "", stderr: `${SERVER_RUNNING}\n` });
        expect(await operatorRows(server, verified.id)).toEqual([]);
        // Only the server's lock and PostgreSQL's own files: no draft lock left behind.
        expect(readdirSync(dataDir()).filter((f) => f.startsWith(LOCK_FILE))).toEqual([LOCK_FILE]);
      } finally {
        await server.close();
      }
      const reopened = await openDatabase({ dataDir: dataDir() });
      try {
        expect(await queryRows(reopened.db, sql`select count(*)::int as n from acknowledged`)).toEqual([{ n: written }]);
        expect((await reopened.db.select().from(user)).map((u) => u.email).sort()).toEqual([verified.email, unverified.email]);
        expect(await operatorRows(reopened, verified.id)).toEqual([]);
      } finally {
        await reopened.close();
      }
    },
  );

  it("grants when no server holds the folder, and frees the folder afterwards", SLOW_PROCESSES, async () => {
    expect(await grantOperatorCli("Held@Example.com", { DATA_DIR: dataDir() })).toEqual({
      code: 0,
      stdout: "held@example.com is now an operator.\n",
      stderr: "",
    });
    expect(await grantOperatorCli(verified.email, { DATA_DIR: dataDir() })).toMatchObject({
      code: 0,
      stdout: "held@example.com was already an operator.\n",
    });
    const unknown = await grantOperatorCli("nobody@example.com", { DATA_DIR: dataDir() });
    expect(unknown).toMatchObject({
      code: 1,
      stderr: "No account with the email nobody@example.com. Sign up first, then run this again.\n",
    });
    const notVerified = await grantOperatorCli(unverified.email, { DATA_DIR: dataDir() });
    expect(notVerified.code).toBe(1);
    expect(notVerified.stderr).toMatch(/has not verified its email address/);
    expect(existsSync(path.join(dataDir(), LOCK_FILE))).toBe(false);
    const reopened = await openDatabase({ dataDir: dataDir() });
    try {
      expect(await operatorRows(reopened, verified.id)).toMatchObject([{ role: "operator" }]);
      expect(await operatorRows(reopened, unverified.id)).toEqual([]);
    } finally {
      await reopened.close();
    }
  });
  it("changes nothing where the server never set a database up, and says what to do", SLOW_PROCESSES, async () => {
    const nowhere = path.join(dir, "never-started");
    expect(await grantOperatorCli(verified.email, { DATA_DIR: nowhere })).toEqual({
      code: 1,
      stdout: "",
      stderr: `This database has no accounts yet: start the server (or run \`npm run db:migrate\`), sign up, then run this again. (no data folder at ${nowhere})\n`,
    });
    expect(existsSync(nowhere)).toBe(false);
  });
});

describe.runIf(engine === "postgres")("grant-operator CLI with DATABASE_URL", () => {
  it("grants beside a server that has the database open", async () => {
    const server = await freshDatabase();
    try {
      await server.db.insert(user).values({ id: "cli-pg-1", name: "Pg", email: "pg-ops@example.com", emailVerified: true });
      const result = await grantOperatorCli("pg-ops@example.com", { DATABASE_URL: process.env.TEST_DATABASE_URL! });
      expect(result).toEqual({ code: 0, stdout: "pg-ops@example.com is now an operator.\n", stderr: "" });
      expect(await operatorRows(server, "cli-pg-1")).toMatchObject([{ role: "operator" }]);
    } finally {
      await server.cleanup();
    }
  });
});
