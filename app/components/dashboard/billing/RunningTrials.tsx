import { useEffect, useState } from "react";
import { Clock, Loader2, XCircle } from "lucide-react";
import { useActionData, useFetcher } from "react-router";
import { toast } from "sonner";
import { LocalDateTime } from "~/components/checkout/LocalDateTime";
import { formatDollars } from "~/components/dashboard/pages/common";
import { Button } from "~/components/ui/button";
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "~/components/ui/dialog";
import type { TrialCancelCode } from "~/lib/trial-cancel-codes";
import { useHydrated } from "~/lib/use-hydrated";

export interface TrialView {
  orderId: string;
  itemName: string;
  /** Cents charged when the trial ends. */
  amount: number;
  chargeAt: string;
  cancelable: boolean;
}

/** The billing action's answer to a trial's cancel. */
type CancelAnswer =
  | { ok: true; intent: "cancel-trial"; itemName: string }
  | { ok: false; intent: "cancel-trial"; code: TrialCancelCode }
  | { intent?: unknown };

const REFUSED: Record<TrialCancelCode, string> = {
  trial_not_found: "That trial was not found. Refresh the page to see your current trials.",
  trial_ended: "This trial has already ended, so it can no longer be canceled.",
  trial_already_canceled: "This trial was already canceled. Nothing was charged.",
};

type Outcome = { ok: boolean; text: string };

function outcomeOf(answer: unknown): Outcome | null {
  const a = answer as CancelAnswer | undefined;
  if (!a || a.intent !== "cancel-trial" || !("ok" in a)) return null;
  return a.ok
    ? { ok: true, text: `Your ${a.itemName} trial is canceled. Nothing was charged, and the hold on your card is released.` }
    : { ok: false, text: REFUSED[a.code] ?? REFUSED.trial_not_found };
}

/**
 * One-time builds in their free trial: the card is held and charged when the trial ends, unless the
 * customer cancels here first. The charge's date and time are in the customer's time zone.
 */
export function RunningTrials({ trials }: { trials: TrialView[] }) {
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  // Without JavaScript the form posts to the page and its answer is the page's action data.
  const pageAnswer = outcomeOf(useActionData());
  const shown = outcome ?? pageAnswer;
  if (trials.length === 0 && !shown) return null;
  return (
    <section aria-labelledby="trials-heading" className="mb-8 rounded-xl border bg-card p-6" data-testid="running-trials">
      <h2 id="trials-heading" className="flex items-center gap-2 text-xl font-semibold">
        <Clock className="size-5" aria-hidden="true" />
        Free trials
      </h2>
      <p className="mt-1 text-sm text-muted-foreground">
        Nothing has been charged yet. Each build is charged when its trial ends, unless you cancel it first.
      </p>
      <output
        className={
          shown
            ? shown.ok
              ? "mt-3 block text-sm font-medium text-emerald-800"
              : "mt-3 block text-sm font-medium text-destructive"
            : "sr-only"
        }
        data-testid="trial-cancel-result"
      >
        {shown?.text ?? ""}
      </output>
      {trials.length > 0 ? (
        <ul className="mt-4 grid gap-3">
          {trials.map((t) => (
            <TrialRow key={t.orderId} trial={t} onOutcome={setOutcome} />
          ))}
        </ul>
      ) : null}
    </section>
  );
}

function TrialRow({ trial, onOutcome }: { trial: TrialView; onOutcome: (o: Outcome) => void }) {
  const hydrated = useHydrated();
  const fetcher = useFetcher();
  // The confirmation stays open until the action answers (a new answer closes it).
  const [openedWith, setOpenedWith] = useState<{ data: unknown } | null>(null);
  const open = openedWith !== null && openedWith.data === fetcher.data;
  const setOpen = (next: boolean) => setOpenedWith(next ? { data: fetcher.data } : null);
  const canceling = fetcher.state !== "idle";
  useEffect(() => {
    const o = outcomeOf(fetcher.data);
    if (!o) return;
    onOutcome(o);
    if (o.ok) toast.success("Trial canceled", { description: "Nothing was charged." });
    else toast.error(o.text);
  }, [fetcher.data, onOutcome]);
  return (
    <li
      className="flex flex-wrap items-center justify-between gap-3 rounded-lg border px-4 py-3 text-sm"
      data-testid="running-trial"
    >
      <div className="grid gap-1">
        <span className="font-medium">{trial.itemName}</span>
        <span className="text-muted-foreground">
          <span className="font-semibold text-foreground" data-testid="trial-charge-amount">
            {formatDollars(trial.amount)}
          </span>{" "}
          {trial.cancelable ? "will be charged on " : "is being charged, due "}
          <LocalDateTime iso={trial.chargeAt} testId="trial-charge-date" />
        </span>
      </div>
      {trial.cancelable && !hydrated ? <NoScriptCancel trial={trial} /> : null}
      {trial.cancelable && hydrated ? (
        <Dialog open={open} onOpenChange={(next) => !canceling && setOpen(next)}>
          <Button type="button" variant="outline" onClick={() => setOpen(true)}>
            <XCircle aria-hidden="true" />
            Cancel trial
          </Button>
          <DialogContent className="max-w-md">
            <DialogHeader>
              <DialogTitle>Cancel your {trial.itemName} trial?</DialogTitle>
              <DialogDescription>
                Nothing is charged: the {formatDollars(trial.amount)} held on your card is released, and the build is not
                delivered.
              </DialogDescription>
            </DialogHeader>
            <fetcher.Form method="post" className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
              <input type="hidden" name="orderId" value={trial.orderId} />
              <DialogClose asChild>
                <Button type="button" variant="outline" disabled={canceling}>
                  Keep trial
                </Button>
              </DialogClose>
              <Button
                type="submit"
                name="intent"
                value="cancel-trial"
                variant="destructive"
                disabled={canceling}
                aria-busy={canceling || undefined}
              >
                {canceling ? <Loader2 className="animate-spin" aria-hidden="true" /> : null}
                {canceling ? "Canceling..." : "Yes, cancel trial"}
              </Button>
            </fetcher.Form>
          </DialogContent>
        </Dialog>
      ) : null}
    </li>
  );
}

/**
 * Before the page's JavaScript runs (or without it) the confirmation is a disclosure holding a plain
 * form: it posts to the page, whose answer RunningTrials shows.
 */
function NoScriptCancel({ trial }: { trial: TrialView }) {
  return (
    <details className="grid gap-2">
      <summary className="inline-flex h-10 cursor-pointer list-none items-center gap-2 rounded-md border px-4 font-medium hover:bg-accent focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring">
        <XCircle className="size-4" aria-hidden="true" />
        Cancel trial
      </summary>
      <form method="post" className="mt-2 grid max-w-sm gap-2">
        <input type="hidden" name="orderId" value={trial.orderId} />
        <p className="text-muted-foreground">
          Nothing is charged: the {formatDollars(trial.amount)} held on your card is released, and the build is not delivered.
        </p>
        <Button type="submit" name="intent" value="cancel-trial" variant="destructive">
          Yes, cancel trial
        </Button>
      </form>
    </details>
  );
}
