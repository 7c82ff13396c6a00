// /metrics in Prometheus's text format (prom-client), shared by server.js and the bundle through
// prom-client's one default registry (docs/decisions/0071-structured-logs-and-metrics.md). Off
// unless METRICS_TOKEN is set: then nothing is recorded and /metrics is the app's 404 like any
// unknown path. With it, /metrics answers only `Authorization: Bearer $METRICS_TOKEN`.
// Plain JavaScript: server.js records every request (page-cache hits too) and answers /metrics
// before the bundle's Express app runs.
import cluster from "node:cluster";
import { createHash, timingSafeEqual } from "node:crypto";
import client from "prom-client";
import { describeError } from "./log-line.server.js";
import { labelRoute, pathOf } from "./logger.server.js";

const { AggregatorRegistry, Histogram, register } = client;

/** The token /metrics asks for, or null when metrics are off. @param {NodeJS.ProcessEnv} env */
export function metricsToken(env = process.env) {
  const token = env.METRICS_TOKEN?.trim();
  return token ? token : null;
}

/** Whether metrics are being recorded in this process. */
export function metricsEnabled() {
  return metricsToken() !== null;
}

/**
 * The metric named `name` in the default registry, created by `create` the first time: the bundle
 * can be loaded more than once in one process (the development server reloads it).
 * @template {client.Metric} T
 * @param {string} name
 * @param {() => T} create
 * @returns {T}
 */
export function metric(name, create) {
  return /** @type {T} */ (register.getSingleMetric(name)) ?? create();
}

const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/** @returns {client.Histogram<"method" | "route" | "status" | "cache">} */
function requestDuration() {
  return metric(
    "http_request_duration_seconds",
    () =>
      new Histogram({
        name: "http_request_duration_seconds",
        help: "Time from a request's arrival to its answer's end, by route pattern (its count is the request rate). cache=hit: answered by the anonymous page cache.",
        labelNames: ["method", "route", "status", "cache"],
        buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      }),
  );
}

/**
 * Records one finished request. Labels stay few: the route pattern (never the URL), a known method
 * or "other", the status.
 * @param {import("./logger.server.js").FinishedRequest} request
 */
export function observeRequest(request) {
  requestDuration().observe(
    {
      method: METHODS.has(request.method) ? request.method : "other",
      route: request.route,
      status: String(request.status),
      cache: request.cache ? "hit" : "none",
    },
    request.seconds,
  );
}

/**
 * Whether an Authorization header carries the token, compared in constant time (both sides hashed
 * first, so neither the length nor a prefix of the token leaks through timing).
 * @param {string | undefined} header
 * @param {string} token
 */
export function authorised(header, token) {
  const given = createHash("sha256")
    .update(header ?? "")
    .digest();
  const expected = createHash("sha256").update(`Bearer ${token}`).digest();
  return timingSafeEqual(given, expected);
}

/** @param {import("node:http").IncomingMessage} req */
export function isMetricsRequest(req) {
  return pathOf(req.url) === "/metrics";
}

/**
 * Answers GET /metrics: 401 without the right bearer token, otherwise the scrape. Only called when
 * metrics are on.
 * @param {import("node:http").IncomingMessage} req
 * @param {import("node:http").ServerResponse} res
 * @param {string} token
 * @param {() => Promise<string>} scrape
 */
export async function answerMetrics(req, res, token, scrape) {
  labelRoute(res, "/metrics");
  const send = (/** @type {number} */ status, /** @type {string} */ body, headers = {}) => {
    res.writeHead(status, {
      "Content-Type": "text/plain; charset=utf-8",
      "Cache-Control": "no-store",
      "X-Content-Type-Options": "nosniff",
      ...headers,
    });
    res.end(req.method === "HEAD" ? undefined : body);
  };
  if (req.method !== "GET" && req.method !== "HEAD") return send(405, "Method Not Allowed\n", { Allow: "GET, HEAD" });
  if (!authorised(req.headers.authorization, token)) {
    return send(401, "Unauthorized\n", { "WWW-Authenticate": 'Bearer realm="metrics"' });
  }
  try {
    const text = await scrape();
    send(200, text, { "Content-Type": register.contentType });
  } catch (error) {
    send(503, `metrics unavailable: ${describeError(error)}\n`);
  }
}

