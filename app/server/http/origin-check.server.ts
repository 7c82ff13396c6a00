import type { NextFunction, Request, Response } from "express";
import { env } from "../env.server";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);
/** Server-to-server endpoints authenticated by their own signatures (payment webhooks). */
const EXEMPT_PREFIXES = ["/api/webhooks/"];

/**
 * CSRF defence for every state-changing request: the Origin header must be
 * present and equal to the site's own origin. A missing, `null` or foreign Origin gets 403.
 */
export function originCheck(req: Request, res: Response, next: NextFunction) {
  if (SAFE_METHODS.has(req.method) || EXEMPT_PREFIXES.some((p) => req.path.startsWith(p))) return next();
  const origin = req.get("origin");
  if (origin && origin === new URL(env().PUBLIC_SITE_URL).origin) return next();
  res.status(403).type("text/plain").send("Forbidden: cross-origin request refused");
}
