import { randomBytes } from "node:crypto";
import type { ServerResponse } from "node:http";
import type { NextFunction, Request, Response } from "express";
import { env } from "../env.server";

/**
 * Security headers on every response, errors and static files included. The CSP allows only our own scripts and
 * styles, plus the inline bootstrap React Router writes for hydration (by a per-response nonce);
 * frames only from the configured webinar origin.
 */
export function contentSecurityPolicy(scripts: { nonce?: string; hashes?: string[] } = {}): string {
  const e = env();
  const { nonce, hashes } = scripts;
  // Our own pages are never framed (frame-ancestors 'none'), so only the webinar origin is allowed.
  const frameSrc = e.WEBINAR_ORIGIN ?? "'none'";
  return [
    "default-src 'self'",
    // React Router's hydration bootstrap is inline: it carries this response's nonce
    // (app/entry.server.tsx), or, in a stored page, is named by its hash (page-cache.server.ts), so
    // no other inline script can run.
    nonce
      ? `script-src 'self' 'nonce-${nonce}'`
      : hashes
        ? `script-src 'self' ${hashes.join(" ")}`.trimEnd()
        : "script-src 'self' 'unsafe-inline'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    "connect-src 'self'",
    `frame-src ${frameSrc}`,
    "frame-ancestors 'none'",
    "object-src 'none'",
    "base-uri 'self'",
    formAction(e),
  ].join("; ");
}

/**
 * Where a form may lead. Without JavaScript, the packages and distributor forms post here and are
 * redirected to the provider's hosted checkout, and the Google button to Google's sign-in: Chrome
 * applies form-action to those redirects too.
 */
function formAction(e: { STRIPE_ENABLED: boolean; GOOGLE_ENABLED: boolean }): string {
  const targets = ["'self'"];
  if (e.STRIPE_ENABLED) targets.push("https://checkout.stripe.com");
  if (e.GOOGLE_ENABLED) targets.push("https://accounts.google.com");
  return `form-action ${targets.join(" ")}`;
}

/** The headers every response carries besides its CSP; HSTS only over https. */
const STATIC_SECURITY_HEADERS: readonly (readonly [string, string])[] = [
  ["X-Content-Type-Options", "nosniff"],
  ["Referrer-Policy", "strict-origin-when-cross-origin"],
  ["X-Frame-Options", "DENY"],
  ["Permissions-Policy", "camera=(), microphone=(), geolocation=()"],
];
const HSTS = ["Strict-Transport-Security", "max-age=31536000; includeSubDomains"] as const;

/** The (lower-case) names of every header setSecurityHeaders sets. */
export const SECURITY_HEADER_NAMES: readonly string[] = [
  "content-security-policy",
  HSTS[0],
  ...STATIC_SECURITY_HEADERS.map(([name]) => name),
].map((name) => name.toLowerCase());

/** The security headers of a response with this CSP, as name/value pairs. */
export function securityHeaderPairs(csp: string, secure: boolean): (readonly [string, string])[] {
  return [["Content-Security-Policy", csp], ...STATIC_SECURITY_HEADERS, ...(secure ? [HSTS] : [])];
}

/** Sets the security headers on a plain Node response. */
function setSecurityHeaders(res: ServerResponse, csp: string, secure: boolean) {
  for (const [name, value] of securityHeaderPairs(csp, secure)) res.setHeader(name, value);
}

/**
 * express.static's setHeaders hook (server.js): files from the build folder are sent before the
 * application's pipeline runs, so they get the same headers here; their CSP allows no inline script.
 */
export function staticFileSecurityHeaders(res: Response) {
  setSecurityHeaders(res, contentSecurityPolicy({ hashes: [] }), res.req.secure);
}

export function securityHeaders(req: Request, res: Response, next: NextFunction) {
  // Vite's dev server injects its own inline scripts (HMR, React refresh), which carry no nonce.
  const nonce = env().NODE_ENV === "development" ? undefined : randomBytes(16).toString("base64");
  res.locals.cspNonce = nonce;
  setSecurityHeaders(res, contentSecurityPolicy({ nonce }), req.secure);
  next();
}
