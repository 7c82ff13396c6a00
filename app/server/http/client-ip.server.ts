import { isValidIP, normalizeIP } from "@better-auth/core/utils/ip";

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

/**
 * The address a limit or a fair share counts against: an IPv6 client's /64 (one subscriber gets a
 * whole /64, so counting single addresses would give it 2^64 budgets), an IPv4-mapped IPv6 as its
 * IPv4, in one spelling. Better Auth's own limiter keys sign-in and sign-up the same way.
 */
export function ipKey(ip: string): string {
  return isValidIP(ip) ? normalizeIP(ip, { ipv6Subnet: 64 }) : ip;
}
