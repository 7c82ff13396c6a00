import type { IncomingMessage, ServerResponse } from "node:http";
import { createRequestHandler } from "@react-router/express";
import express from "express";
import { RouterContextProvider } from "react-router";
import * as serverBuild from "virtual:react-router/server-build";
import { cspNonceRouterContext } from "~/lib/csp-nonce";
import { pageCacheRouterContext, type PageCacheMark } from "~/lib/page-cache";
import { createPageCache, routesOptedIn, type TrustProxy } from "~/server/http/page-cache.server";
import { boot, bootForServing, shutdown } from "~/server/boot.server";
import { securityHeaders } from "~/server/http/security-headers.server";
import { privateByDefault, sharedCacheControl } from "~/server/http/cache-control.server";
import { originCheck } from "~/server/http/origin-check.server";
import { bodyLimit } from "~/server/http/body-limit.server";
import { database } from "~/server/db/client.server";
import { onCatalogueChange, watchCatalogue } from "~/server/catalogue/catalogue-version.server";
import { requestCdnPurge } from "~/server/http/purge-cdn.server";
import { authSecret, sessionCookieName } from "~/server/auth/auth.server";
import { CLIENT_IP_HEADER, PEER_IP_HEADER } from "~/server/http/client-ip.server";
import { env } from "~/server/env.server";
import { requestAdmission } from "~/server/http/admission.server";
import { createDatabaseHealthCheck } from "~/server/db/database-health.server";
import { refuseMethodsRoutesLack, refuseUnimplementedMethod } from "~/server/http/unsupported-methods.server";
import { refuseInvalidHost } from "~/server/http/host-header.server";
import { answerUnhandledError } from "~/server/http/unhandled-error.server";
import { labelRoutes } from "~/server/http/route-label.server";
import { appMetrics } from "~/server/metrics/app-metrics.server";
import { labelRoute } from "~/server/logger.server.js";

export { boot, bootForServing, shutdown };
// The release step and the PGlite export (scripts/db-migrate.js, scripts/db-export-pglite.js) run
// the bundle's code, so a production install needs no TypeScript tooling for them.
export { runReleaseStep } from "~/server/boot.server";
export { exportPgliteToPostgres } from "~/server/db/export-pglite.server";
// server.js serves the build's static files before this app runs: they get the same headers, and the
// outer server believes the same proxies.
export { staticFileSecurityHeaders } from "~/server/http/security-headers.server";
// Tooling that drives the built server in-process (tests/fuzz, bench) reads the database through this.
export { database } from "~/server/db/client.server";
// ...and lists Better Auth's endpoints through this (the fuzzer checks it sends every one).
export { auth } from "~/server/auth/auth.server";
// server.js answers with these what never reaches Express (a CONNECT, a request Node cannot parse)
// and what throws in its own middleware.
export { answerClientError, refuseConnect } from "~/server/http/unsupported-methods.server";
export { answerUnhandledError } from "~/server/http/unhandled-error.server";

