import { data } from "react-router";
import { db } from "../db/client.server";
import { takeAttempt, tooManyRequestsMessage, type LimitDecision, type RateLimit } from "../limits/rate-limits.server";
import { clientIp } from "./client-ip.server";

/** Counts this request against `limit` for the signed-in account and the request's client address. */
export function takeRequestAttempt(request: Request, limit: RateLimit, userId: string): Promise<LimitDecision> {
  return takeAttempt(db(), limit, { userId, ip: clientIp(request) });
}

/** The JSON answer to a refused request: 429, the wait in words and in Retry-After. */
export function tooManyRequests(retryAfterSeconds: number) {
  return data(
    { error: tooManyRequestsMessage(retryAfterSeconds) },
    { status: 429, headers: { "Retry-After": String(retryAfterSeconds), "Cache-Control": "no-store" } },
  );
}
