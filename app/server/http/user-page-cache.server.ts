import { createHmac, timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { promisify } from "node:util";
import { gzip } from "node:zlib";
import type { NextFunction, Request, Response } from "express";
import { LRUCache } from "lru-cache";
import { errorMessage, log } from "../log.server";
import {
  isSecure,
  keepBody,
  preferredEncoding,
  storedHeaders,
  storedPageHeaderList,
  withoutNonce,
  type StoredHeaders,
  type TrustProxy,
} from "./page-cache.server";

const gzipAsync = promisify(gzip);

/**
 * Rendered-page cache for signed-in dashboard pages (ADR 0017, session 16).
 *
 * A GET of a dashboard page (no query string) with a valid session cookie is answered from memory
 * when this session has a stored copy of that URL made at the current version of the user's data.
 * Every hit still reads the session from the database (`lookup`), so a signed-out, expired or
 * revoked session is never answered here, on any instance; the version read with it is bumped by
 * database triggers whenever a row the user's pages show is written (page-versions.server.ts), so
 * a stored page is never served once its data has changed. Copies also expire after `ttlMs`,
 * because pages show time (trial days left).
 *
 * The key is the host, the URL, the whole Cookie header (the session token, the sidebar state and
 * any other cookie a page may read) and the version. Only 200 HTML answers that set no cookie are
 * stored. Everything unusual (a query string, a session Better Auth would extend now, a lookup
 * error) is left to React Router.
 *
 * Like the anonymous cache (0015): `serve` answers on the bare Node request before Express, and
 * `capture` (Express middleware after the security headers) stores what the router rendered; the
 * stored copy's inline scripts are allowed by hash, never by a reused nonce.
 */
export interface UserPageCacheOptions {
  ttlMs: number;
  maxBytes: number;
  maxEntryBytes: number;
  /** Better Auth's session cookie name under this configuration. */
  cookieName: string;
  /** The secret Better Auth signs the session cookie with. */
  secret: () => string;
  /** The session's user and data version; null when the session must not be answered from here. */
  lookup: (token: string) => Promise<{ userId: string; version: string } | null>;
  /** Whether a dashboard path's page may be stored (pages showing unversioned data may not). */
  mayStore: (path: string) => boolean;
  now?: () => number;
}

interface Entry {
  storedAt: number;
  refreshingSince: number | null;
  headers: StoredHeaders;
  csp: string;
  identity: Buffer;
  gzip: Buffer;
  /** Whole header lists, by (gzip ? 1 : 0) + (https ? 2 : 0). */
  wire: (string | number)[][];
}

/** Stops a stuck render from holding back the requests waiting for it. */
const RENDER_TIMEOUT_MS = 5_000;

/** Dashboard pages: /dashboard and one segment below it, nothing else (no data requests, no query). */
const DASHBOARD_PAGE = /^\/dashboard(?:\/[a-z][a-z-]*)?$/;

/** Where `serve` leaves the key of a request it sent on to be rendered, for `capture`. */
const RENDER_KEY = Symbol("userPageCacheKey");
type Marked = IncomingMessage & { [RENDER_KEY]?: string };

const SIGNATURE = /^[A-Za-z0-9+/]{43}=$/;

/**
 * The session token of a cookie header when it holds exactly one session cookie signed with
 * `secret`, Better Auth's form: `<token>.<base64 HMAC-SHA256(token)>`, URI-encoded. Anything else
 * (none, two, a bad signature, bad encoding) is null.
 */
export function verifiedSessionToken(cookieHeader: string | undefined, cookieName: string, secret: string): string | null {
  if (!cookieHeader) return null;
  let value: string | null = null;
  for (const part of cookieHeader.split(";")) {
    const eq = part.indexOf("=");
    if (eq < 0 || part.slice(0, eq).trim() !== cookieName) continue;
    if (value !== null) return null;
    value = part.slice(eq + 1).trim();
  }
  if (value === null) return null;
  let decoded: string;
  try {
    decoded = decodeURIComponent(value);
  } catch {
    return null;
  }
  const dot = decoded.lastIndexOf(".");
  if (dot < 1) return null;
  const token = decoded.slice(0, dot);
  const signature = decoded.slice(dot + 1);
  if (!SIGNATURE.test(signature)) return null;
  const expected = createHmac("sha256", secret).update(token).digest();
  const given = Buffer.from(signature, "base64");
  return given.length === expected.length && timingSafeEqual(given, expected) ? token : null;
}

export function createUserPageCache(options: UserPageCacheOptions) {
  const now = options.now ?? Date.now;
  const entries = new LRUCache<string, Entry>({
    maxSize: options.maxBytes,
    sizeCalculation: (e) => e.identity.length + e.gzip.length,
  });
  /** Keys being rendered with no entry yet: requests for the same key wait for that render. */
  const rendering = new Map<string, (() => void)[]>();

  function send(entry: Entry, req: IncomingMessage, res: ServerResponse, trustProxy: TrustProxy) {
    const gzipped = preferredEncoding(req.headers["accept-encoding"]) !== "identity";
    const secure = isSecure(req, trustProxy);
    // The header list is built once per encoding and scheme: a hit is then one writeHead.
    const wireKey = (gzipped ? 1 : 0) + (secure ? 2 : 0);
    let headers = entry.wire[wireKey];
    if (!headers) {
      headers = storedPageHeaderList(entry.csp, secure, entry.headers);
      headers.push("Vary", "Accept-Encoding, Cookie", "X-Page-Cache", "hit");
      if (gzipped) headers.push("Content-Encoding", "gzip");
      headers.push("Content-Length", (gzipped ? entry.gzip : entry.identity).length);
      entry.wire[wireKey] = headers;
    }
    res.writeHead(200, headers);
    res.end(gzipped ? entry.gzip : entry.identity);
  }

  /** The stored page of this request when it has one now; otherwise `next` renders it. */
  async function serve(req: IncomingMessage, res: ServerResponse, trustProxy: TrustProxy, next: () => void): Promise<void> {
    const url = req.url ?? "";
    if (req.method !== "GET" || !DASHBOARD_PAGE.test(url) || !options.mayStore(url)) return next();
    const cookie = req.headers.cookie;
    // Better Auth treats a "don't remember me" session differently on refresh: leave it to it.
    if (!cookie || cookie.includes("dont_remember")) return next();
    let found: { userId: string; version: string } | null;
    try {
      const token = verifiedSessionToken(cookie, options.cookieName, options.secret());
      found = token ? await options.lookup(token) : null;
    } catch (error) {
      log.warn("user page cache: session lookup failed, rendering", { error: errorMessage(error) });
      return next();
    }
    if (!found || res.destroyed) return next();
    const key = `${req.headers.host ?? ""}\n${url}\n${cookie}\n${found.userId}\n${found.version}`;
    const entry = entries.get(key);
    const at = now();
    if (entry) {
      const fresh = at - entry.storedAt < options.ttlMs;
      const beingRefreshed = entry.refreshingSince !== null && at - entry.refreshingSince < RENDER_TIMEOUT_MS;
      if (fresh || beingRefreshed) return send(entry, req, res, trustProxy);
      // Expired: this request renders the replacement, concurrent ones get this copy meanwhile (its
      // data is current: the version is the same).
      entry.refreshingSince = at;
    } else {
      const waiters = rendering.get(key);
      if (waiters) {
        // Another request is rendering this page: answer from its copy, or render if none is stored.
        let done = false;
        const go = () => {
          if (done) return;
          done = true;
          clearTimeout(timer);
          const stored = entries.get(key);
          if (res.destroyed) return;
          if (stored) send(stored, req, res, trustProxy);
          else next();
        };
        const timer = setTimeout(go, RENDER_TIMEOUT_MS);
        waiters.push(go);
        return;
      }
      rendering.set(key, []);
      // Should the request end without reaching `capture` (an earlier middleware answered it), the
      // requests waiting for its render are let go at once, not after RENDER_TIMEOUT_MS.
      res.once("close", () => {
        if ((req as Marked)[RENDER_KEY] === key) release(key);
      });
    }
    (req as Marked)[RENDER_KEY] = key;
    next();
  }

  function release(key: string) {
    const waiters = rendering.get(key);
    rendering.delete(key);
    for (const go of waiters ?? []) go();
  }

  async function store(key: string, body: Buffer, res: Response) {
    const nonce = typeof res.locals.cspNonce === "string" ? res.locals.cspNonce : undefined;
    const cleaned = withoutNonce(body.toString("utf8"), nonce);
    if (!cleaned) return;
    const identity = Buffer.from(cleaned.html, "utf8");
    entries.set(key, {
      storedAt: now(),
      refreshingSince: null,
      headers: storedHeaders(res.getHeaders()),
      csp: cleaned.csp,
      identity,
      gzip: await gzipAsync(identity),
      wire: [],
    });
  }

  /** Express middleware: stores the render of a request `serve` sent on with a key. */
  function capture(req: Request, res: Response, next: NextFunction) {
    const key = (req as unknown as Marked)[RENDER_KEY];
    if (key === undefined) return next();
    // From here `capture` releases the waiters (after storing), not serve's close listener.
    (req as unknown as Marked)[RENDER_KEY] = undefined;
    const body = keepBody(res, options.maxEntryBytes);
    let settled = false;
    const settle = () => {
      if (settled) return;
      settled = true;
      const kept = body();
      const storable =
        res.writableFinished &&
        kept !== null &&
        res.statusCode === 200 &&
        res.getHeader("set-cookie") === undefined &&
        /^text\/html\b/i.test(String(res.getHeader("content-type") ?? ""));
      if (!storable) {
        const stale = entries.peek(key);
        if (stale) stale.refreshingSince = null;
        release(key);
        return;
      }
      store(key, kept, res)
        .catch((error: unknown) => log.error("user page cache store failed", { path: req.path, error: errorMessage(error) }))
        .finally(() => release(key));
    };
    // 'close' also ends a render the client gave up on, so waiting requests are not left waiting.
    res.once("finish", settle);
    res.once("close", settle);
    next();
  }

  return { serve, capture, size: () => entries.size, clear: () => entries.clear() };
}

export type UserPageCache = ReturnType<typeof createUserPageCache>;
