import { createHmac } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import type { Db } from "../db/client.server";
import { totpLastSteps, twoFactor } from "../db/schema";

/**
 * A TOTP code works once (RFC 6238 section 5.2). Better Auth's check accepts any code of the
 * current 30-second step or the one either side of it, as often as it is sent: a code read over a
 * shoulder or phished along with the password opens another session for up to a minute and a half.
 * Before its check runs, the step the code belongs to is claimed as the account's newest accepted
 * one, in one statement; a code of that step or an earlier one is refused.
 */

/** Better Auth's TOTP settings (its defaults, which the plugin uses here): 30 s steps, 6 digits, one step either side. */
const TOTP_PERIOD_SECONDS = 30;
const TOTP_DIGITS = 6;
const TOTP_WINDOW = 1;
const BASE32_PREFIX = "base32:";
const BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

/** The HOTP code (RFC 4226, HMAC-SHA-1) of `key` at `counter`, as Better Auth computes it. */
export function hotp(key: string | Uint8Array, counter: number, digits = TOTP_DIGITS): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac("sha1", typeof key === "string" ? Buffer.from(key, "utf8") : key)
    .update(message)
    .digest();
  const offset = mac[mac.length - 1]! & 15;
  const value = (mac.readUInt32BE(offset) & 0x7fffffff) % 10 ** digits;
  return String(value).padStart(digits, "0");
}

/** The time step of `at` (milliseconds). */
export const totpStep = (at: number) => Math.floor(at / (TOTP_PERIOD_SECONDS * 1000));

/** The newest step within Better Auth's window whose code is `code`, or null when none is. */
export function matchingStep(key: string | Uint8Array, code: string, at: number): number | null {
  const now = totpStep(at);
  for (let step = now + TOTP_WINDOW; step >= now - TOTP_WINDOW; step--) if (hotp(key, step) === code) return step;
  return null;
}

/** A stored secret as Better Auth uses it: imported ones are kept as `base32:<secret>`, the rest as text. */
export function totpKey(decrypted: string): string | Uint8Array {
  if (!decrypted.startsWith(BASE32_PREFIX)) return decrypted;
  const bytes: number[] = [];
  let bits = 0;
  let value = 0;
  for (const char of decrypted.slice(BASE32_PREFIX.length).toUpperCase().replace(/=+$/, "")) {
    const index = BASE32.indexOf(char);
    if (index === -1) continue;
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      bits -= 8;
      bytes.push((value >>> bits) & 255);
    }
  }
  return Uint8Array.from(bytes);
}

/** The account's encrypted TOTP secret, or null when it has none. */
export async function encryptedTotpSecret(db: Db, userId: string): Promise<string | null> {
  const [row] = await db.select({ secret: twoFactor.secret }).from(twoFactor).where(eq(twoFactor.userId, userId)).limit(1);
  return row?.secret ?? null;
}

/**
 * Records `step` as the account's newest accepted one; false when that step or a later one was
 * accepted already (the code is a replay). One statement, so two requests with the same code at
 * once cannot both claim it.
 */
export async function claimTotpStep(db: Db, userId: string, step: number): Promise<boolean> {
  const claimed = await db
    .insert(totpLastSteps)
    .values({ userId, step })
    .onConflictDoUpdate({
      target: totpLastSteps.userId,
      set: { step, acceptedAt: new Date() },
      setWhere: sql`${totpLastSteps.step} < excluded.step`,
    })
    .returning({ userId: totpLastSteps.userId });
  return claimed.length > 0;
}
