// ApacheBench (Debian: apt-get install -y apache2-utils), a second load generator for the signed-in
// page in bench/throughput.js: on PGlite, wrk's latencies for that page break Little's law (their
// mean exceeds 64 connections / req/s by a third) while ab's agree with it, so both are reported.
import { runTool, which } from "./wrk.js";

// AB_BIN names another binary ("" pretends it is missing).
export const abBin = process.env.AB_BIN ?? which("ab");

/**
 * `ab -k` (keep-alive) with `connections` concurrent requests for `seconds`: req/s and the total
 * time percentiles it prints (ms, whole). ab's "Failed requests" counts answers of another length
 * than the first (a page that changes), so only non-2xx answers are counted as failures here.
 */
export async function ab(url, headers, { connections, seconds }) {
  const args = ["-k", "-c", String(connections), "-t", String(seconds), "-n", "100000000", "-q"];
  for (const h of headers) args.push("-H", h);
  const out = await runTool(abBin, [...args, url]);
  const number = (re) => Number(re.exec(out)?.[1] ?? NaN);
  return {
    rps: number(/Requests per second:\s+([\d.]+)/),
    requests: number(/Complete requests:\s+(\d+)/),
    p50: number(/^\s+50%\s+(\d+)/m),
    p99: number(/^\s+99%\s+(\d+)/m),
    max: number(/^\s+100%\s+(\d+)/m),
    non2xx: Number(/Non-2xx responses:\s+(\d+)/.exec(out)?.[1] ?? 0),
  };
}
