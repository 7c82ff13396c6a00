// How many server processes server.js runs (docs/decisions/0018-worker-processes.md). Plain
// JavaScript because server.js decides it before the bundle loads, and the app needs the same answer
// in each worker (the lead-delivery worker shares Mailchimp's connection budget between them):
// one rule here, so the two cannot drift apart.

/**
 * Development mode, as server.js decides it. A cluster worker has the primary's argv and environment,
 * so it reaches the same answer.
 * @param {readonly string[]} argv
 * @param {Record<string, string | undefined>} env
 * @returns {boolean}
 */
export function isDevelopmentServer(argv, env) {
  return argv.includes("--dev") || env.NODE_ENV === "development";
}

/**
 * The number of server processes WEB_CONCURRENCY asks for. Several only with PostgreSQL and outside
 * development: PGlite is a database inside one process, so a second process could not open its folder.
 * `invalid` describes a value server.js refuses to start with; `ignored` is a count asked for on PGlite.
 * @param {Record<string, string | undefined>} env
 * @param {boolean} development
 * @returns {{ count: number, invalid?: string, ignored?: number }}
 */
export function serverProcesses(env, development) {
  const raw = env.WEB_CONCURRENCY;
  if (raw === undefined || raw.trim() === "") return { count: 1 };
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > 64) {
    return { count: 1, invalid: `expected a whole number from 1 to 64, got "${raw}"` };
  }
  if (n > 1 && development) return { count: 1 };
  if (n > 1 && !env.DATABASE_URL) return { count: 1, ignored: n };
  return { count: n };
}

/**
 * Node flags the production server runs with (`npm start`, `npm run start:prod`, the container's
 * command; the benchmarks start it the same way). V8 otherwise grows a busy server's young
 * generation until it is most of a signed-in server's memory, for no measurable gain in CPU a
 * request (docs/decisions/0091-young-generation-size.md, with the figures). And it recompiles with
 * its optimizing compiler every function of PGlite's WebAssembly that runs a little, most of them
 * only at start: with a higher threshold only the functions that stay hot are (on PostgreSQL the
 * server runs no WebAssembly; docs/decisions/0095-wasm-tier-up-threshold.md).
 */
export const SERVER_NODE_FLAGS = ["--max-semi-space-size=16", "--wasm-tiering-budget=1000000000"];

/**
 * Environment the production server runs with, set by the same starters (a value already in the
 * environment wins). glibc's malloc gives each thread that allocates (libuv's pool: scrypt, zlib,
 * file reads) an arena of its own, up to eight per core, and keeps what is freed in each: with two,
 * a signed-in server holds less memory at the same CPU a request (docs/decisions/0092-malloc-arenas.md,
 * with the figures). Other C libraries ignore it.
 */
export const SERVER_ENV = { MALLOC_ARENA_MAX: "2" };
