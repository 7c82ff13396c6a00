import { expect, test } from "@playwright/test";
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fromTemplate } from "../reliability/lib.js";

/** Starts `node <args>` (the dev script's command line) on its own port and data folder. */
function startServer(port: number, dataDir: string, args: string[], nodeEnv: string) {
  const child = spawn(process.execPath, args, {
    env: { ...process.env, NODE_ENV: nodeEnv, PORT: String(port), DATA_DIR: dataDir, DATABASE_URL: "" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (d) => (output += d));
  child.stderr?.on("data", (d) => (output += d));
  return { child, output: () => output };
}

/**
 * Waits for /healthz. The bound is a guard against a hang, not a speed check: a fresh folder's first
 * boot (initdb and every migration) took close to a minute on a loaded machine.
 */
async function waitHealthy(port: number, server?: ReturnType<typeof startServer>) {
  const deadline = Date.now() + 150_000;
  while (Date.now() < deadline) {
    if (server && server.child.exitCode !== null) throw new Error(`server exited (${server.child.exitCode}): ${server.output()}`);
    try {
      const res = await fetch(`http://127.0.0.1:${port}/healthz`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`server on ${port} never became healthy`);
}

function exitOf(child: ChildProcess) {
  return new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on("exit", (code, signal) => resolve({ code, signal })),
  );
}

test("`npm run dev` serves the pages through Vite", async () => {
  // It answered 500 on every page for a while unnoticed: Node loaded another copy of React Router
  // than Vite did (server.js now refuses to start that way, package.json passes the condition).
  test.setTimeout(330_000);
  const dev = (JSON.parse(readFileSync("package.json", "utf8")) as { scripts: Record<string, string> }).scripts.dev!;
  const [command, ...args] = dev.split(" ");
  expect(command).toBe("node");
  const port = Number(process.env.E2E_PORT ?? 3107) + 51;
  // Under `npm test`, a copy of the run's migrated folder: what is checked is Vite serving the pages.
  const dataDir = fromTemplate(path.join(mkdtempSync(path.join(tmpdir(), "dev-")), "data"));
  const server = startServer(port, dataDir, args, "development");
  try {
    await waitHealthy(port, server);
    const apps = await fetch(`http://127.0.0.1:${port}/apps`);
    expect(apps.status, server.output()).toBe(200);
    expect(await apps.text()).toContain("181 solutions available");
    expect((await fetch(`http://127.0.0.1:${port}/`)).status, server.output()).toBe(200);
  } finally {
    if (server.child.exitCode === null) {
      const exited = exitOf(server.child);
      server.child.kill("SIGTERM");
      await exited;
    }
  }
});
