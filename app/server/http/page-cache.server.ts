import { createHash } from "node:crypto";
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from "node:http";
import type { TLSSocket } from "node:tls";
import { promisify } from "node:util";
import { brotliCompress, constants as zlibConstants, gzip } from "node:zlib";
import type { NextFunction, Request, Response } from "express";
import { LRUCache } from "lru-cache";
import type { ServerBuild } from "react-router";
import { routeOptsIntoPageCache, type PageCacheMark } from "~/lib/page-cache";
import { errorMessage, log } from "../log.server";
import { labelRoute, markServedFromCache, routeOf } from "../logger.server.js";
import { preferredEncoding, type Encoding } from "./content-encoding.server";
import { deepestRoute } from "./deepest-route.server";
import { contentSecurityPolicy, SECURITY_HEADER_NAMES, securityHeaderPairs } from "./security-headers.server";

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

/**
 * Rendered-page cache for anonymous visitors (docs/decisions/0015-rendered-page-cache.md).
 *
 * A GET without a session cookie for a route that opted in (`handle = pageCacheHandle`) is
 * rendered once, stored with its gzip and brotli forms, and served from memory to every later
 * anonymous request for the same host and URL until it is `ttlMs` old. After that the first
 * request re-renders while the others keep getting the stored copy, so an expiry never sends a
 * burst of renders. Signed-in requests, other methods, non-200 answers and answers that set a
 * cookie are never stored or served from here.
 *
 * Two halves: `serve` answers hits on the bare Node request before Express sees it (Express's
 * per-request work alone costs more than sending the page), and `capture`, an Express middleware
 * placed after the security headers, stores what the router rendered for a miss.
 *
 * The stored HTML carries no CSP nonce: a nonce must be unique per response, so the copy's nonce
 * attributes are removed and its inline scripts are allowed by their SHA-256 hashes instead.
 */
export interface PageCacheOptions {
  ttlMs: number;
  /**
   * The Cache-Control a stored copy is served with (sharedCacheControl: public, for a CDN or the
   * proxy's cache). Unset: the header the render had.
   */
  cacheControl?: string;
  /** Total bytes kept (every encoding counted); the least recently used entries go first. */
  maxBytes: number;
  /** Larger documents are not stored. */
  maxEntryBytes: number;
  /**
   * Whether a URL's route opted in, known before it renders (the same rule the render applies).
   * Concurrent anonymous GETs of such a URL that no entry holds yet wait for one render of it
   * instead of each rendering it. Without it, every miss renders.
   */
  mayStore?: (url: string) => boolean;
  /** Told of each anonymous GET or HEAD: answered from the cache (or waiting for a first render) or not. */
  onLookup?: (hit: boolean) => void;
  now?: () => number;
}

interface Entry {
  storedAt: number;
  /** The route pattern that rendered it, for the log line and metrics of each hit. */
  route: string;
  /** When a request began re-rendering this expired entry; null when none is. */
  refreshingSince: number | null;
  headers: StoredHeaders;
  csp: string;
  etag: string;
  bodies: Record<Encoding, Buffer>;
  /**
   * The response's whole header list, flat (name, value, name, value...), built on first use for
   * each encoding, scheme and status: a hit then costs one writeHead, not a dozen validated
   * setHeader calls (bench/throughput.js measures this path against nginx).
   */
  wire: Map<string, (string | number)[]>;
}

/** Decides whether a proxy's X-Forwarded-Proto is believed: Express's compiled `trust proxy`. */
export type TrustProxy = (address: string | undefined, hop: number) => boolean;

/**
 * A stuck re-render (a request that never finished) stops holding the stale copy after this, and a
 * request waiting for another's first render of a page renders it itself.
 */
const REFRESH_TIMEOUT_MS = 10_000;

/** A request waiting for the render of a page no entry holds yet. */
interface Waiter {
  req: IncomingMessage;
  res: ServerResponse;
  fallback: () => void;
  timer: NodeJS.Timeout;
}

