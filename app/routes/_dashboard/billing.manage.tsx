import { useEffect, useState } from "react";
import { ArrowLeft, CreditCard, Loader2, Receipt, XCircle } from "lucide-react";
import { data, Form, Link, redirect, useActionData, useNavigation } from "react-router";
import { toast } from "sonner";
import { z } from "zod";
import { LocalDate } from "~/components/dashboard/billing/LocalDate";
import { money } from "~/components/dashboard/billing/money";
import { PageHeader } from "~/components/dashboard/pages/common";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader } from "~/components/ui/card";
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "~/components/ui/dialog";
import { requireUser } from "~/server/auth/session.server";
import { cancelSubscription } from "~/server/billing/cancel-subscription.server";
import { listSubscriptions, type ManagedSubscription } from "~/server/billing/list-subscriptions.server";
import { testCardOnFile } from "~/server/billing/payment-method.server";
import { checkoutProvider } from "~/server/billing/provider.server";
import { listReceipts } from "~/server/billing/receipts.server";
import { db } from "~/server/db/client.server";
import type { Route } from "./+types/billing.manage";

/**
 * Manage Billing with the local test provider (docs/decisions/0051-local-manage-billing.md): what
 * Stripe's customer portal shows, on this site's own page. With Stripe, Manage Billing opens
 * Stripe's portal and this page sends the customer back to the billing page.
 */
export const meta: Route.MetaFunction = () => [
  { title: "Manage Billing | AI Dashboard" },
  { name: "robots", content: "noindex" },
];

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  if ((await checkoutProvider()).name === "stripe") throw redirect("/dashboard/billing");
  const [subscriptions, card, receipts] = await Promise.all([
    listSubscriptions(db(), user.id),
    testCardOnFile(db(), user.id),
    listReceipts(db(), user.id),
  ]);
  return { subscriptions, card, receipts };
}

const actionInput = z.strictObject({ intent: z.literal("cancel"), ref: z.string().max(80) });

/** Cancels one of the account's own local subscriptions; refusals are codes the page words. */
export async function action({ request }: Route.ActionArgs) {
  const user = await requireUser(request);
  const parsed = actionInput.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success) return data({ ok: false as const, code: "invalid" as const, at: Date.now() }, { status: 400 });
  const outcome = await cancelSubscription(db(), user.id, parsed.data.ref);
  // The answer does not repeat the ref: a refused one may name another account's order.
  if (outcome === "not_found") return data({ ok: false as const, code: "not_found" as const, at: Date.now() }, { status: 404 });
  return data({ ok: true as const, outcome, at: Date.now() });
}

type ActionResult = Awaited<ReturnType<typeof action>>["data"];

const REFUSALS: Record<Extract<ActionResult, { ok: false }>["code"], string> = {
  invalid: "That request could not be understood. Reload the page and try again.",
  not_found: "This subscription is no longer active, or cannot be cancelled here. Reload the page to see its state.",
};

function resultText(result: ActionResult): string {
  if (!result.ok) return REFUSALS[result.code];
  return result.outcome === "ended"
    ? "Your subscription is cancelled. It has ended and will not be charged again."
    : "Your subscription is cancelled. It stays active until the end of the current billing period and is not renewed.";
}

