/** Header the HTTP server sets from the socket (or the trusted proxy chain); clients cannot supply it. */
export const CLIENT_IP_HEADER = "x-client-ip";

/**
 * Header the HTTP server sets to the socket's peer address, whatever proxies say: the machine that
 * connected (the dev mailbox answers only this machine).
 */
export const PEER_IP_HEADER = "x-peer-ip";

/**
 * The client address the HTTP server wrote on `request`, or null for a request that did not come
 * through it (a test calling a route in-process): limits then count the account alone.
 */
export function clientIp(request: Request): string | null {
  return request.headers.get(CLIENT_IP_HEADER);
}