/** This process's own metrics (one process serves everything). */
export function processMetrics() {
  return register.metrics();
}

const SCRAPE = "ai-apps:metrics";
const WORKER_METRICS = "ai-apps:worker-metrics";
/** A worker that does not answer within this is left out of the scrape. */
const WORKER_TIMEOUT_MS = 5_000;

/**
 * In the cluster primary: answers a worker's request for the whole server's metrics. Each worker
 * that `isReady` (it listens) is asked for its registry; prom-client's AggregatorRegistry.aggregate
 * sums them (or keeps one value, for series with another aggregator), so one scrape, whichever
 * worker takes it, sees every worker. A worker still starting, or one that does not answer in time,
 * is left out rather than failing the scrape.
 * @param {(worker: import("node:cluster").Worker) => boolean} isReady
 */
export function serveClusterMetrics(isReady) {
  let nextRequest = 0;
  /** @type {Map<number, (metrics: client.MetricObjectWithValues<client.MetricValue<string>>[]) => void>} */
  const pending = new Map();
  cluster.on("message", (worker, message) => {
    if (message?.type === WORKER_METRICS && pending.has(message.id)) {
      pending.get(message.id)?.(message.metrics);
      return;
    }
    if (message?.type !== SCRAPE) return;
    const ready = Object.values(cluster.workers ?? {}).filter((w) => w !== undefined && w.isConnected() && isReady(w));
    const answers = ready.map(
      (w) =>
        /** @type {Promise<client.MetricObjectWithValues<client.MetricValue<string>>[] | null>} */ (
          new Promise((resolve) => {
            const id = nextRequest++;
            const timer = setTimeout(() => {
              pending.delete(id);
              resolve(null);
            }, WORKER_TIMEOUT_MS);
            pending.set(id, (metrics) => {
              clearTimeout(timer);
              pending.delete(id);
              resolve(metrics);
            });
            w.send({ type: WORKER_METRICS, id });
          })
        ),
    );
    Promise.all(answers)
      .then((all) => AggregatorRegistry.aggregate(all.filter((m) => m !== null)).metrics())
      .then(
        (text) => worker.send({ type: SCRAPE, id: message.id, text }),
        (error) => worker.send({ type: SCRAPE, id: message.id, error: describeError(error) }),
      );
  });
}

/** In a cluster worker: answers the primary's requests for this worker's own metrics. */
export function answerClusterScrapes() {
  process.on("message", (/** @type {any} */ message) => {
    if (message?.type !== WORKER_METRICS) return;
    register.getMetricsAsJSON().then(
      (metrics) => process.send?.({ type: WORKER_METRICS, id: message.id, metrics }),
      () => process.send?.({ type: WORKER_METRICS, id: message.id, metrics: [] }),
    );
  });
}

let nextScrape = 0;
/** In a cluster worker: every worker's metrics, through the primary. @returns {Promise<string>} */
export function clusterMetrics() {
  const id = nextScrape++;
  return new Promise((resolve, reject) => {
    /** @param {any} message */
    const onMessage = (message) => {
      if (message?.type !== SCRAPE || message.id !== id) return;
      clearTimeout(timer);
      process.off("message", onMessage);
      if (typeof message.text === "string") resolve(message.text);
      else reject(new Error(message.error ?? "no metrics"));
    };
    const timer = setTimeout(() => {
      process.off("message", onMessage);
      reject(new Error("the cluster's metrics did not arrive within 10 s"));
    }, 10_000);
    process.on("message", onMessage);
    process.send?.({ type: SCRAPE, id });
  });
}