/** Response headers that belong to one response, not to the stored page (serve sets its own). */
const PER_RESPONSE_HEADERS: ReadonlySet<string> = new Set([
  ...SECURITY_HEADER_NAMES,
  "content-length",
  "content-encoding",
  "transfer-encoding",
  "etag",
  "vary",
  "date",
  "connection",
  "keep-alive",
  "set-cookie",
  "x-page-cache",
  // The render's own (private) header; a stored copy is served with the cache's.
  "cache-control",
]);

/** The headers of a rendered page that are kept with its stored copy. */
export type StoredHeaders = [string, string | number | string[]][];

function storedHeaders(headers: OutgoingHttpHeaders): StoredHeaders {
  const kept: StoredHeaders = [];
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined && !PER_RESPONSE_HEADERS.has(name)) kept.push([name, value]);
  }
  return kept;
}

/**
 * The start of a stored page's answer as one flat header list (name, value, name, value...): the
 * security headers with the copy's own CSP, then the page's kept headers. Each cache appends its own.
 */
function storedPageHeaderList(csp: string, secure: boolean, headers: StoredHeaders): (string | number)[] {
  const list: (string | number)[] = [];
  for (const [name, value] of securityHeaderPairs(csp, secure)) list.push(name, value);
  for (const [name, value] of headers) {
    for (const v of Array.isArray(value) ? value : [value]) list.push(name, v);
  }
  return list;
}

/** Better Auth's cookies (`better-auth.*`, `__Secure-better-auth.*`): a session may exist. */
const SESSION_COOKIE = /(?:^|;)\s*(?:__Secure-)?better-auth\./;

export function hasSessionCookie(cookieHeader: string | undefined): boolean {
  return cookieHeader !== undefined && SESSION_COOKIE.test(cookieHeader);
}

/** RFC 9110 13.1.2: If-None-Match is `*` or a list that holds this entity tag (weak comparison). */
export function matchesIfNoneMatch(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === "*") return true;
  return header.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag);
}

/**
 * The stored form of a rendered document: the nonce attributes removed, and the CSP that allows
 * exactly its inline scripts by hash. Null when the nonce cannot be removed cleanly.
 */
export function withoutNonce(html: string, nonce: string | undefined): { html: string; csp: string } | null {
  let out = html;
  if (nonce) {
    out = out.split(` nonce="${nonce}"`).join("");
    if (out.includes(nonce)) return null;
  }
  const hashes = new Set<string>();
  for (const match of out.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    const [, attributes = "", content = ""] = match;
    if (/\bsrc\s*=/i.test(attributes) || content === "") continue;
    hashes.add(`'sha256-${createHash("sha256").update(content, "utf8").digest("base64")}'`);
  }
  return { html: out, csp: contentSecurityPolicy({ hashes: [...hashes] }) };
}

function toBuffer(chunk: unknown, encoding: unknown): Buffer | null {
  if (Buffer.isBuffer(chunk)) return chunk;
  if (chunk instanceof Uint8Array) return Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  if (typeof chunk === "string") return Buffer.from(chunk, typeof encoding === "string" ? (encoding as BufferEncoding) : "utf8");
  return null;
}

/**
 * Keeps what the response sends (up to `maxBytes`) while it goes out: the returned function gives the
 * whole body once the response has finished, or null when it was larger.
 */
