import { Loader2, Undo2 } from "lucide-react";
import { type FormEvent, useId, useState } from "react";
import { useActionData, useFetcher, useSearchParams } from "react-router";
import { formatMoney } from "~/components/affiliates/format";
import { Button, buttonVariants } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { dollarsToCents, REFUND_REASONS, type RefundReason, type RefundResult } from "~/lib/refund-codes";
import { useHydrated } from "~/lib/use-hydrated";
import { REASON_LABELS, refundMessage } from "./refund-messages";
import { ActionAnswer } from "~/components/admin/ActionAnswer";

/** What the refund form needs of an order (the console's order page). */
export interface RefundableOrder {
  id: string;
  email: string;
  itemName: string;
  status: string;
  provider: string;
  /** Cents received and returned so far. */
  paid: number;
  refunded: number;
}

/** Orders whose money can still be returned: paid, or a subscription order that has ended since. */
export const refundLeft = (o: RefundableOrder) =>
  (o.status === "paid" || o.status === "canceled") && o.paid > o.refunded ? o.paid - o.refunded : 0;

/**
 * /admin/orders/:id → Refund: amount (at most what is left), a reason, a note, then a confirm step
 * that names the money and the customer before anything is sent. The confirmed refund carries a
 * key of its own, so a double submission refunds once.
 *
 * Before the page's JavaScript runs (or without it), Refund is a link to the page with ?refund=<order id>,
 * whose page holds a plain form: the amount, the reason, the note and a box that confirms, with the
 * key the loader made (`noScriptKey`); the action answers the page again with the outcome.
 */
export function useRefundOrder(order: RefundableOrder, noScriptKey: string | null = null) {
  const left = refundLeft(order);
  const hydrated = useHydrated();
  const [params] = useSearchParams();
  const pageAnswer = useActionData() as RefundResult | { intent?: unknown } | undefined;
  const noScriptAnswer =
    pageAnswer && pageAnswer.intent === "refund-order" && "orderId" in pageAnswer && pageAnswer.orderId === order.id
      ? (pageAnswer as RefundResult)
      : null;
  const fetcher = useFetcher<RefundResult>();
  const [open, setOpen] = useState(false);
  const [confirming, setConfirming] = useState<{ cents: number; key: string } | null>(null);
  const [sentKey, setSentKey] = useState<string | null>(null);
  const [dollars, setDollars] = useState("");
  const [reason, setReason] = useState<RefundReason | "">("");
  const [note, setNote] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const id = useId();
  const busy = fetcher.state !== "idle";
  // The server's answer to the refund confirmed last: a success closes the form and says what was
  // refunded; a refusal goes back to the form with its reason.
  const answer = !busy && sentKey ? fetcher.data : undefined;
  const done = answer?.ok ? refundMessage(answer) : null;
  const showForm = open && !answer?.ok;
  const inConfirm = showForm && confirming !== null && !answer;
  const shownProblem = problem ?? (answer && !answer.ok ? refundMessage(answer) : null);

  const start = () => {
    setDollars((left / 100).toFixed(2));
    setReason("");
    setNote("");
    setProblem(null);
    setSentKey(null);
    setConfirming(null);
    setOpen(true);
  };

  const review = (event: FormEvent) => {
    event.preventDefault();
    const cents = dollarsToCents(dollars);
    if (cents === null || cents < 1) return setProblem("Enter an amount in dollars, such as 12.50.");
    if (cents > left) return setProblem(`At most ${formatMoney(left)} is left to refund on this order.`);
    if (!reason) return setProblem("Choose a reason.");
    if (reason === "other" && !note.trim()) return setProblem("Say in the note why this refund is made.");
    setProblem(null);
    setSentKey(null);
    setConfirming({ cents, key: crypto.randomUUID() });
  };

  const confirm = () => {
    if (!confirming || !reason) return;
    setSentKey(confirming.key);
    void fetcher.submit(
      {
        intent: "refund-order",
        orderId: order.id,
        amount: String(confirming.cents),
        reason,
        note: note.trim(),
        key: confirming.key,
        confirm: "yes",
      },
      { method: "post" },
    );
  };

  if (!hydrated) {
    const asked = params.get("refund") === order.id;
    return {
      button:
        left > 0 ? (
          <a
            href={`?refund=${encodeURIComponent(order.id)}#refund-${order.id}`}
            className={buttonVariants({ size: "sm", variant: "outline" })}
            aria-label={`Refund ${order.itemName} of ${order.email}`}
          >
            <Undo2 aria-hidden />
            Refund
          </a>
        ) : null,
      panel:
        asked || noScriptAnswer ? (
          <div className="rounded-lg border bg-muted/40 p-3" id={`refund-${order.id}`}>
            {noScriptAnswer ? (
              <ActionAnswer ok={noScriptAnswer.ok} className="mb-3">
                {refundMessage(noScriptAnswer)}
              </ActionAnswer>
            ) : null}
            {left > 0 && noScriptKey ? <NoScriptRefundForm order={order} left={left} refundKey={noScriptKey} /> : null}
          </div>
        ) : null,
    };
  }

  const button =
    left > 0 && !showForm ? (
      <Button type="button" size="sm" variant="outline" onClick={start} aria-label={`Refund ${order.itemName} of ${order.email}`}>
        <Undo2 aria-hidden />
        Refund
      </Button>
    ) : null;

  return {
    button,
    panel:
      showForm || done ? (
        <div className="rounded-lg border bg-muted/40 p-3">
          {done ? <output className="block text-sm font-medium text-emerald-800">{done}</output> : null}
          {showForm && !inConfirm ? (
            <form onSubmit={review} noValidate aria-labelledby={`${id}-title`} className="grid max-w-2xl gap-3 text-sm">
              <h3 id={`${id}-title`} className="font-semibold">
                Refund {order.itemName} ({order.email}): {formatMoney(left)} left to refund
              </h3>
              <div className="grid gap-3 sm:grid-cols-2">
                <label className="grid gap-1">
                  <span>Amount (USD)</span>
                  <Input
                    name="amount"
                    inputMode="decimal"
                    value={dollars}
                    onChange={(e) => setDollars(e.target.value)}
                    aria-describedby={`${id}-hint`}
                  />
                  <span id={`${id}-hint`} className="text-xs text-muted-foreground">
                    At most {formatMoney(left)}.
                  </span>
                </label>
                <label className="grid gap-1">
                  <span>Reason</span>
                  <select
                    name="reason"
                    value={reason}
                    onChange={(e) => setReason(e.target.value as RefundReason | "")}
                    className="h-10 rounded-md border border-input bg-background px-3"
                  >
                    <ReasonOptions />
                  </select>
                </label>
              </div>
              <label className="grid gap-1">
                <span>Note {reason === "other" ? "(required)" : "(optional)"}</span>
                <Input name="note" maxLength={500} value={note} onChange={(e) => setNote(e.target.value)} />
              </label>
              {shownProblem ? (
                <p role="alert" className="font-medium text-destructive">
                  {shownProblem}
                </p>
              ) : null}
              <div className="flex gap-2">
                <Button type="submit" size="sm">
                  Review refund
                </Button>
                <Button type="button" size="sm" variant="ghost" onClick={() => setOpen(false)}>
                  Cancel
                </Button>
              </div>
            </form>
          ) : null}
          {inConfirm && confirming ? (
            <fieldset className="grid max-w-2xl gap-3 text-sm">
              <legend className="font-semibold">
                Return {formatMoney(confirming.cents)} to {order.email} for {order.itemName}?
              </legend>
              <p className="text-muted-foreground">
                {order.provider === "stripe" ? "Stripe refunds the card; this cannot be undone." : "This cannot be undone."}{" "}
                {confirming.cents === left ? "Refunding everything left ends what the order grants." : null}
              </p>
              <div className="flex gap-2">
                <Button type="button" size="sm" variant="destructive" onClick={confirm} disabled={busy}>
                  {busy ? <Loader2 className="animate-spin" aria-hidden /> : null}
                  {busy ? "Refunding…" : `Confirm refund of ${formatMoney(confirming.cents)}`}
                </Button>
                <Button type="button" size="sm" variant="ghost" onClick={() => setConfirming(null)} disabled={busy}>
                  Back
                </Button>
              </div>
            </fieldset>
          ) : null}
        </div>
      ) : null,
  };
}

