// The browser's CPU per step of an end-to-end test: opening a page, and navigating one page to a
// text file and to our pages. It answers "what does a navigation cost the browser here", the floor
// under every end-to-end test. The browser's whole process tree (renderers, GPU and network
// processes, including those that end between samples) is counted through a cpuacct cgroup, so this
// needs Linux with cgroup v1's cpuacct mounted and root; Chromium flags to compare go in EXTRA.
//   npm run build && node bench/browser-navigation.js
//   EXTRA="--renderer-process-limit=1" N=10 node bench/browser-navigation.js
import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, readFileSync, rmdirSync, writeFileSync } from "node:fs";
import { chromium } from "playwright-core";

const N = Number(process.env.N ?? 8);
const PORT = Number(process.env.BENCH_PORT ?? 3181);
const base = `http://localhost:${PORT}`;
const CGROUP = `/sys/fs/cgroup/cpuacct/browser-navigation-${process.pid}`;
const ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  ...(process.env.EXTRA ? process.env.EXTRA.split(" ") : []),
];

try {
  mkdirSync(CGROUP);
} catch (error) {
  console.error(`needs cgroup v1's cpuacct and root (${error.code}): ${CGROUP}`);
  process.exit(2);
}
const cpuMs = () => Number(readFileSync(`${CGROUP}/cpuacct.usage`, "utf8")) / 1e6;

/** Every process below this one (the browser's tree), moved into the cgroup; their children follow. */
function claimDescendants(root) {
  const children = new Map();
  for (const line of execFileSync("ps", ["-eo", "pid=,ppid="], { encoding: "utf8" }).trim().split("\n")) {
    const [pid, ppid] = line.trim().split(/\s+/);
    if (!children.has(ppid)) children.set(ppid, []);
    children.get(ppid).push(pid);
  }
  const queue = [String(root)];
  while (queue.length) {
    for (const child of children.get(queue.pop()) ?? []) {
      if (child === String(server.pid)) continue;
      try {
        writeFileSync(`${CGROUP}/cgroup.procs`, child);
      } catch {
        // ended meanwhile
      }
      queue.push(child);
    }
  }
}

const server = spawn(process.execPath, ["tests/e2e/support/serve.js"], {
  env: { ...process.env, PORT: String(PORT) },
  stdio: ["ignore", "ignore", "inherit"],
});
for (let i = 0; ; i++) {
  try {
    if ((await fetch(`${base}/healthz`)).ok) break;
  } catch {
    // not listening yet
  }
  if (i > 600) throw new Error("the server did not start");
  await new Promise((r) => setTimeout(r, 200));
}

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: ARGS });
claimDescendants(process.pid);
const context = await browser.newContext({ reducedMotion: "reduce" });

async function measure(name, step) {
  claimDescendants(process.pid);
  const cpu = cpuMs();
  const wall = performance.now();
  for (let i = 0; i < N; i++) await step();
  claimDescendants(process.pid);
  console.log(
    `${name.padEnd(34)} ${((cpuMs() - cpu) / N).toFixed(0).padStart(5)} ms browser CPU, ${((performance.now() - wall) / N).toFixed(0).padStart(5)} ms wall`,
  );
}

try {
  // Warm: the first page of a context, and the HTTP cache of our assets.
  const warm = await context.newPage();
  await warm.goto(`${base}/`);
  await warm.close();
  console.log(`browser CPU per step, mean of ${N}${process.env.EXTRA ? `, flags: ${process.env.EXTRA}` : ""}`);
  await measure("idle second", () => new Promise((r) => setTimeout(r, 1000)));
  await measure("new page, closed", async () => (await context.newPage()).close());
  const page = await context.newPage();
  await measure("navigate to /robots.txt", () => page.goto(`${base}/robots.txt`));
  for (const path of ["/", "/auth", "/apps", "/packages"])
    await measure(`navigate to ${path}, hydrated`, async () => {
      await page.goto(`${base}${path}`);
      await page.waitForSelector("html[data-hydrated]");
    });
} finally {
  await browser.close();
  server.kill("SIGTERM");
  await new Promise((r) => server.once("exit", r));
  for (const pid of readFileSync(`${CGROUP}/cgroup.procs`, "utf8").trim().split("\n").filter(Boolean))
    writeFileSync("/sys/fs/cgroup/cpuacct/cgroup.procs", pid);
  rmdirSync(CGROUP);
}
