import type { PaymentMode } from "~/catalogue/pricing";
import { Switch } from "~/components/ui/switch";
import { cn } from "~/lib/utils";

/**
 * One-time vs monthly. The Radix switch needs JavaScript; without it a plain link to the other
 * mode's URL stands in (rendered inside <noscript>, so hydrated pages never show it).
 */
export function PaymentModeSwitch({
  mode,
  onModeChange,
  hrefFor,
}: {
  mode: PaymentMode;
  onModeChange: (mode: PaymentMode) => void;
  hrefFor: (mode: PaymentMode) => string;
}) {
  const monthly = mode === "monthly";
  return (
    <div className="flex flex-col items-center gap-2">
      {/* Below sm each label may wrap onto two lines: at 320 px the pair does not fit on one. */}
      <div className="inline-flex max-w-full items-center gap-2.5 rounded-2xl border bg-card px-4 py-2.5 shadow-sm sm:gap-3 sm:whitespace-nowrap sm:rounded-full sm:px-5">
        <span
          className={cn(
            "text-center text-sm leading-tight sm:text-left",
            monthly ? "text-muted-foreground" : "font-semibold text-foreground",
          )}
        >
          One-time Payment
        </span>
        <Switch
          id="payment-mode"
          checked={monthly}
          className="shrink-0 data-[state=unchecked]:bg-slate-500"
          onCheckedChange={(checked) => onModeChange(checked ? "monthly" : "one-time")}
        />
        <label
          htmlFor="payment-mode"
          className={cn(
            "cursor-pointer text-center text-sm leading-tight sm:text-left",
            monthly ? "font-semibold text-foreground" : "text-muted-foreground",
          )}
        >
          Monthly Payment
        </label>
      </div>
      <noscript>
        <a
          href={hrefFor(monthly ? "one-time" : "monthly")}
          className="text-sm font-medium text-primary underline underline-offset-4"
        >
          Switch to {monthly ? "One-time Payment" : "Monthly Payment"}
        </a>
      </noscript>
    </div>
  );
}
