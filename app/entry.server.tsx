import { Writable } from "node:stream";
import { renderToPipeableStream } from "react-dom/server";
import {
  ServerRouter,
  isRouteErrorResponse,
  type EntryContext,
  type HandleDataRequestFunction,
  type HandleErrorFunction,
  type RouterContextProvider,
} from "react-router";
import { CspNonceContext, cspNonceRouterContext } from "~/lib/csp-nonce";
import { IslandsDocumentContext, routeWantsIslands } from "~/lib/islands";
import { pageCacheRouterContext, routeOptsIntoPageCache } from "~/lib/page-cache";
import { compressWholeBody } from "~/server/http/compress-body.server";
import { hydrateAfterPaint } from "~/server/http/hydrate-after-paint.server";
import { islandsBoot } from "~/server/http/islands.server";
import { errorDetail, log } from "~/server/log.server";

export const streamTimeout = 5_000;

/**
 * Errors of loaders, actions and rendering, as one structured log line. React Router's default
 * prints every one with console.error, stack and all, including the 4xx answers a client causes
 * (a POST to a page without an action, an unknown route's data request): any visitor could fill the
 * log with stack traces. Those are the client's mistake and are logged at debug; a request the
 * client abandoned is not logged.
 */
export const handleError: HandleErrorFunction = (error, { request }) => {
  if (request.signal.aborted) return;
  const where = { method: request.method, path: new URL(request.url).pathname };
  if (isRouteErrorResponse(error) && error.status < 500) {
    log.debug("request refused", { ...where, status: error.status, reason: error.statusText });
    return;
  }
  log.error("request failed", { ...where, error: errorDetail(error) });
};

/**
 * A data request's answer (a client-side navigation's loaders, a form's action), compressed in one
 * piece as documents are (docs/decisions/0099). Our loaders hold no deferred data, so the answer is
 * complete when React Router's stream of it ends, a moment after it starts.
 */
export const handleDataRequest: HandleDataRequestFunction = async (response, { request }) => {
  if (response.body === null || response.headers.has("Content-Encoding")) return response;
  const headers = new Headers(response.headers);
  const body = Buffer.from(await response.arrayBuffer());
  const sent = compressWholeBody(request.headers.get("Accept-Encoding"), body, headers);
  return new Response(sent, { status: response.status, statusText: response.statusText, headers });
};

/**
 * Document rendering. Differences from React Router's default entry:
 * - every inline script carries the request's CSP nonce (the policy has no 'unsafe-inline');
 * - the whole document is rendered before the first byte is sent (onAllReady): our loaders hold
 *   no deferred data, and one buffer compresses far better than many small streamed chunks;
 * - the page's JavaScript loads after the first paint (hydrateAfterPaint, docs/decisions/0016);
 * - the document is compressed here, in one piece (compressWholeBody, docs/decisions/0099);
 * - a page whose route asks for islands loads only its widgets' script, not React Router (0019).
 */
export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  if (request.method.toUpperCase() === "HEAD") {
    return new Response(null, { status: responseStatusCode, headers: responseHeaders });
  }
  const nonce = loadContext.get(cspNonceRouterContext);
  // The page cache (when it is capturing this request) may store the document only if the page
  // opted in; what it may store is decided by the route, not by the URL.
  const cacheMark = loadContext.get(pageCacheRouterContext);
  const leaf = routerContext.staticHandlerContext.matches.at(-1);
  const leafHandle = leaf ? routerContext.routeModules[leaf.route.id]?.handle : undefined;
  if (cacheMark) cacheMark.cacheable = routeOptsIntoPageCache(leafHandle);
  // An error page is rendered by error boundaries React Router must hydrate: islands only on success.
  const bootScript = responseStatusCode === 200 && routeWantsIslands(leafHandle) ? islandsBoot() : null;

  return new Promise<Response>((resolve, reject) => {
    let timeoutId: ReturnType<typeof setTimeout> | undefined = setTimeout(() => abort(), streamTimeout + 1000);
    const { pipe, abort } = renderToPipeableStream(
      <CspNonceContext.Provider value={nonce}>
        <IslandsDocumentContext.Provider value={bootScript ? { bootScript } : null}>
          <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
        </IslandsDocumentContext.Provider>
      </CspNonceContext.Provider>,
      {
        nonce,
        onAllReady() {
          const chunks: Buffer[] = [];
          const document = new Writable({
            write(chunk: Buffer, _encoding, callback) {
              chunks.push(chunk);
              callback();
            },
            final(callback) {
              clearTimeout(timeoutId);
              timeoutId = undefined;
              responseHeaders.set("Content-Type", "text/html; charset=utf-8");
              // Bytes throughout: React wrote UTF-8, and the response sends it as it is.
              const rendered = Buffer.concat(chunks);
              // An islands document has no React Router boot script to rewrite: its own already waits.
              const body = bootScript ? rendered : hydrateAfterPaint(rendered);
              // A page the page cache is capturing goes to it as it is: it stores its own compressions.
              const sent = cacheMark ? body : compressWholeBody(request.headers.get("Accept-Encoding"), body, responseHeaders);
              resolve(new Response(sent, { headers: responseHeaders, status: responseStatusCode }));
              callback();
            },
          });
          pipe(document);
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          log.error("render failed", {
            path: new URL(request.url).pathname,
            error: errorDetail(error),
          });
        },
      },
    );
  });
}
