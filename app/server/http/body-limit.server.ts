import type { NextFunction, Request, Response } from "express";

/**
 * A ceiling on every request body, before any route reads it. The largest legitimate body (a
 * support ticket, a Stripe event) is a few KB; 256 KB leaves room and stops a client from making
 * the server buffer megabytes. Bodies must declare their length: a chunked body without
 * Content-Length could not be refused before it was read, so it is refused (411).
 */
const MAX_BODY_BYTES = 256 * 1024;

export function bodyLimit(req: Request, res: Response, next: NextFunction) {
  if (req.method === "GET" || req.method === "HEAD" || req.method === "OPTIONS") return next();
  const declared = req.headers["content-length"];
  if (declared === undefined) {
    if (req.headers["transfer-encoding"]) {
      res.status(411).set("Connection", "close").json({ error: "Content-Length required" });
      return;
    }
    return next();
  }
  const length = Number(declared);
  if (!Number.isSafeInteger(length) || length < 0) {
    res.status(400).set("Connection", "close").json({ error: "Invalid Content-Length" });
    return;
  }
  if (length > MAX_BODY_BYTES) {
    res.status(413).set("Connection", "close").json({ error: "Request body too large" });
    return;
  }
  next();
}
