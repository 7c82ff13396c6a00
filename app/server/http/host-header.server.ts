import type { NextFunction, Request, Response } from "express";

// A DNS name, an IPv4 address or a bracketed IPv6 address, and an optional port.
const HOST = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9_.-]+)(?::(\d{1,5}))?$/;

/** Whether a Host (or X-Forwarded-Host) value names a host a URL can be built on. */
export function isValidHost(value: string | undefined): boolean {
  const match = value === undefined ? null : HOST.exec(value);
  if (!match) return false;
  return (match[1] === undefined || Number(match[1]) <= 65_535) && URL.canParse(`http://${value}/`);
}

/**
 * 400 for a request without a usable Host before it reaches React Router, whose Express adapter
 * builds the request's URL from it (from X-Forwarded-Host behind a trusted proxy) and threw on a
 * missing one, a space or a port past 65535: a 500 and a stack trace. /healthz and static files,
 * answered earlier, need no Host (some load balancers' probes send none).
 */
export function refuseInvalidHost(req: Request, res: Response, next: NextFunction) {
  const host = req.get("host");
  if (isValidHost(host) && (req.host === host || isValidHost(req.host))) return next();
  res
    .status(400)
    .set({ Connection: "close", "Cache-Control": "no-store" })
    .type("text/plain")
    .send("Bad Request: invalid Host header");
}
