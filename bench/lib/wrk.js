// wrk, the HTTP load generator of bench/throughput.js and bench/dashboard-floor.js: finding it and
// reading its --latency report.
import { spawn } from "node:child_process";
import { accessSync, constants } from "node:fs";
import path from "node:path";

/** The executable's path on PATH (plus /usr/sbin, where Debian puts nginx), or "". */
export function which(cmd) {
  const dirs = [...(process.env.PATH ?? "").split(path.delimiter), "/usr/sbin", "/usr/local/sbin"];
  for (const dir of dirs.filter(Boolean)) {
    try {
      accessSync(path.join(dir, cmd), constants.X_OK);
      return path.join(dir, cmd);
    } catch {
      /* not here */
    }
  }
  return "";
}

// WRK_BIN names another binary ("" pretends it is missing).
export const wrkBin = process.env.WRK_BIN ?? which("wrk");

function toMs(value) {
  const m = /^([\d.]+)(us|ms|s|m)$/.exec(value);
  if (!m) return NaN;
  return Number(m[1]) * { us: 0.001, ms: 1, s: 1000, m: 60_000 }[m[2]];
}

/** Runs a load generator to its end: its output (stdout and stderr), or an error naming its exit code. */
export function runTool(bin, args) {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args);
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (out += d));
    child.on("error", reject);
    child.on("exit", (code) => (code === 0 ? resolve(out) : reject(new Error(`${path.basename(bin)} exited ${code}: ${out}`))));
  });
}

/** Runs wrk and returns req/s, latency percentiles (ms), non-2xx/3xx answers and socket errors. */
export function wrk(url, headers = [], { connections = 64, threads = 2, seconds = 10 } = {}) {
  const args = [`-t${threads}`, `-c${connections}`, `-d${seconds}s`, "--latency", ...headers.flatMap((h) => ["-H", h]), url];
  return runTool(wrkBin, args).then((out) => {
    const lat = (p) => toMs(new RegExp(`^\\s+${p}%\\s+(\\S+)`, "m").exec(out)?.[1] ?? "");
    const sock = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
    return {
      rps: Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? NaN),
      requests: Number(/(\d+) requests in/.exec(out)?.[1] ?? NaN),
      p50: lat(50),
      p75: lat(75),
      p90: lat(90),
      p99: lat(99),
      non2xx3xx: Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0),
      socketErrors: sock ? sock.slice(1).reduce((a, b) => a + Number(b), 0) : 0,
      // wrk counts a request still unanswered after its 2 s default timeout as a timeout error.
      socket: sock ? { connect: +sock[1], read: +sock[2], write: +sock[3], timeout: +sock[4] } : null,
      raw: out,
    };
  });
}
