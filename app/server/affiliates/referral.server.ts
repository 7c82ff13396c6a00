import { createHmac, timingSafeEqual } from "node:crypto";
import { eq } from "drizzle-orm";
import { normalizeUsername, usernameError } from "~/catalogue/username";
import type { Db } from "../db/client.server";
import { affiliates, referralClicks, referrals } from "../db/schema";
import { log, errorMessage } from "../log.server";

/**
 * Referral attribution (docs/decisions/0011-affiliates.md): /ref/{username} sets a first-party
 * cookie `ref` = `{username}.{day}.{signature}` (day = UTC days since the epoch of the last counted
 * click) and records one click per visitor cookie, affiliate and UTC day. Signing up with the cookie
 * links the new account to that affiliate, for life (first attribution wins). The signature is an
 * HMAC with the auth secret (the decision on the signed referral cookie): a cookie the server did
 * not set, or one edited to name another affiliate, counts as no cookie at all.
 */
const REF_COOKIE = "ref";
const REF_COOKIE_MAX_AGE = 30 * 24 * 60 * 60;
const DAY_MS = 24 * 60 * 60 * 1000;
const COOKIE_VALUE = /^([a-z0-9_-]{3,30})\.(\d{1,7})\.([A-Za-z0-9_-]{43})$/;

export const utcDay = (now: Date = new Date()) => Math.floor(now.getTime() / DAY_MS);

/** The value of one cookie from a Cookie header (first occurrence), or null. */
function readCookie(header: string | null | undefined, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() !== name) continue;
    const raw = part.slice(eq + 1).trim();
    try {
      return decodeURIComponent(raw);
    } catch {
      return null;
    }
  }
  return null;
}

/**
 * HMAC-SHA256 of the cookie's name and payload, base64url. The name is part of what is signed, so
 * no other value signed with the same secret (Better Auth's session and device cookies) can be
 * passed off as a referral.
 */
function signature(payload: string, secret: string): string {
  return createHmac("sha256", secret).update(`${REF_COOKIE}=${payload}`).digest("base64url");
}

/** The `ref` cookie of a request, if the server signed it; anything else (unsigned, forged, malformed) is null. */
export function parseRefCookie(header: string | null | undefined, secret: string): { username: string; day: number } | null {
  const value = readCookie(header, REF_COOKIE);
  const match = value ? COOKIE_VALUE.exec(value) : null;
  if (!match) return null;
  const [, username, day, signed] = match as unknown as [string, string, string, string];
  // Compared as text, both 43 characters: another spelling of the same bytes is refused too.
  const expected = Buffer.from(signature(`${username}.${day}`, secret));
  if (!timingSafeEqual(Buffer.from(signed), expected)) return null;
  return { username, day: Number(day) };
}

/** The signed cookie value for an affiliate and day. */
function refCookieValue(username: string, day: number, secret: string): string {
  const payload = `${username}.${day}`;
  return `${payload}.${signature(payload, secret)}`;
}

function refCookie(username: string, day: number, secure: boolean, secret: string): string {
  return [
    `${REF_COOKIE}=${refCookieValue(username, day, secret)}`,
    "Path=/",
    `Max-Age=${REF_COOKIE_MAX_AGE}`,
    "HttpOnly",
    "SameSite=Lax",
    ...(secure ? ["Secure"] : []),
  ].join("; ");
}

async function findAffiliateByUsername(db: Db, username: string) {
  const normalized = normalizeUsername(username);
  if (usernameError(normalized)) return undefined;
  const [row] = await db.select().from(affiliates).where(eq(affiliates.username, normalized)).limit(1);
  return row;
}

/**
 * Second line of defence against click inflation by clients that drop cookies: at most this many
 * counted clicks per client IP, affiliate and UTC day, per server instance (memory only).
 */
export const CLICKS_PER_IP_PER_DAY = 3;
const MAX_TRACKED = 50_000;
let ipDay = -1;
const ipCounts = new Map<string, number>();

function allowIp(ip: string | null, affiliateUserId: string, day: number): boolean {
  if (!ip) return true;
  if (day !== ipDay || ipCounts.size > MAX_TRACKED) {
    ipCounts.clear();
    ipDay = day;
  }
  const key = `${ip}|${affiliateUserId}`;
  const n = ipCounts.get(key) ?? 0;
  if (n >= CLICKS_PER_IP_PER_DAY) return false;
  ipCounts.set(key, n + 1);
  return true;
}

/** Test hook: forget the per-IP counts. */
export function resetClickLimits() {
  ipCounts.clear();
  ipDay = -1;
}

export interface VisitInput {
  username: string;
  cookieHeader: string | null;
  clientIp: string | null;
  isBot: boolean;
  secure: boolean;
  /** The auth secret, which signs the cookie. */
  secret: string;
  now?: Date;
}

/**
 * A visit to /ref/{username}. Unknown or malformed usernames change nothing (no cookie, no click).
 * A known affiliate gets the cookie (refreshed for 30 days); a click row is appended unless this
 * visitor's cookie already counted a click for the same affiliate today, the client is a bot, or
 * its IP used up its daily allowance.
 */
export async function recordReferralVisit(db: Db, input: VisitInput): Promise<{ setCookie: string | null; counted: boolean }> {
  const affiliate = await findAffiliateByUsername(db, input.username);
  if (!affiliate) return { setCookie: null, counted: false };
  const day = utcDay(input.now);
  const previous = parseRefCookie(input.cookieHeader, input.secret);
  const alreadyToday = previous?.username === affiliate.username && previous.day === day;
  let counted = false;
  if (!alreadyToday && !input.isBot && allowIp(input.clientIp, affiliate.userId, day)) {
    await db.insert(referralClicks).values({ affiliateUserId: affiliate.userId });
    counted = true;
  }
  // A bot or a throttled client keeps its cookie's day, so a later real click still counts.
  const cookieDay = counted || alreadyToday ? day : previous?.username === affiliate.username ? previous.day : 0;
  return { setCookie: refCookie(affiliate.username, cookieDay, input.secure, input.secret), counted };
}

/**
 * Links a just-created user to the affiliate named by the request's `ref` cookie, when the server
 * signed it with `secret`. First attribution wins (the referred user is the primary key) and nobody
 * refers themselves. Never throws: a failed attribution must not fail a sign-up.
 */
export async function attributeSignup(
  db: Db,
  userId: string,
  cookieHeader: string | null | undefined,
  secret: string,
): Promise<boolean> {
  try {
    const ref = parseRefCookie(cookieHeader, secret);
    if (!ref) return false;
    const affiliate = await findAffiliateByUsername(db, ref.username);
    if (!affiliate || affiliate.userId === userId) return false;
    const inserted = await db
      .insert(referrals)
      .values({ referredUserId: userId, affiliateUserId: affiliate.userId })
      .onConflictDoNothing({ target: referrals.referredUserId })
      .returning();
    if (inserted.length) log.info("referral attributed", { affiliate: affiliate.username });
    return inserted.length > 0;
  } catch (error) {
    log.error("referral attribution failed", { error: errorMessage(error) });
    return false;
  }
}
