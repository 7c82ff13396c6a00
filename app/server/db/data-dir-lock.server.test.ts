import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DataDirInUseError, LOCK_FILE, lockDataDir } from "./data-dir-lock.server";

let dir: string;
const lockPath = () => path.join(dir, LOCK_FILE);

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), "lock-"));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** The pid of a process that has exited (and been reaped). */
function deadPid(): number {
  const child = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" });
  return Number(child.stdout);
}

describe("lockDataDir", () => {
  it("writes this process's pid, refuses a second holder while held, and frees the folder on release", () => {
    const release = lockDataDir(dir);
    expect(JSON.parse(readFileSync(lockPath(), "utf8")).pid).toBe(process.pid);
    expect(() => lockDataDir(dir)).toThrow(DataDirInUseError);
    expect(() => lockDataDir(dir)).toThrow(`DATA_DIR ${dir} is in use by another server process (pid ${process.pid})`);
    release();
    expect(existsSync(lockPath())).toBe(false);
    lockDataDir(dir)();
    // Only the lock itself was ever in the folder: no draft files left behind.
    expect(readdirSync(dir)).toEqual([]);
  });

  it("takes over a lock left by a process that is gone (kill -9, a crash)", () => {
    const pid = deadPid();
    writeFileSync(lockPath(), JSON.stringify({ pid, start: "1" }));
    const release = lockDataDir(dir);
    expect(JSON.parse(readFileSync(lockPath(), "utf8")).pid).toBe(process.pid);
    release();
  });

  it.runIf(existsSync("/proc/self/stat"))(
    "takes over a lock naming a live pid that started at another time (a reused pid)",
    () => {
      writeFileSync(lockPath(), JSON.stringify({ pid: process.pid, start: "1" }));
      lockDataDir(dir)();
      expect(existsSync(lockPath())).toBe(false);
    },
  );

  it.runIf(existsSync("/proc/stat") && spawnSync("ps", ["-V"]).status === 0)(
    "records the process's start time (checked against ps and the boot time)",
    () => {
      const release = lockDataDir(dir);
      const { start } = JSON.parse(readFileSync(lockPath(), "utf8")) as { start: string };
      release();
      const bootSeconds = Number(/^btime (\d+)$/m.exec(readFileSync("/proc/stat", "utf8"))?.[1]);
      const ticksPerSecond = Number(spawnSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).stdout) || 100;
      const lstart = spawnSync("ps", ["-o", "lstart=", "-p", String(process.pid)], { encoding: "utf8" }).stdout.trim();
      const started = bootSeconds + Number(start) / ticksPerSecond;
      expect(Math.abs(started - Date.parse(lstart) / 1000)).toBeLessThan(2);
    },
  );

  it("takes over a lock file that cannot be read as one", () => {
    for (const content of ["", JSON.stringify({ pid: "x" }), "{"]) {
      writeFileSync(lockPath(), content);
      const release = lockDataDir(dir);
      expect(JSON.parse(readFileSync(lockPath(), "utf8")).pid).toBe(process.pid);
      release();
    }
  });

  it("refuses while a live process holds the lock, whatever its start time is recorded as when unknown", () => {
    writeFileSync(lockPath(), JSON.stringify({ pid: process.ppid, start: null }));
    expect(() => lockDataDir(dir)).toThrow(`(pid ${process.ppid})`);
  });

  it("lets only one of two rival takeovers of a stale lock win", () => {
    writeFileSync(lockPath(), JSON.stringify({ pid: deadPid(), start: "1" }));
    let rivalRelease: (() => void) | undefined;
    // The rival reads the same stale holder and completes its takeover between this call's read
    // and its own takeover: this call must then see the rival's live lock, not remove it.
    const attempt = () =>
      lockDataDir(dir, {
        onStaleHolder: () => {
          rivalRelease ??= lockDataDir(dir);
        },
      });
    expect(attempt).toThrow(DataDirInUseError);
    expect(rivalRelease).toBeTypeOf("function");
    expect(JSON.parse(readFileSync(lockPath(), "utf8")).pid).toBe(process.pid);
    rivalRelease?.();
    expect(readdirSync(dir)).toEqual([]);
  });

  it("removes a takeover guard left by a process that died mid-takeover", () => {
    writeFileSync(lockPath(), JSON.stringify({ pid: deadPid(), start: "1" }));
    writeFileSync(`${lockPath()}.takeover`, JSON.stringify({ pid: deadPid(), start: "1" }));
    lockDataDir(dir)();
    expect(readdirSync(dir)).toEqual([]);
  });

  it("release leaves alone a lock another process has taken over since", () => {
    const release = lockDataDir(dir);
    const other = JSON.stringify({ pid: process.ppid, start: null });
    writeFileSync(lockPath(), other);
    release();
    expect(readFileSync(lockPath(), "utf8")).toBe(other);
  });
});
