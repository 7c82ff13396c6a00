// CPU seconds of a command's whole process tree, by kind of process (Chromium's renderer, browser and
// GPU processes, the app server, the Playwright runner), sampled from /proc every half second. It
// answers "where does an end-to-end run spend its CPU": the browser, the server or the runner.
// Linux only. Processes that live less than one sample are missed, so totals are a floor.
//   node bench/cpu-by-process.js npx playwright test tests/e2e/marketing.spec.ts
import { spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";

const TICKS_PER_SECOND = 100; // USER_HZ on Linux
const [command, ...args] = process.argv.slice(2);
if (!command) {
  console.error("usage: node bench/cpu-by-process.js <command> [args...]");
  process.exit(2);
}

function kindOf(pid) {
  let cmd;
  try {
    cmd = readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ");
  } catch {
    return undefined;
  }
  if (cmd.includes("chromium")) {
    for (const type of ["renderer", "gpu-process"]) if (cmd.includes(`--type=${type}`)) return `chromium ${type}`;
    return cmd.includes("--type=") ? "chromium other" : "chromium browser";
  }
  if (/\bserver\.js\b/.test(cmd)) return "app server";
  if (/playwright|vitest/.test(cmd)) return "test runner";
  return cmd.split(" ")[0]?.split("/").pop() || "other";
}

/** pid -> [utime + stime ticks, ppid]. */
function stat(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ").pop().split(" ");
    return [Number(fields[11]) + Number(fields[12]), Number(fields[1])];
  } catch {
    return undefined;
  }
}

const child = spawn(command, args, { stdio: "inherit" });
const seen = new Map(); // pid -> { kind, ticks }

function sample() {
  const children = new Map();
  const stats = new Map();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    const s = stat(name);
    if (!s) continue;
    stats.set(Number(name), s[0]);
    const list = children.get(s[1]) ?? [];
    list.push(Number(name));
    children.set(s[1], list);
  }
  const stack = [child.pid];
  while (stack.length) {
    const pid = stack.pop();
    const ticks = stats.get(pid);
    if (ticks !== undefined) {
      const known = seen.get(pid);
      seen.set(pid, { kind: known?.kind ?? kindOf(pid), ticks });
    }
    stack.push(...(children.get(pid) ?? []));
  }
}

const timer = setInterval(sample, 500);
child.on("exit", (code) => {
  clearInterval(timer);
  const byKind = new Map();
  for (const { kind, ticks } of seen.values()) byKind.set(kind, (byKind.get(kind) ?? 0) + ticks / TICKS_PER_SECOND);
  const rows = [...byKind].sort((a, b) => b[1] - a[1]);
  const total = rows.reduce((sum, [, s]) => sum + s, 0);
  console.error("CPU seconds by kind of process (sampled every 0.5 s):");
  for (const [kind, seconds] of rows)
    console.error(`  ${seconds.toFixed(1).padStart(8)}  ${((100 * seconds) / total).toFixed(0).padStart(3)}%  ${kind}`);
  console.error(`  ${total.toFixed(1).padStart(8)}        total`);
  process.exit(code ?? 1);
});
