import type { NextFunction, Request, Response } from "express";

/**
 * Cache-Control of HTML responses (docs/decisions/0070-shared-cache-headers.md).
 *
 * A stored anonymous page (page-cache.server.ts) is the one response a shared cache may keep: it
 * holds no per-user data, sets no cookie, and its CSP allows its inline scripts by hash, so the same
 * bytes are valid for every visitor (a nonce must be unique per response: a copy served twice by a
 * CDN would repeat it). Everything else a route does not mark itself is private.
 */

/** What a response gets when nothing on its way named a Cache-Control. */
export const PRIVATE_BY_DEFAULT = "private, no-cache";

/**
 * A stored anonymous page: browsers revalidate each time (max-age=0: a cheap 304 by ETag, and the
 * visitor who signs in is not shown the anonymous copy), a shared cache keeps it for as long as
 * this server keeps it in memory (PAGE_CACHE_SECONDS) and may then answer from the stale copy for
 * as long again while it fetches the new one in the background.
 */
export function sharedCacheControl(ttlSeconds: number): string {
  const seconds = Math.max(1, Math.round(ttlSeconds));
  return `public, max-age=0, s-maxage=${seconds}, stale-while-revalidate=${seconds}`;
}

/**
 * Express middleware: a response that names no Cache-Control by the time its headers are written
 * goes out as private. React Router's adapter appends a route's own headers, so the default is
 * decided when the headers are written, not set before (it would be appended to).
 */
export function privateByDefault(_req: Request, res: Response, next: NextFunction) {
  const writeHead = res.writeHead;
  res.writeHead = function (this: Response, ...args: unknown[]) {
    if (!this.headersSent && !this.hasHeader("cache-control")) this.setHeader("Cache-Control", PRIVATE_BY_DEFAULT);
    return (writeHead as (...a: unknown[]) => Response).apply(this, args);
  } as Response["writeHead"];
  next();
}