function keepBody(res: Response, maxBytes: number): () => Buffer | null {
  const chunks: Buffer[] = [];
  let size = 0;
  let overflow = false;
  const keep = (chunk: unknown, encoding: unknown) => {
    if (overflow) return;
    const buffer = toBuffer(chunk, encoding);
    if (!buffer) return;
    size += buffer.length;
    if (size > maxBytes) {
      overflow = true;
      chunks.length = 0;
    } else chunks.push(buffer);
  };
  const write = res.write;
  const end = res.end;
  res.write = function (this: Response, chunk: unknown, ...rest: unknown[]) {
    keep(chunk, rest[0]);
    return (write as (...args: unknown[]) => boolean).call(this, chunk, ...rest);
  } as Response["write"];
  res.end = function (this: Response, chunk?: unknown, ...rest: unknown[]) {
    if (typeof chunk !== "function") keep(chunk, rest[0]);
    return (end as (...args: unknown[]) => Response).call(this, chunk, ...rest);
  } as Response["end"];
  return () => (overflow ? null : Buffer.concat(chunks));
}

function cacheKey(host: string | undefined, url: string | undefined): string {
  return `${host ?? ""} ${url ?? ""}`;
}

/** Same rule as Express's `req.protocol`: TLS, or the first X-Forwarded-Proto of a trusted proxy. */
function isSecure(req: IncomingMessage, trustProxy: TrustProxy): boolean {
  if ((req.socket as TLSSocket).encrypted) return true;
  if (!trustProxy(req.socket.remoteAddress, 0)) return false;
  const header = req.headers["x-forwarded-proto"];
  const proto = (Array.isArray(header) ? header[0] : header)?.split(",")[0]?.trim();
  return proto === "https";
}

/** One entity tag per encoding: the bytes differ. */
function etagOf(entry: Entry, encoding: Encoding): string {
  return `${entry.etag.slice(0, -1)}-${encoding}"`;
}

function wireHeaders(
  entry: Entry,
  encoding: Encoding,
  secure: boolean,
  notModified: boolean,
  cacheControl: string | undefined,
): (string | number)[] {
  const key = `${encoding} ${secure} ${notModified}`;
  let wire = entry.wire.get(key);
  if (!wire) {
    wire = storedPageHeaderList(entry.csp, secure, entry.headers);
    // Vary: Accept-Encoding only. A shared cache keyed on the URL must not give a signed-in visitor
    // this anonymous copy: the example configurations bypass the cache for a session cookie
    // (DEPLOY.md); Vary: Cookie would split it by every other cookie a visitor carries.
    wire.push("Vary", "Accept-Encoding", "ETag", etagOf(entry, encoding), "X-Page-Cache", "hit");
    if (cacheControl) wire.push("Cache-Control", cacheControl);
    if (!notModified) {
      if (encoding !== "identity") wire.push("Content-Encoding", encoding);
      wire.push("Content-Length", entry.bodies[encoding].length);
    }
    entry.wire.set(key, wire);
  }
  return wire;
}

/**
 * The `mayStore` of a React Router build: whether the deepest route a URL matches opted in, the
 * rule entry.server.tsx applies to a render, known here before the render. Paths are remembered
 * (bounded): matching costs more than a cache hit.
 */
