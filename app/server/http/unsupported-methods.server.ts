import { STATUS_CODES, type IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import type { NextFunction, Request, Response } from "express";
import { LRUCache } from "lru-cache";
import type { ServerBuild } from "react-router";
import { deepestRoute } from "./deepest-route.server";

/** The methods some resource of this server answers. */
const IMPLEMENTED = new Set(["GET", "HEAD", "POST"]);
/**
 * Methods HTTP defines for any resource, which browsers and clients send: none of our resources
 * takes them, so each answers 405 and says in `Allow` which methods it does take. Every other method
 * (TRACE, CONNECT, WebDAV's PROPFIND...) is one this server implements for no resource: 501.
 */
const DEFINED_FOR_ANY_RESOURCE = new Set(["OPTIONS", "PUT", "PATCH", "DELETE"]);

/**
 * 501 for a method the server implements for no resource, before anything else runs. React
 * Router's Express adapter cannot even build a Request for TRACE, CONNECT or TRACK (fetch forbids
 * them): it threw, and the client got a 500 and the log a stack trace, as often as it liked.
 */
export function refuseUnimplementedMethod(req: Request, res: Response, next: NextFunction) {
  if (IMPLEMENTED.has(req.method) || DEFINED_FOR_ANY_RESOURCE.has(req.method)) return next();
  // The body (if any) is not read: the connection closes after the answer.
  res.status(501).set({ Connection: "close", "Cache-Control": "no-store" }).type("text/plain").send("Not Implemented");
}

/**
 * 405 with `Allow` for OPTIONS, PUT, PATCH and DELETE (a cross-site one was already refused by the
 * Origin check): GET and HEAD, and POST where the route has an action. A POST-only API route's GET
 * answers its own 405 with `Allow: POST`.
 */
export function refuseMethodsRoutesLack(build: Pick<ServerBuild, "routes" | "basename">) {
  const allowed = allowedMethods(build);
  return (req: Request, res: Response, next: NextFunction) => {
    if (!DEFINED_FOR_ANY_RESOURCE.has(req.method)) return next();
    res.status(405).set({ Allow: allowed(req.path), Connection: "close", "Cache-Control": "no-store" });
    if (req.path.startsWith("/api/")) res.json({ error: "Method not allowed" });
    else res.type("text/plain").send("Method Not Allowed");
  };
}

/** The `Allow` of a path: what its deepest route answers (a `.data` request is its page's). */
export function allowedMethods(build: Pick<ServerBuild, "routes" | "basename">): (pathname: string) => string {
  const routeOf = deepestRoute(build);
  const known = new LRUCache<string, string>({ max: 1_000 });
  return (pathname) => {
    let allow = known.get(pathname);
    if (allow === undefined) {
      const page = pathname === "/_root.data" ? "/" : pathname.replace(/\.data$/, "");
      allow = routeOf(page)?.module.action ? "GET, HEAD, POST" : "GET, HEAD";
      known.set(pathname, allow);
    }
    return allow;
  };
}

/** The answer to a CONNECT (a proxy tunnel), which Node hands over as a bare socket. */
export function refuseConnect(_req: IncomingMessage, socket: Duplex) {
  socket.on("error", () => {});
  socket.end(rawAnswer(501));
}

/**
 * A request Node's parser refused, answered as Node would, except that a method it does not know
 * (a made-up one) is a 501 rather than a 400: the method is what this server does not implement.
 */
export function answerClientError(error: Error & { code?: string }, socket: Duplex) {
  // An answer already under way on this connection (pipelined requests) must not be cut into.
  // (Node's own default reads the same internal field.)
  const inFlight = Reflect.get(socket, "_httpMessage") as { headersSent?: boolean } | null | undefined;
  if (error.code === "ECONNRESET" || !socket.writable || inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  socket.end(rawAnswer(CLIENT_ERROR_STATUS[error.code ?? ""] ?? 400), () => socket.destroy());
}

const CLIENT_ERROR_STATUS: Record<string, number> = {
  HPE_INVALID_METHOD: 501,
  HPE_HEADER_OVERFLOW: 431,
  HPE_CHUNK_EXTENSIONS_OVERFLOW: 413,
  ERR_HTTP_REQUEST_TIMEOUT: 408,
};

function rawAnswer(status: number): string {
  return `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`;
}
