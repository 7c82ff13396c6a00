import { createContext as createRouterContext } from "react-router";

/**
 * Routes opt into the server's rendered-page cache for anonymous visitors by exporting
 * `handle = pageCacheHandle`. Only pages whose HTML depends on nothing but the URL and whether a
 * session exists may do so: the cache serves a stored render to every request for the same URL that
 * carries no session cookie (app/server/http/page-cache.server.ts, docs/decisions/0015).
 */
export const pageCacheHandle = { pageCache: true } as const;

/** Set by entry.server.tsx when the document it rendered may be stored; read by the cache middleware. */
export interface PageCacheMark {
  cacheable: boolean;
}
export const pageCacheRouterContext = createRouterContext<PageCacheMark | undefined>(undefined);

/** True when the deepest matched route opted in. */
export function routeOptsIntoPageCache(handle: unknown): boolean {
  return typeof handle === "object" && handle !== null && (handle as { pageCache?: unknown }).pageCache === true;
}
