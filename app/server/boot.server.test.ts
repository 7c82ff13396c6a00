import { afterEach, describe, expect, it, vi } from "vitest";

const calls = vi.hoisted(() => ({ startJobs: 0, failures: 2, closed: 0 }));

vi.mock(import("./db/client.server"), async (original) => ({
  ...(await original()),
  openDatabase: vi.fn(async () => ({ kind: "pglite", db: {}, close: async () => void calls.closed++ }) as never),
}));
vi.mock(import("./catalogue/seed.server"), () => ({ seedCatalogue: vi.fn(async () => ({ apps: 0 })) }) as never);
vi.mock(import("./catalogue/addons.server"), async (original) => ({ ...(await original()), seedAddons: vi.fn(async () => 0) }));
vi.mock(import("./auth/auth.server"), async (original) => ({
  ...(await original()),
  initAuth: vi.fn(async () => ({}) as never),
}));
vi.mock(import("./jobs/queue.server"), async (original) => ({
  ...(await original()),
  startJobs: vi.fn(async () => {
    calls.startJobs++;
    if (calls.failures > 0) {
      calls.failures--;
      throw new Error("could not extend file: No space left on device");
    }
  }),
  stopJobs: vi.fn(async () => {}),
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