/** The Refund form as plain HTML: one post, confirmed by its checkbox (the action refuses it unticked). */
function NoScriptRefundForm({ order, left, refundKey }: { order: RefundableOrder; left: number; refundKey: string }) {
  const id = useId();
  return (
    <form method="post" aria-labelledby={`${id}-title`} className="grid max-w-2xl gap-3 text-sm">
      <h3 id={`${id}-title`} className="font-semibold">
        Refund {order.itemName} ({order.email}): {formatMoney(left)} left to refund
      </h3>
      <input type="hidden" name="intent" value="refund-order" />
      <input type="hidden" name="orderId" value={order.id} />
      <input type="hidden" name="key" value={refundKey} />
      <div className="grid gap-3 sm:grid-cols-2">
        <label className="grid gap-1">
          <span>Amount (USD)</span>
          <Input
            name="dollars"
            inputMode="decimal"
            required
            defaultValue={(left / 100).toFixed(2)}
            aria-describedby={`${id}-hint`}
          />
          <span id={`${id}-hint`} className="text-xs text-muted-foreground">
            At most {formatMoney(left)}.
          </span>
        </label>
        <label className="grid gap-1">
          <span>Reason</span>
          <select name="reason" required defaultValue="" className="h-10 rounded-md border border-input bg-background px-3">
            <ReasonOptions />
          </select>
        </label>
      </div>
      <label className="grid gap-1">
        <span>Note (required for Other)</span>
        <Input name="note" maxLength={500} />
      </label>
      <label className="flex items-start gap-2">
        <input type="checkbox" name="confirm" value="yes" required className="mt-1 size-4" />
        <span>
          Return this money to {order.email}.{" "}
          {order.provider === "stripe" ? "Stripe refunds the card; this cannot be undone." : "This cannot be undone."}
        </span>
      </label>
      <div className="flex gap-2">
        <Button type="submit" size="sm" variant="destructive">
          Refund
        </Button>
        <a href={`/admin/orders/${encodeURIComponent(order.id)}`} className={buttonVariants({ size: "sm", variant: "ghost" })}>
          Cancel
        </a>
      </div>
    </form>
  );
}

/** The reason list of both refund forms (with and without JavaScript), its prompt first. */
function ReasonOptions() {
  return (
    <>
      <option value="">Choose a reason</option>
      {REFUND_REASONS.map((r) => (
        <option key={r} value={r}>
          {REASON_LABELS[r]}
        </option>
      ))}
    </>
  );
}
