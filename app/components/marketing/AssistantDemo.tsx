import { useEffect, useReducer } from "react";
import { DEMO_STAGES, demoReducer, INITIAL_DEMO, msUntilNextStage, stageAt, visibleStageCount } from "~/lib/demo-stages";
import { CheckIcon, PauseIcon, PlayIcon, RotateCcwIcon } from "./home-icons";
import { BUTTON, cx } from "./Section";

const START_LABEL = { idle: "Start", running: "Pause", paused: "Resume", complete: "Start" } as const;

/**
 * The scripted AI-assistant demo (spec section 4): a booking conversation in four timed stages.
 * Plain React and Tailwind only: it ships on the home page, which has a strict JavaScript budget.
 */
export function AssistantDemo() {
  const [state, dispatch] = useReducer(demoReducer, INITIAL_DEMO);

  // One timeout for the rest of the current stage; re-armed on every state change.
  useEffect(() => {
    const wait = msUntilNextStage(state, Date.now());
    if (wait === null) return;
    const id = window.setTimeout(() => dispatch({ type: "advance", now: Date.now() }), wait);
    return () => window.clearTimeout(id);
  }, [state]);

  const shown = visibleStageCount(state);
  const current = stageAt(state.elapsedMs);
  const running = state.status === "running";
  const step = state.status === "idle" ? 0 : Math.min(current + 1, DEMO_STAGES.length);

  return (
    <div className="overflow-hidden rounded-2xl border bg-card shadow-xl shadow-indigo-950/10" data-testid="assistant-demo">
      <div className="flex items-center justify-between gap-3 border-b bg-muted px-4 py-3">
        <div className="flex items-center gap-3">
          <span className="grid size-9 place-items-center rounded-full bg-primary text-sm font-bold text-white" aria-hidden>
            AI
          </span>
          <div>
            <p className="text-sm font-semibold">Booking Assistant</p>
            <p className="text-xs text-muted-foreground">Bright Smile Dental · online 24/7</p>
          </div>
        </div>
        <p className="text-xs font-medium text-muted-foreground" data-testid="demo-step">
          {state.status === "idle" ? "Ready" : state.status === "complete" ? "Done" : `Step ${step} of ${DEMO_STAGES.length}`}
        </p>
      </div>

      <div className="h-1 bg-muted" aria-hidden>
        <div
          className="h-full bg-primary transition-[width] duration-300 motion-reduce:transition-none"
          style={{ width: `${(step / DEMO_STAGES.length) * 100}%` }}
        />
      </div>

      <div
        role="log"
        aria-live="polite"
        aria-label="Demo conversation"
        className="flex h-80 flex-col justify-end gap-3 overflow-hidden bg-background p-4 text-sm"
      >
        {shown === 0 ? (
          <p className="m-auto max-w-xs text-center text-muted-foreground">
            Press Start to watch an AI assistant answer a customer and book an appointment.
          </p>
        ) : null}
        {DEMO_STAGES.slice(0, shown).map((stage, i) => {
          if (stage.kind === "customer")
            return (
              <p key={stage.kind} className="ml-auto max-w-[85%] rounded-2xl rounded-br-sm bg-primary px-4 py-2.5 text-white">
                <span className="sr-only">Customer: </span>
                {stage.text}
              </p>
            );
          if (stage.kind === "thinking")
            // The typing indicator shows only while its stage plays.
            return i === current && state.status !== "complete" ? (
              <p key={stage.kind} className="flex items-center gap-2 text-muted-foreground">
                <span className="flex gap-1 rounded-2xl rounded-bl-sm bg-muted px-4 py-3" aria-hidden>
                  <span className="size-1.5 rounded-full bg-slate-500 motion-safe:animate-pulse" />
                  <span className="size-1.5 rounded-full bg-slate-500 [animation-delay:150ms] motion-safe:animate-pulse" />
                  <span className="size-1.5 rounded-full bg-slate-500 [animation-delay:300ms] motion-safe:animate-pulse" />
                </span>
                <span className="text-xs">{stage.text}</span>
              </p>
            ) : null;
          if (stage.kind === "answer")
            return (
              <p key={stage.kind} className="mr-auto max-w-[85%] rounded-2xl rounded-bl-sm bg-muted px-4 py-2.5 text-foreground">
                <span className="sr-only">AI assistant: </span>
                {stage.text}
              </p>
            );
          return (
            <p
              key={stage.kind}
              className="mr-auto flex max-w-[85%] items-start gap-2 rounded-xl border border-emerald-200 bg-emerald-50 px-4 py-2.5 text-emerald-900"
            >
              <CheckIcon className="mt-0.5 size-4 shrink-0" />
              {stage.text}
            </p>
          );
        })}
        {state.status === "complete" ? (
          <p className="self-center rounded-full bg-ink px-4 py-1.5 text-sm font-semibold text-white">Demo Complete!</p>
        ) : null}
      </div>

      <div className="flex flex-wrap gap-2 border-t bg-muted/50 p-3">
        <button
          type="button"
          onClick={() => dispatch({ type: running ? "pause" : "start", now: Date.now() })}
          className={cx(BUTTON.sm, BUTTON.primary, "min-w-28")}
        >
          {running ? <PauseIcon /> : <PlayIcon />}
          {START_LABEL[state.status]}
        </button>
        <button
          type="button"
          onClick={() => dispatch({ type: "reset", now: Date.now() })}
          className={cx(BUTTON.sm, BUTTON.outline)}
        >
          <RotateCcwIcon />
          Reset
        </button>
      </div>
    </div>
  );
}
