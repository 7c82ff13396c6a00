import { randomBytes } from "node:crypto";
import type { NextFunction, Request, Response } from "express";
import { env } from "../env.server";

/**
 * Security headers on every response (checklist item 13). The CSP allows only our own scripts and
 * styles, plus the inline bootstrap React Router writes for hydration (by a per-response nonce);
 * frames only from the configured webinar origin.
 */
export function contentSecurityPolicy(nonce?: string): string {
  const e = env();
  const frameSrc = e.WEBINAR_ORIGIN ? `'self' ${e.WEBINAR_ORIGIN}` : "'self'";
  return [
    "default-src 'self'",
    // React Router's hydration bootstrap is inline: it carries this response's nonce
    // (app/entry.server.tsx), so no other inline script can run.
    nonce ? `script-src 'self' 'nonce-${nonce}'` : "script-src 'self' 'unsafe-inline'",
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
  // Vite's dev server injects its own inline scripts (HMR, React refresh), which carry no nonce.
  const nonce = env().NODE_ENV === "development" ? undefined : randomBytes(16).toString("base64");
  res.locals.cspNonce = nonce;
  res.setHeader("Content-Security-Policy", contentSecurityPolicy(nonce));
  res.setHeader("X-Content-Type-Options", "nosniff");
  res.setHeader("Referrer-Policy", "strict-origin-when-cross-origin");
  res.setHeader("X-Frame-Options", "DENY");
  res.setHeader("Permissions-Policy", "camera=(), microphone=(), geolocation=()");
  if (req.secure) res.setHeader("Strict-Transport-Security", "max-age=31536000; includeSubDomains");
  next();
}
