import { Check } from "lucide-react";
import { cn } from "~/lib/utils";

const STEPS = ["Industry", "Goal", "Package"] as const;

/** Where the visitor is in industry -> goal -> package. */
export function FunnelSteps({ current }: { current: 1 | 2 | 3 }) {
  return (
    <ol aria-label="Your progress" className="flex flex-wrap items-center gap-x-2 gap-y-1 text-sm">
      {STEPS.map((label, i) => {
        const step = i + 1;
        const done = step < current;
        const active = step === current;
        return (
          <li key={label} aria-current={active ? "step" : undefined} className="flex items-center gap-2">
            <span
              className={cn(
                "grid size-6 place-items-center rounded-full border text-xs font-semibold",
                active && "border-primary bg-primary text-primary-foreground",
                done && "border-primary bg-secondary text-secondary-foreground",
                !active && !done && "border-input text-muted-foreground",
              )}
            >
              {done ? <Check className="size-3.5" aria-hidden /> : step}
            </span>
            <span className={cn("font-medium", active ? "text-foreground" : "text-muted-foreground")}>
              <span className="sr-only">Step {step}: </span>
              {label}
              {done && <span className="sr-only"> (done)</span>}
            </span>
            {step < STEPS.length && <span aria-hidden className="mx-1 h-px w-6 bg-border sm:w-10" />}
          </li>
        );
      })}
    </ol>
  );
}