export default function ManageBillingPage({ loaderData }: Route.ComponentProps) {
  const { subscriptions, card, receipts } = loaderData;
  const result = useActionData<typeof action>();
  const message = result ? resultText(result) : null;

  useEffect(() => {
    if (!result || !message) return;
    if (result.ok) toast.success("Subscription cancelled", { description: message });
    else toast.error("Subscription not cancelled", { description: message });
  }, [result, message]);

  return (
    <div className="mx-auto max-w-4xl">
      <Link
        to="/dashboard/billing"
        className="mb-4 inline-flex items-center gap-1 text-sm font-medium text-muted-foreground hover:text-foreground"
      >
        <ArrowLeft className="size-4" aria-hidden="true" />
        Back to Subscription &amp; Billing
      </Link>
      <PageHeader
        title="Manage Billing"
        description="Your subscriptions, payment method and receipts. Payments on this site use the test checkout: no real card is charged."
      />
      <output
        aria-live="polite"
        data-testid="cancel-result"
        className={message ? "mb-6 block rounded-md border px-4 py-3 text-sm" : "sr-only"}
      >
        {message}
      </output>

      <section aria-labelledby="subscriptions-heading" className="mb-8">
        <h2 id="subscriptions-heading" className="mb-3 text-xl font-semibold">
          Subscriptions
        </h2>
        {subscriptions.length === 0 ? (
          <p className="rounded-xl border border-dashed p-6 text-sm text-muted-foreground" data-testid="no-subscriptions">
            You have no active subscriptions. Plans, tiers, add-ons and monthly apps you subscribe to appear here.
          </p>
        ) : (
          <ul className="grid gap-3" data-testid="managed-subscriptions">
            {subscriptions.map((s) => (
              <SubscriptionRow key={s.ref} subscription={s} />
            ))}
          </ul>
        )}
      </section>

      <section aria-labelledby="payment-method-heading" className="mb-8">
        <Card>
          <CardHeader>
            <h2 id="payment-method-heading" className="text-xl font-semibold leading-tight tracking-tight">
              Payment method
            </h2>
            <CardDescription>The card on file with the test checkout.</CardDescription>
          </CardHeader>
          <CardContent>
            <p className="flex items-center gap-2 text-sm" data-testid="payment-method">
              <CreditCard className="size-4 shrink-0" aria-hidden="true" />
              {card
                ? `Test card ending ${card.last4}`
                : "No payment method is stored. The test checkout asks for a test card with each purchase."}
            </p>
          </CardContent>
        </Card>
      </section>

      <section aria-labelledby="receipts-heading">
        <h2 id="receipts-heading" className="mb-3 text-xl font-semibold">
          Receipts
        </h2>
        {receipts.length === 0 ? (
          <p className="flex items-center gap-3 rounded-xl border border-dashed p-6 text-sm text-muted-foreground">
            <Receipt className="size-5 shrink-0" aria-hidden="true" />
            No payments yet. Every payment you make gets a receipt here.
          </p>
        ) : (
          <ul className="grid gap-2" data-testid="receipts">
            {receipts.map((r) => (
              <li key={r.id} className="flex flex-wrap items-center justify-between gap-2 rounded-lg border px-4 py-3 text-sm">
                <span className="grid">
                  <Link to={`/dashboard/billing/receipts/${r.id}`} className="font-medium underline underline-offset-4">
                    Receipt {r.number}
                  </Link>
                  <span className="text-muted-foreground">
                    {r.itemName} · <LocalDate iso={r.paidAt} />
                  </span>
                </span>
                <span className="flex items-center gap-2 tabular-nums">
                  {money(r.amount)}
                  {r.refunded > 0 ? (
                    <Badge variant="warning">{r.refunded >= r.amount ? "Refunded" : `${money(r.refunded)} refunded`}</Badge>
                  ) : null}
                </span>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}

const STATE: Record<string, { label: string; variant: "success" | "warning" | "secondary" }> = {
  active: { label: "Active", variant: "success" },
  canceling: { label: "Cancels at period end", variant: "warning" },
  past_due: { label: "Past due", variant: "warning" },
  unpaid: { label: "Unpaid", variant: "warning" },
  paused: { label: "Paused", variant: "secondary" },
  incomplete: { label: "Incomplete", variant: "secondary" },
};

function SubscriptionRow({ subscription: s }: { subscription: ManagedSubscription }) {
  const navigation = useNavigation();
  const canceling = navigation.state === "submitting" && navigation.formData?.get("ref") === s.ref;
  const result = useActionData<typeof action>();
  // The confirmation stays open until the action answers (a new action result closes it).
  const [openedWith, setOpenedWith] = useState<{ result: typeof result } | null>(null);
  const confirmOpen = openedWith !== null && openedWith.result === result;
  const setConfirmOpen = (open: boolean) => setOpenedWith(open ? { result } : null);
  const state = STATE[s.state] ?? { label: s.state, variant: "secondary" as const };
  const ends = s.kind === "plan" || s.kind === "scaling";

  return (
    <li
      className="grid gap-3 rounded-xl border bg-card p-4 sm:grid-cols-[1fr_auto] sm:items-center"
      data-testid={`subscription-${s.ref}`}
    >
      <div className="grid gap-1 text-sm">
        <p className="flex flex-wrap items-center gap-2">
          <span className="text-base font-semibold">{s.name}</span>
          <Badge variant={state.variant}>{state.label}</Badge>
        </p>
        <p className="text-muted-foreground">
          {s.kindName} · {s.option} · <span className="tabular-nums text-foreground">{money(s.monthlyPrice)}/month</span>
        </p>
        {s.nextChargeAt ? (
          <p>
            Next charge: <LocalDate iso={s.nextChargeAt} testId="next-charge" />
          </p>
        ) : null}
        {s.endsAt ? (
          <p>
            Ends on <LocalDate iso={s.endsAt} testId="ends-on" />. You keep full access until then.
          </p>
        ) : null}
        {s.provider === "stripe" ? (
          <p className="text-muted-foreground">Billed through Stripe: manage it in Stripe&apos;s portal.</p>
        ) : null}
      </div>
      {s.cancelable ? (
        <Dialog open={confirmOpen} onOpenChange={setConfirmOpen}>
          <Button type="button" variant="outline" className="justify-self-start" onClick={() => setConfirmOpen(true)}>
            <XCircle aria-hidden="true" />
            Cancel<span className="sr-only"> {s.name}</span>
          </Button>
          <DialogContent className="max-w-md">
            <DialogHeader>
              <DialogTitle>Cancel {s.name}?</DialogTitle>
              <DialogDescription>
                {ends
                  ? "It stays active until the end of the current billing period and is not renewed after that."
                  : "It ends now and is not charged again."}
              </DialogDescription>
            </DialogHeader>
            <Form method="post" className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
              <input type="hidden" name="ref" value={s.ref} />
              <DialogClose asChild>
                <Button type="button" variant="outline">
                  Keep subscription
                </Button>
              </DialogClose>
              <Button
                type="submit"
                name="intent"
                value="cancel"
                variant="destructive"
                disabled={canceling}
                aria-busy={canceling || undefined}
              >
                {canceling ? <Loader2 className="animate-spin" aria-hidden="true" /> : null}
                {canceling ? "Canceling..." : "Yes, cancel subscription"}
              </Button>
            </Form>
          </DialogContent>
        </Dialog>
      ) : null}
    </li>
  );
}
