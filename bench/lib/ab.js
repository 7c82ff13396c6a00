// ApacheBench (Debian: apt-get install -y apache2-utils), a second load generator for the signed-in
// page in bench/throughput.js: on PGlite, wrk's latencies for that page break Little's law (their
// mean exceeds 64 connections / req/s by a third) while ab's agree with it, so both are reported.
import { spawn } from "node:child_process";
import { which } from "./wrk.js";

// AB_BIN names another binary ("" pretends it is missing).
export const abBin = process.env.AB_BIN ?? which("ab");

/**
 * `ab -k` (keep-alive) with `connections` concurrent requests for `seconds`: req/s and the total
 * time percentiles it prints (ms, whole). ab's "Failed requests" counts answers of another length
 * than the first (a page that changes), so only non-2xx answers are counted as failures here.
 */
export function ab(url, headers, { connections, seconds }) {
  return new Promise((resolve, reject) => {
    const args = ["-k", "-c", String(connections), "-t", String(seconds), "-n", "100000000", "-q"];
    for (const h of headers) args.push("-H", h);
    const child = spawn(abBin, [...args, url], { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (err += d));
    child.once("error", reject);
    child.once("exit", (code) => {
      if (code !== 0) return reject(new Error(`ab exited ${code}: ${err.trim()}`));
      const number = (re) => Number(re.exec(out)?.[1] ?? NaN);
      resolve({
        rps: number(/Requests per second:\s+([\d.]+)/),
        requests: number(/Complete requests:\s+(\d+)/),
        p50: number(/^\s+50%\s+(\d+)/m),
        p99: number(/^\s+99%\s+(\d+)/m),
        max: number(/^\s+100%\s+(\d+)/m),
        non2xx: Number(/Non-2xx responses:\s+(\d+)/.exec(out)?.[1] ?? 0),
      });
    });
  });
}
