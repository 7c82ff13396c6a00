import { createRequestHandler } from "@react-router/express";
import express from "express";
import { RouterContextProvider } from "react-router";
import { cspNonceRouterContext } from "~/lib/csp-nonce";
import { boot, shutdown } from "~/server/boot.server";
import { securityHeaders } from "~/server/http/security-headers.server";
import { originCheck } from "~/server/http/origin-check.server";
import { bodyLimit } from "~/server/http/body-limit.server";
import { database } from "~/server/db/client.server";
import { CLIENT_IP_HEADER } from "~/server/auth/auth.server";
import { env } from "~/server/env.server";

export { boot, shutdown };
// Tooling that drives the built server in-process (tests/fuzz, bench) reads the database through this.
export { database } from "~/server/db/client.server";

/** The request pipeline shared by the production server and the dev server. */
export const app = express();
app.disable("x-powered-by");
// X-Forwarded-For is believed only from configured proxies; otherwise the socket address counts.
app.set("trust proxy", env().TRUSTED_PROXY_LIST.length ? env().TRUSTED_PROXY_LIST : false);
app.use((req, _res, next) => {
  // Overwrite whatever the client sent: rate limits key on this header.
  req.headers[CLIENT_IP_HEADER] = req.ip ?? req.socket.remoteAddress ?? "unknown";
  next();
});
app.use(securityHeaders);
app.use(originCheck);
app.use(bodyLimit);

app.get("/healthz", async (_req, res) => {
  const open = database();
  if (!open) {
    res.status(503).json({ status: "starting" });
    return;
  }
  try {
    await open.db.execute("select 1");
    res.json({ status: "ok", database: open.kind });
  } catch {
    res.status(503).json({ status: "database unavailable" });
  }
});

app.use(
  createRequestHandler({
    build: () => import("virtual:react-router/server-build"),
    getLoadContext: (_req, res) => {
      const context = new RouterContextProvider();
      context.set(cspNonceRouterContext, typeof res.locals.cspNonce === "string" ? res.locals.cspNonce : undefined);
      return context;
    },
  }),
);
