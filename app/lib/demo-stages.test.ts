import { describe, expect, it } from "vitest";
import {
  DEMO_STAGES,
  DEMO_TOTAL_MS,
  demoReducer,
  type DemoState,
  INITIAL_DEMO,
  msUntilNextStage,
  stageAt,
  visibleStageCount,
} from "./demo-stages";

/** Runs the demo the way the widget does: each timeout fires after msUntilNextStage. */
function runToNextStage(state: DemoState, now: number): { state: DemoState; now: number } {
  const wait = msUntilNextStage(state, now);
  if (wait === null) throw new Error("not running");
  const at = now + wait;
  return { state: demoReducer(state, { type: "advance", now: at }), now: at };
}

describe("demo stages", () => {
  it("has the spec's four timings in order", () => {
    expect(DEMO_STAGES.map((s) => s.durationMs)).toEqual([2000, 1500, 2500, 1800]);
  });

  it("maps elapsed time to a stage", () => {
    expect(stageAt(0)).toBe(0);
    expect(stageAt(1999)).toBe(0);
    expect(stageAt(2000)).toBe(1);
    expect(stageAt(3499)).toBe(1);
    expect(stageAt(3500)).toBe(2);
    expect(stageAt(5999)).toBe(2);
    expect(stageAt(6000)).toBe(3);
    expect(stageAt(7799)).toBe(3);
    expect(stageAt(7800)).toBe(4);
  });

  it("runs each stage for exactly its duration, then completes", () => {
    let s = demoReducer(INITIAL_DEMO, { type: "start", now: 1000 });
    expect(s.status).toBe("running");
    expect(visibleStageCount(s)).toBe(1);
    let now = 1000;
    const waits: number[] = [];
    for (let i = 0; i < 4; i++) {
      waits.push(msUntilNextStage(s, now) ?? -1);
      ({ state: s, now } = runToNextStage(s, now));
    }
    expect(waits).toEqual([2000, 1500, 2500, 1800]);
    expect(s.status).toBe("complete");
    expect(visibleStageCount(s)).toBe(4);
    expect(msUntilNextStage(s, now)).toBeNull();
  });

  it("pause keeps the remaining time of the current stage", () => {
    let s = demoReducer(INITIAL_DEMO, { type: "start", now: 0 });
    ({ state: s } = runToNextStage(s, 0)); // now in stage 1 (thinking) at t=2000
    s = demoReducer(s, { type: "pause", now: 2600 });
    expect(s).toEqual({ status: "paused", elapsedMs: 2600, since: null });
    expect(msUntilNextStage(s, 99_999)).toBeNull();
    expect(visibleStageCount(s)).toBe(2);
    s = demoReducer(s, { type: "start", now: 50_000 });
    expect(msUntilNextStage(s, 50_000)).toBe(900);
    expect(msUntilNextStage(s, 50_400)).toBe(500);
    const next = runToNextStage(s, 50_000);
    expect(next.now).toBe(50_900);
    expect(stageAt(next.state.elapsedMs)).toBe(2);
  });

  it("pause never goes past the current stage's end", () => {
    const s = demoReducer(demoReducer(INITIAL_DEMO, { type: "start", now: 0 }), { type: "pause", now: 10_000 });
    expect(s.elapsedMs).toBe(2000);
  });

  it("reset returns to the start from any state", () => {
    const running = demoReducer(INITIAL_DEMO, { type: "start", now: 0 });
    expect(demoReducer(running, { type: "reset", now: 5 })).toEqual(INITIAL_DEMO);
    const paused = demoReducer(running, { type: "pause", now: 5 });
    expect(demoReducer(paused, { type: "reset", now: 6 })).toEqual(INITIAL_DEMO);
    expect(visibleStageCount(INITIAL_DEMO)).toBe(0);
  });

  it("start after completion replays from the first stage", () => {
    const done: DemoState = { status: "complete", elapsedMs: DEMO_TOTAL_MS, since: null };
    const s = demoReducer(done, { type: "start", now: 100 });
    expect(s).toEqual({ status: "running", elapsedMs: 0, since: 100 });
  });

  it("ignores actions that do not apply", () => {
    expect(demoReducer(INITIAL_DEMO, { type: "pause", now: 1 })).toBe(INITIAL_DEMO);
    expect(demoReducer(INITIAL_DEMO, { type: "advance", now: 1 })).toBe(INITIAL_DEMO);
    const running = demoReducer(INITIAL_DEMO, { type: "start", now: 0 });
    expect(demoReducer(running, { type: "start", now: 10 })).toBe(running);
  });
});
