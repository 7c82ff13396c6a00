// @ts-check
import { existsSync, linkSync, readFileSync, unlinkSync, writeFileSync } from "node:fs";
import path from "node:path";

/**
 * One process per PGlite folder. PGlite takes no lock of its own: two processes that open the same
 * folder both run, and whichever closes last overwrites what the other committed (seen with two
 * `npm start`s, `npm run dev` beside `npm start`, and `npm run grant-operator` beside a server). The
 * lock is a file in the folder naming the holder's pid and start time, the way PostgreSQL's
 * postmaster.pid does; a file left by a process that is gone (kill -9, a crash) is taken over at
 * once, so a restart never waits (docs/decisions/0020-data-folder-lock.md).
 *
 * Plain JavaScript with JSDoc types: the server (through its TypeScript bundle) and the tools node
 * runs without a build (scripts/grant-operator.js, tests/reliability) take the same lock with this
 * one implementation.
 */
export const LOCK_FILE = "server.lock";

export class DataDirInUseError extends Error {
  /**
   * @param {string} dataDir
   * @param {number} pid
   */
  constructor(dataDir, pid) {
    super(
      `DATA_DIR ${dataDir} is in use by another server process (pid ${pid}). Stop that process first, or give ` +
        "this one a DATA_DIR of its own: two processes on one PGlite folder overwrite each other's data.",
    );
    this.name = "DataDirInUseError";
    /** @readonly */
    this.dataDir = dataDir;
    /** @readonly */
    this.pid = pid;
  }
}

/**
 * @typedef {object} Holder
 * @property {number} pid
 * @property {string | null} start Start time from /proc (clock ticks after boot), so a reused pid
 *   is not taken for the holder.
 */

const HAS_PROC = existsSync("/proc/self/stat");

/**
 * The start time of a running process; "gone" for none (or a zombie); null where /proc is missing.
 * @param {number} pid
 * @returns {string | null}
 */
function startTime(pid) {
  if (!HAS_PROC) return null;
  let stat;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return "gone";
  }
  // Fields after the command name, which sits in parentheses and may hold spaces: state is the
  // first, starttime the twentieth (proc(5) fields 3 and 22).
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return fields[0] === "Z" || fields[0] === "X" ? "gone" : (fields[19] ?? null);
}

/**
 * @param {Holder} holder
 * @returns {boolean}
 */
function isRunning(holder) {
  const start = startTime(holder.pid);
  if (start === "gone") return false;
  if (start !== null) return holder.start === null || holder.start === start;
  try {
    process.kill(holder.pid, 0);
    return true;
  } catch (error) {
    return errorCode(error) === "EPERM";
  }
}

/**
 * @param {unknown} error
 * @returns {string | undefined}
 */
function errorCode(error) {
  return /** @type {NodeJS.ErrnoException} */ (error)?.code;
}

/**
 * @param {string} file
 * @returns {Holder | null}
 */
function readHolder(file) {
  try {
    const value = JSON.parse(readFileSync(file, "utf8"));
    if (!value || !Number.isInteger(value.pid) || value.pid <= 0) return null;
    return { pid: value.pid, start: typeof value.start === "string" ? value.start : null };
  } catch {
    return null;
  }
}

/** @param {() => void} fn */
function ignoreMissing(fn) {
  try {
    fn();
  } catch (error) {
    if (errorCode(error) !== "ENOENT") throw error;
  }
}

/** How long a process waits for another's takeover of a stale lock before it looks again. */
const TAKEOVER_WAIT_MS = 20;
const MAX_ATTEMPTS = 100;
let drafts = 0;

/**
 * @typedef {object} LockOptions
 * @property {() => void} [onStaleHolder] Called after a stale holder was read and before its lock
 *   is taken over: a test runs a rival takeover here, the race the takeover guard exists for.
 */

/**
 * Takes the folder's lock (the folder must exist) and returns its release, or throws
 * DataDirInUseError while another running process holds it.
 * @param {string} dataDir
 * @param {LockOptions} [options]
 * @returns {() => void}
 */
export function lockDataDir(dataDir, options = {}) {
  const file = path.join(dataDir, LOCK_FILE);
  const start = startTime(process.pid);
  /** @type {Holder} */
  const me = { pid: process.pid, start: start === "gone" ? null : start };
  // Written aside and linked into place: the lock file appears with its content, never empty.
  const draft = `${file}.${process.pid}.${++drafts}.tmp`;
  writeFileSync(draft, JSON.stringify(me), { mode: 0o600 });
  try {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      if (tryLink(draft, file)) return () => release(file, me);
      const holder = readHolder(file);
      if (holder && isRunning(holder)) throw new DataDirInUseError(dataDir, holder.pid);
      options.onStaleHolder?.();
      if (takeOverStale(dataDir, file, draft, me)) return () => release(file, me);
      sleepSync(TAKEOVER_WAIT_MS);
    }
    throw new Error(`Could not take the lock ${file}: other processes keep taking it.`);
  } finally {
    ignoreMissing(() => unlinkSync(draft));
  }
}

/**
 * Links the draft into place as the lock: false when a lock is there already.
 * @param {string} draft
 * @param {string} file
 * @returns {boolean}
 */
function tryLink(draft, file) {
  try {
    linkSync(draft, file);
    return true;
  } catch (error) {
    if (errorCode(error) === "EEXIST") return false;
    throw error;
  }
}

/**
 * Replaces a lock left by a process that is gone, under a second lock (`server.lock.takeover`):
 * without it, two processes that both read the stale holder could each remove "the stale lock", the
 * second removing the one the first had just put in its place, and both would run. Under the guard
 * the holder is read again, so a lock taken over meanwhile is seen as live. Returns false when
 * another process is taking over (the caller looks again shortly); throws DataDirInUseError when
 * the lock turns out to be live.
 * @param {string} dataDir
 * @param {string} file
 * @param {string} draft
 * @param {Holder} me
 * @returns {boolean}
 */
function takeOverStale(dataDir, file, draft, me) {
  const guard = `${file}.takeover`;
  if (!tryLink(draft, guard)) {
    // A guard whose process died mid-takeover would block every later start: removed, and the
    // caller tries again. (Two processes could both remove such a guard; that needs a crash within
    // the few microseconds a takeover holds it, at the moment two servers start.)
    const guardHolder = readHolder(guard);
    if (!guardHolder || !isRunning(guardHolder)) ignoreMissing(() => unlinkSync(guard));
    return false;
  }
  try {
    const holder = readHolder(file);
    if (holder && isRunning(holder)) throw new DataDirInUseError(dataDir, holder.pid);
    ignoreMissing(() => unlinkSync(file));
    return tryLink(draft, file);
  } finally {
    release(guard, me);
  }
}

/**
 * Blocks this thread: the lock is taken once, at boot, before anything else runs.
 * @param {number} ms
 */
function sleepSync(ms) {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * Removes the lock if it is still this process's (never another's that took over a stale one).
 * @param {string} file
 * @param {Holder} me
 */
function release(file, me) {
  const holder = readHolder(file);
  if (holder?.pid === me.pid && holder.start === me.start) ignoreMissing(() => unlinkSync(file));
}
