/**
 * The scripted AI-assistant demo of spec section 4: four timed stages in sequence
 * (2000, 1500, 2500, 1800 ms), with start, pause and reset; after the last stage 'Demo Complete!'.
 *
 * The timing is a pure state machine so it can be tested without timers. The widget keeps one
 * timeout for "the rest of the current stage" and dispatches `advance` when it fires; pausing
 * stores how far into the stage the demo got, so resuming waits only for the remaining time.
 */

type DemoStageKind = "customer" | "thinking" | "answer" | "booked";

export interface DemoStage {
  kind: DemoStageKind;
  durationMs: number;
  /** What the stage shows (the thinking stage's text is for screen readers only). */
  text: string;
}

export const DEMO_STAGES: readonly DemoStage[] = [
  { kind: "customer", durationMs: 2000, text: "Hi! Can I book a teeth cleaning for Friday afternoon?" },
  { kind: "thinking", durationMs: 1500, text: "AI assistant is checking the calendar…" },
  {
    kind: "answer",
    durationMs: 2500,
    text: "Of course! Dr. Patel has openings on Friday at 2:00 PM and 3:30 PM. I've reserved 2:00 PM for you.",
  },
  { kind: "booked", durationMs: 1800, text: "Appointment booked: Friday, 2:00 PM. Confirmation sent by SMS and email." },
];

export const DEMO_TOTAL_MS = DEMO_STAGES.reduce((sum, s) => sum + s.durationMs, 0);

type DemoStatus = "idle" | "running" | "paused" | "complete";

export interface DemoState {
  status: DemoStatus;
  /** Demo time consumed up to `since` (running) or up to the pause (paused). */
  elapsedMs: number;
  /** Wall-clock time at which the demo last started running; null unless running. */
  since: number | null;
}

export type DemoAction = { type: "start" | "pause" | "reset" | "advance"; now: number };

export const INITIAL_DEMO: DemoState = { status: "idle", elapsedMs: 0, since: null };

/** End (ms from the demo's start) of each stage: [2000, 3500, 6000, 7800]. */
const STAGE_ENDS = DEMO_STAGES.reduce<number[]>((ends, s) => [...ends, (ends.at(-1) ?? 0) + s.durationMs], []);

/** Index of the stage playing at `elapsedMs`; DEMO_STAGES.length once the demo is over. */
export function stageAt(elapsedMs: number): number {
  const i = STAGE_ENDS.findIndex((end) => elapsedMs < end);
  return i === -1 ? DEMO_STAGES.length : i;
}

/** Milliseconds until the current stage ends, measured at wall-clock `now`; null when not running. */
export function msUntilNextStage(state: DemoState, now: number): number | null {
  if (state.status !== "running" || state.since === null) return null;
  const elapsed = state.elapsedMs + Math.max(0, now - state.since);
  const end = STAGE_ENDS[stageAt(state.elapsedMs)] ?? DEMO_TOTAL_MS;
  return Math.max(0, end - elapsed);
}

export function demoReducer(state: DemoState, action: DemoAction): DemoState {
  switch (action.type) {
    case "start":
      if (state.status === "running") return state;
      // Start after completion replays from the beginning; start while paused resumes.
      return {
        status: "running",
        elapsedMs: state.status === "paused" ? state.elapsedMs : 0,
        since: action.now,
      };
    case "pause": {
      if (state.status !== "running" || state.since === null) return state;
      const stage = stageAt(state.elapsedMs);
      const end = STAGE_ENDS[stage] ?? DEMO_TOTAL_MS;
      // Never pause past the current stage's end: the timer for that boundary has not fired yet.
      const elapsedMs = Math.min(end, state.elapsedMs + Math.max(0, action.now - state.since));
      return { status: "paused", elapsedMs, since: null };
    }
    case "reset":
      return INITIAL_DEMO;
    case "advance": {
      if (state.status !== "running") return state;
      const end = STAGE_ENDS[stageAt(state.elapsedMs)] ?? DEMO_TOTAL_MS;
      if (end >= DEMO_TOTAL_MS) return { status: "complete", elapsedMs: DEMO_TOTAL_MS, since: null };
      return { status: "running", elapsedMs: end, since: action.now };
    }
  }
}

/** How many stages are on screen: none before the start, all of them once complete. */
export function visibleStageCount(state: DemoState): number {
  if (state.status === "idle") return 0;
  return Math.min(DEMO_STAGES.length, stageAt(state.elapsedMs) + 1);
}
