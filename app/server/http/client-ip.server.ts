/** Header the HTTP server sets from the socket (or the trusted proxy chain); clients cannot supply it. */
export const CLIENT_IP_HEADER = "x-client-ip";

/**
 * Header the HTTP server sets to the socket's peer address, whatever proxies say: the machine that
 * connected (the dev mailbox answers only this machine).
 */
export const PEER_IP_HEADER = "x-peer-ip";
