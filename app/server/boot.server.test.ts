import { afterEach, describe, expect, it, vi } from "vitest";

const calls = vi.hoisted(() => ({ startJobs: 0, failures: 2, closed: 0 }));

vi.mock(import("./db/client.server"), async (original) => ({
  ...(await original()),
  openDatabase: async () => ({ kind: "pglite", db: {}, close: async () => void calls.closed++ }) as never,
}));
vi.mock(import("./catalogue/seed.server"), () => ({ seedCatalogue: async () => ({ apps: 0 }) }) as never);
vi.mock(import("./catalogue/addons.server"), async (original) => ({ ...(await original()), seedAddons: async () => 0 }));
vi.mock(import("./auth/auth.server"), async (original) => ({
  ...(await original()),
  initAuth: async () => ({}) as never,
}));
vi.mock(import("./jobs/queue.server"), async (original) => ({
  ...(await original()),
  startJobs: async () => {
    calls.startJobs++;
    if (calls.failures > 0) {
      calls.failures--;
      throw new Error("could not extend file: No space left on device");
    }
  },
  stopJobs: async () => {},
}));

const { bootForServing, shutdown } = await import("./boot.server");

describe("bootForServing", () => {
  afterEach(async () => {
    await shutdown();
    vi.useRealTimers();
  });

  it("resolves before the job queue has started, and tries a failed start again until it starts", async () => {
    vi.useFakeTimers();
    Object.assign(calls, { startJobs: 0, failures: 2 });
    await bootForServing();
    await vi.advanceTimersByTimeAsync(0);
    expect(calls.startJobs).toBe(1);
    // Then after one second, and after two more.
    await vi.advanceTimersByTimeAsync(999);
    expect(calls.startJobs).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls.startJobs).toBe(2);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(calls.startJobs).toBe(3);
    // Started: no more attempts.
    await vi.advanceTimersByTimeAsync(120_000);
    expect(calls.startJobs).toBe(3);
  });

  it("stops trying once the server shuts down", async () => {
    vi.useFakeTimers();
    Object.assign(calls, { startJobs: 0, failures: 100 });
    await bootForServing();
    await vi.advanceTimersByTimeAsync(0);
    expect(calls.startJobs).toBe(1);
    await shutdown();
    await vi.advanceTimersByTimeAsync(300_000);
    expect(calls.startJobs).toBe(1);
  });
});
