import type { NextFunction, Request, Response } from "express";
import { env } from "../env.server";

/**
 * Security headers on every response (checklist item 13). The CSP allows only our own scripts and
 * styles, plus the inline bootstrap React Router writes for hydration; frames only from the
 * configured webinar origin.
 */
export function contentSecurityPolicy(): string {
  const e = env();
  const frameSrc = e.WEBINAR_ORIGIN ? `'self' ${e.WEBINAR_ORIGIN}` : "'self'";
  return [
    "default-src 'self'",
    // React Router's hydration data is an inline script; a per-request nonce would need every
    // <Scripts> to carry it. 'unsafe-inline' for scripts is limited to that bootstrap by the lack of
    // any user-controlled HTML on the site.
    "script-src 'self' 'unsafe-inline'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    "connect-src 'self'",
    `frame-src ${frameSrc}`,
    "frame-ancestors 'none'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
  ].join("; ");
}

export function securityHeaders(req: Request, res: Response, next: NextFunction) {
  res.setHeader("Content-Security-Policy", contentSecurityPolicy());
  res.setHeader("X-Content-Type-Options", "nosniff");
  res.setHeader("Referrer-Policy", "strict-origin-when-cross-origin");
  res.setHeader("X-Frame-Options", "DENY");
  res.setHeader("Permissions-Policy", "camera=(), microphone=(), geolocation=()");
  if (req.secure) res.setHeader("Strict-Transport-Security", "max-age=31536000; includeSubDomains");
  next();
}
