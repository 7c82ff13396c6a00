import { STATUS_CODES } from "node:http";
import type { NextFunction, Request, Response } from "express";
import { errorDetail, log } from "../log.server";

/**
 * Express's last error handler (four parameters, or Express does not take it for one): whatever a
 * middleware or React Router's adapter throws is one structured log line (method and path, never the
 * query or the body) and a plain 500. Express's default printed the stack over many lines to
 * stderr, breaking the one-JSON-object-per-line log for any client able to cause it.
 */
export function answerUnhandledError(error: unknown, req: Request, res: Response, _next: NextFunction) {
  const status = clientErrorStatus(error) ?? 500;
  if (status === 500)
    log.error("request failed outside the router", { method: req.method, path: req.path, error: errorDetail(error) });
  if (res.headersSent) {
    // Part of an answer went out: only closing the connection tells the client it is incomplete.
    req.socket.destroy();
    return;
  }
  res.status(status).set({ Connection: "close", "Cache-Control": "no-store" }).type("text/plain").send(STATUS_CODES[status]);
}

/** A 4xx a library put on its error (Express's router: 400 for a path it cannot decode). */
function clientErrorStatus(error: unknown): number | undefined {
  const { status, statusCode } = (typeof error === "object" && error !== null ? error : {}) as {
    status?: unknown;
    statusCode?: unknown;
  };
  const code = status ?? statusCode;
  return typeof code === "number" && code >= 400 && code < 500 ? code : undefined;
}
