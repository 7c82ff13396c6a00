// The ceiling for a Node.js server on this machine (bench/throughput.js): a bare `node:http` server
// that answers each page with bytes and headers copied from our server's answer, with nothing else
// in the process (no Express, no bundle, no database). Ours against it shows what our server loses to
// its own code and to what shares its process; nginx against it shows what Node itself costs.
//
//   node bench/lib/bare-node.js <dir> <port> [processes]
//
// <dir> holds pages.json: [[path, bodyFile, headers], ...] with body files beside it. Prints
// "listening" once every process listens.
import cluster from "node:cluster";
import { createServer } from "node:http";
import { readFileSync } from "node:fs";
import path from "node:path";

const [dir, port, processes = "1"] = process.argv.slice(2);
const count = Math.max(1, Number(processes) || 1);

if (cluster.isPrimary && count > 1) {
  let listening = 0;
  for (let i = 0; i < count; i++) {
    cluster.fork().once("listening", () => {
      if (++listening === count) console.log("listening");
    });
  }
  process.on("SIGTERM", () => {
    for (const worker of Object.values(cluster.workers ?? {})) worker?.kill("SIGTERM");
    process.exit(0);
  });
} else {
  const pages = new Map(
    JSON.parse(readFileSync(path.join(dir, "pages.json"), "utf8")).map(([p, file, headers]) => [
      p,
      { body: readFileSync(path.join(dir, file)), headers: Object.entries(headers).flat() },
    ]),
  );
  createServer((req, res) => {
    const page = pages.get(req.url);
    if (!page) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, page.headers);
    res.end(page.body);
  }).listen(Number(port), "127.0.0.1", () => {
    if (!cluster.isWorker) console.log("listening");
  });
  process.on("SIGTERM", () => process.exit(0));
}