/** The request pipeline shared by the production server and the dev server. */
export const app = express();
app.disable("x-powered-by");
// X-Forwarded-For is believed only from configured proxies; otherwise the socket address counts.
app.set("trust proxy", env().TRUSTED_PROXY_LIST.length ? env().TRUSTED_PROXY_LIST : false);
app.use((req, _res, next) => {
  // Overwrite whatever the client sent: rate limits key on this header.
  req.headers[CLIENT_IP_HEADER] = req.ip ?? req.socket.remoteAddress ?? "unknown";
  req.headers[PEER_IP_HEADER] = req.socket.remoteAddress ?? "unknown";
  next();
});
app.use(securityHeaders);
// HTML a route does not mark itself is private; only the page cache's stored copies are public
// (docs/decisions/0070-shared-cache-headers.md).
app.use(privateByDefault);
// Each request's log line and metrics name its route pattern, never its URL.
app.use(labelRoutes(serverBuild));
// Unsupported methods answer before any route: 501 for those no resource here takes (TRACE,
// CONNECT, PROPFIND...), 405 with Allow for OPTIONS, PUT, PATCH and DELETE (after the Origin check,
// which refuses a cross-site one first).
app.use(refuseUnimplementedMethod);
app.use(originCheck);
app.use(refuseMethodsRoutesLack(serverBuild));
app.use(bodyLimit);
// Anonymous pages that opted in are served from memory (docs/decisions/0015): hits are answered by
// servePageFromCache before Express runs; this middleware stores what the router renders. Off in
// development, where every request must show the code as it is now.
const pageCacheSeconds = env().NODE_ENV === "development" ? 0 : env().PAGE_CACHE_SECONDS;
const pageCache =
  pageCacheSeconds > 0
    ? createPageCache({
        ttlMs: pageCacheSeconds * 1000,
        cacheControl: sharedCacheControl(pageCacheSeconds),
        maxBytes: 64 * 1024 * 1024,
        maxEntryBytes: 2 * 1024 * 1024,
        mayStore: routesOptedIn(serverBuild),
        onLookup: appMetrics().pageCacheLookup,
      })
    : null;
if (pageCache) {
  app.use(pageCache.capture);
  // A catalogue edit (this instance's at once, any instance's or a scheduled price's within a poll)
  // drops the stored pages: they show prices (docs/decisions/0078-catalogue-in-database.md). A CDN
  // keeping them by their s-maxage is told to drop them too, when CDN_PURGE_URL names its endpoint
  // (docs/decisions/0088-cdn-purge-on-catalogue-change.md).
  const catalogueMoved = () => {
    pageCache.clear();
    void requestCdnPurge();
  };
  onCatalogueChange(catalogueMoved);
  watchCatalogue(() => database()?.db, catalogueMoved);
}

/**
 * First look at every request (server.js): the anonymous page cache answers it, or `next` (Express)
 * does, at once or after another request's first render of the same page. Signed-in pages are
 * rendered on every request (docs/decisions/0046-signed-in-pages-render-every-request.md).
 */
export function servePageFromCache(req: IncomingMessage, res: ServerResponse, next: () => void): void {
  if (pageCache) pageCache.serve(req, res, app.get("trust proxy fn") as TrustProxy, next);
  else next();
}

// 200 only while the database both reads and writes: a full disk or a read-only database keeps
// answering `select 1` while every lead, sign-up and payment fails (the write check is cached for
// seconds, so probes do not write on every hit).
const checkDatabase = createDatabaseHealthCheck();
app.get("/healthz", async (_req, res) => {
  labelRoute(res, "/healthz");
  res.set("Cache-Control", "no-store");
  const open = database();
  if (!open) {
    res.status(503).json({ status: "starting" });
    return;
  }
  const health = await checkDatabase(open.db);
  if (health.state === "ok") res.json({ status: "ok", database: open.kind });
  else res.status(503).json({ status: "degraded", database: health.state });
});

// A few page and data requests at a time, the rest in turns fair between clients (docs/decisions/0026
// and 0031-fair-admission). Page-cache hits, static files and /healthz were answered before this
// point; actions pass the line.
const admission = requestAdmission({ cookieName: sessionCookieName(), secret: authSecret }, appMetrics().admission);
appMetrics().watchAdmission(admission);
app.use(admission.middleware);
app.use(refuseInvalidHost);
app.use(
  createRequestHandler({
    // The build itself, not a function returning it: React Router re-derives its route tables
    // from a function's result on every request (its development form).
    build: serverBuild,
    getLoadContext: (_req, res) => {
      const context = new RouterContextProvider();
      context.set(cspNonceRouterContext, typeof res.locals.cspNonce === "string" ? res.locals.cspNonce : undefined);
      context.set(pageCacheRouterContext, res.locals.pageCache as PageCacheMark | undefined);
      return context;
    },
  }),
);
// Whatever throws on the way (React Router's adapter included): one log line and a plain 500.
app.use(answerUnhandledError);
