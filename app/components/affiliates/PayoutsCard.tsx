import { Form, useNavigation } from "react-router";
import { ENTRY_STATE_LABELS, type EntryState } from "~/catalogue/payouts";
import { LocalDateTime } from "~/components/checkout/LocalDateTime";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { formatDay, formatMoney } from "./format";

export interface AffiliatePayoutsView {
  balances: Record<EntryState, number>;
  nextPayableAt: string | null;
  holdDays: number;
  minimum: number;
  payoutEmail: string | null;
  payouts: { id: number; amount: number; status: "open" | "paid"; email: string; createdAt: string; paidAt: string | null }[];
}

const SHOWN: EntryState[] = ["pending", "held", "payable", "in_payout", "paid"];

/** Balances by state, the payout email form and the list of payouts (docs/decisions/0067-affiliate-payouts.md). */
export function PayoutsCard({
  payouts,
  result,
}: {
  payouts: AffiliatePayoutsView;
  result: { ok: boolean; error: string | null } | null;
}) {
  const navigation = useNavigation();
  const saving = navigation.state === "submitting" && navigation.formData?.get("intent") === "payout-email";
  const error = result && !result.ok ? result.error : null;
  return (
    <Card className="mb-6" id="payouts">
      <CardHeader className="p-4 sm:p-6">
        <h2 className="text-xl font-semibold leading-tight tracking-tight">Payouts</h2>
        <CardDescription>
          A commission is payable {payouts.holdDays} days after its sale (refunds and disputes come first). We pay balances of{" "}
          {formatMoney(payouts.minimum)} or more through PayPal; a refund after a payout is taken from the next one.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-6 p-4 pt-0 sm:p-6 sm:pt-0">
        <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-5" data-testid="payout-balances">
          {SHOWN.map((state) => (
            <div key={state} className="rounded-lg border p-3">
              <dt className="text-xs text-muted-foreground">{ENTRY_STATE_LABELS[state]}</dt>
              <dd className={`mt-1 text-lg font-semibold ${payouts.balances[state] < 0 ? "text-destructive" : ""}`}>
                {formatMoney(payouts.balances[state])}
              </dd>
            </div>
          ))}
        </dl>
        {payouts.nextPayableAt ? (
          <p className="text-sm text-muted-foreground">Next commission becomes payable on {formatDay(payouts.nextPayableAt)}.</p>
        ) : null}

        <Form method="post" className="grid max-w-md gap-2">
          <input type="hidden" name="intent" value="payout-email" />
          <Label htmlFor="payoutEmail">PayPal email for payouts</Label>
          <Input
            id="payoutEmail"
            name="payoutEmail"
            type="email"
            autoComplete="email"
            required
            maxLength={254}
            defaultValue={payouts.payoutEmail ?? ""}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? "payoutEmail-error" : "payoutEmail-help"}
          />
          {error ? (
            <p id="payoutEmail-error" className="text-sm font-medium text-destructive">
              {error}
            </p>
          ) : (
            <p id="payoutEmail-help" className="text-sm text-muted-foreground">
              {payouts.payoutEmail ? "Payouts go to this PayPal account." : "Without it, your payouts wait: add it to get paid."}
            </p>
          )}
          {result?.ok ? <output className="text-sm text-emerald-700">Payout email saved.</output> : null}
          <div>
            <Button type="submit" disabled={saving}>
              {saving ? "Saving..." : "Save payout email"}
            </Button>
          </div>
        </Form>

        <div>
          <h3 className="mb-2 font-semibold">Your payouts</h3>
          {payouts.payouts.length === 0 ? (
            <p className="text-sm text-muted-foreground">No payouts yet.</p>
          ) : (
            <ul className="grid gap-2 text-sm" data-testid="payout-list">
              {payouts.payouts.map((p) => (
                <li key={p.id} className="flex flex-wrap items-center justify-between gap-2 rounded-md border p-3">
                  <span>
                    <span className="font-medium">{formatMoney(p.amount)}</span> to <span className="break-all">{p.email}</span>
                  </span>
                  <span className="text-muted-foreground">
                    {p.status === "paid" && p.paidAt ? (
                      <>
                        Paid <LocalDateTime iso={p.paidAt} />
                      </>
                    ) : (
                      "Being paid"
                    )}
                  </span>
                </li>
              ))}
            </ul>
          )}
        </div>
      </CardContent>
    </Card>
  );
}