export function routesOptedIn(build: Pick<ServerBuild, "routes" | "basename">): (url: string) => boolean {
  const routeOf = deepestRoute(build);
  const known = new LRUCache<string, boolean>({ max: 1_000 });
  return (url) => {
    const pathname = url.split(/[?#]/, 1)[0] ?? "/";
    let optedIn = known.get(pathname);
    if (optedIn === undefined) {
      const leaf = routeOf(pathname);
      optedIn = leaf !== undefined && routeOptsIntoPageCache(leaf.module.handle);
      known.set(pathname, optedIn);
    }
    return optedIn;
  };
}

export function createPageCache(options: PageCacheOptions) {
  const now = options.now ?? Date.now;
  const entries = new LRUCache<string, Entry>({
    maxSize: options.maxBytes,
    sizeCalculation: (e) => e.bodies.identity.length + e.bodies.gzip.length + e.bodies.br.length,
  });

  /**
   * Admission: a URL is stored on its second storable render, not its first. Query strings are
   * free to invent, and each stored page costs a brotli-11 compression (storing's most expensive
   * step, worst for a large page such as /apps) and cache space that would evict the pages people actually share; a URL asked for once
   * is only rendered. Bounded like the cache: a flood of new URLs forgets older first sightings.
   */
  const seenOnce = new LRUCache<string, true>({ max: 10_000 });
  /** Keys being compressed now: concurrent misses of a cold page store it once, not once each. */
  const storing = new Map<string, Promise<void>>();
  /**
   * Pages no entry holds, being rendered by one anonymous GET (the key is present), with the
   * requests for the same URL that arrived meanwhile. Without this, a burst of visitors on a cold
   * cache (a deploy, a restart) renders a popular page once per visitor: 400 at once kept the
   * slowest waiting for tens of seconds (bench/cold-burst.js).
   */
  const waiting = new Map<string, Waiter[]>();
  /**
   * Bumped by `clear`: a render that began before a clear (it may show the catalogue as it was) is
   * not stored after it.
   */
  let generation = 0;

  async function store(
    key: string,
    body: Buffer,
    headers: OutgoingHttpHeaders,
    nonce: string | undefined,
    route: string,
    renderedIn: number,
  ) {
    const cleaned = withoutNonce(body.toString("utf8"), nonce);
    if (!cleaned) return;
    const identity = Buffer.from(cleaned.html, "utf8");
    const [gz, br] = await Promise.all([
      gzipAsync(identity, { level: 9 }),
      brotliAsync(identity, {
        params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11, [zlibConstants.BROTLI_PARAM_SIZE_HINT]: identity.length },
      }),
    ]);
    if (renderedIn !== generation) return;
    entries.set(key, {
      storedAt: now(),
      route,
      refreshingSince: null,
      headers: storedHeaders(headers),
      csp: cleaned.csp,
      etag: `"${createHash("sha256").update(identity).digest("base64url").slice(0, 27)}"`,
      bodies: { identity, gzip: gz, br },
      wire: new Map(),
    });
  }

  /**
   * Answers the request from the cache when it can, on the bare Node request: nothing but the
   * method, the cookie header and the URL decide it. Otherwise calls `fallback` (the application
   * renders), at once or, when another request is rendering the same page for the first time,
   * once that render has been stored.
   */
  function serve(req: IncomingMessage, res: ServerResponse, trustProxy: TrustProxy, fallback: () => void): void {
    const hit = answer(req, res, trustProxy, fallback);
    if (options.onLookup && (req.method === "GET" || req.method === "HEAD") && !hasSessionCookie(req.headers.cookie)) {
      options.onLookup(hit);
    }
    if (!hit) fallback();
  }

  /** Sends the stored page (true); false when the request is not this cache's to answer now. */
  function answer(req: IncomingMessage, res: ServerResponse, trustProxy: TrustProxy, fallback?: () => void): boolean {
    if ((req.method !== "GET" && req.method !== "HEAD") || hasSessionCookie(req.headers.cookie)) return false;
    const key = cacheKey(req.headers.host, req.url);
    const entry = entries.get(key);
    if (!entry) return fallback !== undefined && req.method === "GET" && awaitFirstRender(key, req, res, trustProxy, fallback);
    const at = now();
    const fresh = at - entry.storedAt < options.ttlMs;
    const beingRefreshed = entry.refreshingSince !== null && at - entry.refreshingSince < REFRESH_TIMEOUT_MS;
    if (!fresh && !beingRefreshed && req.method === "GET") {
      // This request renders the replacement; concurrent ones keep getting the stored copy.
      entry.refreshingSince = at;
      return false;
    }
    const encoding = preferredEncoding(req.headers["accept-encoding"]);
    const notModified = matchesIfNoneMatch(req.headers["if-none-match"], etagOf(entry, encoding));
    const stored = wireHeaders(entry, encoding, isSecure(req, trustProxy), notModified, options.cacheControl);
    // The request's id (server.js's request logger): the one per-response header of a hit.
    const id = (req as { id?: unknown }).id;
    const headers = typeof id === "string" ? stored.concat("X-Request-Id", id) : stored;
    markServedFromCache(res);
    labelRoute(res, entry.route);
    if (notModified) {
      res.writeHead(304, headers);
      res.end();
    } else {
      res.writeHead(200, headers);
      if (req.method === "HEAD") res.end();
      else res.end(entry.bodies[encoding]);
    }
    return true;
  }

  /**
   * A miss of a page that may be stored: the first request renders it (false), later ones wait for
   * that render (true) and are then answered from the stored copy, or render themselves when it
   * was not stored (another status, a cookie) or took longer than REFRESH_TIMEOUT_MS.
   */
  function awaitFirstRender(
    key: string,
    req: IncomingMessage,
    res: ServerResponse,
    trustProxy: TrustProxy,
    fallback: () => void,
  ): boolean {
    if (!options.mayStore?.(req.url ?? "/")) return false;
    const queue = waiting.get(key);
    if (!queue) {
      waiting.set(key, []);
      // 'close' follows 'finish' (when capture starts the store) and also ends an aborted render.
      res.once("close", () => void settle(key, trustProxy));
      return false;
    }
    const waiter: Waiter = {
      req,
      res,
      fallback,
      timer: setTimeout(() => {
        queue.splice(queue.indexOf(waiter), 1);
        log.warn("page cache: a first render took too long, the waiting request renders", { path: req.url?.split("?", 1)[0] });
        fallback();
      }, REFRESH_TIMEOUT_MS),
    };
    queue.push(waiter);
    return true;
  }

  async function settle(key: string, trustProxy: TrustProxy) {
    await storing.get(key);
    const queue = waiting.get(key) ?? [];
    waiting.delete(key);
    for (const { req, res, fallback, timer } of queue) {
      clearTimeout(timer);
      if (res.destroyed) continue;
      // Not stored: each renders for itself at once (no second round of waiting).
      if (!answer(req, res, trustProxy)) fallback();
    }
  }

  /** Express middleware: keeps the body of an anonymous GET and stores it if it finishes cacheable. */
  function capture(req: Request, res: Response, next: NextFunction) {
    if (req.method !== "GET" || hasSessionCookie(req.headers.cookie)) return next();
    const key = cacheKey(req.headers.host, req.originalUrl);
    const mark: PageCacheMark = { cacheable: false };
    const renderedIn = generation;
    res.locals.pageCache = mark;
    const body = keepBody(res, options.maxEntryBytes);

    res.once("finish", () => {
      const stale = entries.peek(key);
      const kept = mark.cacheable ? body() : null;
      const storable =
        kept !== null &&
        res.statusCode === 200 &&
        res.getHeader("set-cookie") === undefined &&
        /^text\/html\b/i.test(String(res.getHeader("content-type") ?? ""));
      if (!storable || kept === null) {
        // The next request tries again; until then concurrent ones keep the stored copy.
        if (stale) stale.refreshingSince = null;
        return;
      }
      // Requests waiting for this render asked for the URL too: that is a second sighting.
      if (!stale && !seenOnce.has(key) && !waiting.get(key)?.length) {
        seenOnce.set(key, true);
        return;
      }
      if (storing.has(key)) return;
      seenOnce.delete(key);
      const nonce = typeof res.locals.cspNonce === "string" ? res.locals.cspNonce : undefined;
      storing.set(
        key,
        store(key, kept, res.getHeaders(), nonce, routeOf(res), renderedIn)
          .catch((error: unknown) => {
            if (stale) stale.refreshingSince = null;
            log.error("page cache store failed", { path: req.path, error: errorMessage(error) });
          })
          .finally(() => storing.delete(key)),
      );
    });
    next();
  }

  /** Drops every stored page (the catalogue changed); renders already under way are not stored. */
  function clear() {
    generation += 1;
    entries.clear();
  }

  return { serve, capture, size: () => entries.size, clear };
}
