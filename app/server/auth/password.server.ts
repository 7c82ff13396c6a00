import { randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from "node:crypto";
import pLimit from "p-limit";

/**
 * Password hashing at OWASP ASVS 5 Appendix C strength: scrypt with N = 2^17, r = 8, p = 1
 * (Better Auth's default is N = 2^14, r = 16, below the bar). Stored as
 * `scrypt$<log2 N>$<r>$<p>$<salt b64>$<hash b64>` so the parameters travel with the hash and can be
 * raised later without breaking existing accounts.
 */
const SCRYPT_PARAMS = { log2N: 17, r: 8, p: 1, keyLength: 64, saltLength: 16 } as const;

/**
 * `PASSWORD_HASH_COST=test`: scrypt at N = 2^12 for test servers and suites, which create thousands of
 * accounts; at full strength each costs about 0.4 s of CPU, on machines where the server and the
 * browsers share two cores (docs/decisions/0053-test-password-hash-cost.md). The configuration
 * refuses it on a public site (env.server.ts); hashes carry their parameters, so an account made
 * under either setting verifies under the other.
 */
const TEST_SCRYPT_PARAMS = { ...SCRYPT_PARAMS, log2N: 12 } as const;

/** Read at each hash, so a suite can check full strength with the variable unset. */
function scryptParams() {
  return process.env.PASSWORD_HASH_COST === "test" ? TEST_SCRYPT_PARAMS : SCRYPT_PARAMS;
}

/**
 * At most this many hashes at once: one fewer than libuv's threads (4 unless UV_THREADPOOL_SIZE says
 * otherwise), so gzip and file reads always find a free thread. libuv's queue is first come, first
 * served: unbounded, a burst of sign-ups queued dozens of slow hashes ahead of every page's gzip,
 * and pages took seconds under load (docs/decisions/0006). Further hashes wait here instead. Fewer (one per
 * core) kept pages fast but let sign-ups in a burst wait past a minute.
 */
const THREADPOOL_SIZE = Number(process.env.UV_THREADPOOL_SIZE) || 4;
export const passwordHashing = pLimit(Math.max(1, THREADPOOL_SIZE - 1));

function scrypt(password: string, salt: Buffer, keyLength: number, options: ScryptOptions): Promise<Buffer> {
  return passwordHashing(
    () =>
      new Promise<Buffer>((resolve, reject) =>
        scryptCb(password.normalize("NFKC"), salt, keyLength, options, (err, key) => (err ? reject(err) : resolve(key))),
      ),
  );
}

// 128 * N * r bytes are needed; leave headroom above Node's 32 MiB default.
const maxmem = (log2N: number, r: number) => 256 * 2 ** log2N * r;

export async function hashPassword(password: string): Promise<string> {
  const { log2N, r, p, keyLength, saltLength } = scryptParams();
  const salt = randomBytes(saltLength);
  const key = await scrypt(password, salt, keyLength, { N: 2 ** log2N, r, p, maxmem: maxmem(log2N, r) });
  return `scrypt$${log2N}$${r}$${p}$${salt.toString("base64")}$${key.toString("base64")}`;
}

export interface ParsedHash {
  log2N: number;
  r: number;
  p: number;
  salt: Buffer;
  key: Buffer;
}

export function parseHash(stored: string): ParsedHash | null {
  const parts = stored.split("$");
  if (parts.length !== 6 || parts[0] !== "scrypt") return null;
  const [log2N, r, p] = parts.slice(1, 4).map(Number);
  if (!Number.isInteger(log2N) || !Number.isInteger(r) || !Number.isInteger(p)) return null;
  if (log2N! < 10 || log2N! > 22 || r! < 1 || r! > 32 || p! < 1 || p! > 16) return null;
  const salt = Buffer.from(parts[4]!, "base64");
  const key = Buffer.from(parts[5]!, "base64");
  if (salt.length < 16 || key.length < 32) return null;
  return { log2N: log2N!, r: r!, p: p!, salt, key };
}

export async function verifyPassword({ hash, password }: { hash: string; password: string }): Promise<boolean> {
  const parsed = parseHash(hash);
  if (!parsed) return false;
  const key = await scrypt(password, parsed.salt, parsed.key.length, {
    N: 2 ** parsed.log2N,
    r: parsed.r,
    p: parsed.p,
    maxmem: maxmem(parsed.log2N, parsed.r),
  });
  return timingSafeEqual(key, parsed.key);
}
