// What a test file may change in its worker's process, put back before the next file in projects
// whose files share a worker's modules (vitest.config.ts: isolate: false): the environment, stubbed
// globals and variables, spies, fake timers, and the settings and logger read from the environment.
import { vi } from "vitest";
import { resetEnvCache } from "~/server/env.server";
import { resetLogger } from "~/server/logger.server.js";

// Vitest's own variables (VITEST_WORKER_ID changes from one run request to the next) stay as Vitest set them.
const restored = (key: string) => !key.startsWith("VITEST_");

/**
 * Called by a setup file, which runs again before each file while the modules it imports do not:
 * globalThis lives as long as the worker, so the environment is kept there under `key` as the
 * worker's first file found it.
 */
export function resetProcess(key: string) {
  const worker = globalThis as Record<symbol, Readonly<Record<string, string | undefined>> | undefined>;
  const symbol = Symbol.for(key);
  const initial = (worker[symbol] ??= { ...process.env });

  // Stubs first: unstubbing after the restore would write back values from before it.
  vi.unstubAllEnvs();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  vi.useRealTimers();

  for (const name of Object.keys(process.env)) if (restored(name) && !(name in initial)) delete process.env[name];
  for (const [name, value] of Object.entries(initial)) if (restored(name) && value !== undefined) process.env[name] = value;

  resetEnvCache();
  resetLogger();
}
