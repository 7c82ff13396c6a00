import { useState, type FormEvent } from "react";
import { CreditCard, Loader2, RefreshCw } from "lucide-react";
import { Form, Link, useNavigation, useRevalidator } from "react-router";
import { toast } from "sonner";
import { BILLING_ERRORS, REFRESHED, sendToSignIn, syncSubscription } from "~/components/dashboard/billing/checkout";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader } from "~/components/ui/card";
import { openCheckoutTab } from "~/lib/checkout-client";
import { cn } from "~/lib/utils";

/**
 * Manage billing and Refresh status. With Stripe, Manage Billing opens Stripe's customer portal in a
 * new tab, offered for an active plan and whenever the user has a Stripe customer: the portal is where
 * every Stripe subscription (add-ons, monthly apps, the distributor program) is cancelled or its card
 * changed. With the local test provider it is a link to this site's own page (subscriptions with
 * cancel, the test card, receipts), offered once there is anything to manage: a plan, another paid
 * subscription or a payment.
 */
export function BillingActions({
  active,
  hasBillingAccount,
  hasOtherSubscriptions,
  hasPayments,
  portal,
}: {
  active: boolean;
  hasBillingAccount: boolean;
  hasOtherSubscriptions: boolean;
  hasPayments: boolean;
  portal: "stripe" | "local" | null;
}) {
  const local = portal === "local";
  const canManage = local ? active || hasOtherSubscriptions || hasPayments : active || hasBillingAccount;
  const navigation = useNavigation();
  const { revalidate } = useRevalidator();
  const [opening, setOpening] = useState(false);
  const [syncing, setSyncing] = useState(false);
  const submittingIntent = navigation.state === "submitting" ? navigation.formData?.get("intent") : null;
  const refreshing = syncing || submittingIntent === "refresh";

  async function openPortal() {
    setOpening(true);
    // Opened in the click handler (a user gesture); pointed at the portal once the server answers.
    const tab = openCheckoutTab();
    try {
      const res = await fetch("/api/billing/portal", { method: "POST", headers: { Accept: "application/json" } });
      const body = (await res.json().catch(() => null)) as { url?: unknown; error?: unknown } | null;
      if (res.ok && typeof body?.url === "string" && (body.url.startsWith("https://") || /^\/(?!\/)/.test(body.url))) {
        tab.go(body.url);
        return;
      }
      tab.cancel();
      if (res.status === 401) sendToSignIn();
      else toast.error(BILLING_ERRORS.portal);
    } catch {
      tab.cancel();
      toast.error(BILLING_ERRORS.portal);
    } finally {
      setOpening(false);
    }
  }

  async function refresh(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setSyncing(true);
    const { ok, signedOut } = await syncSubscription();
    // The spinner stays: the page is on its way to sign-in.
    if (signedOut) return;
    if (ok) {
      await revalidate();
      toast.success(REFRESHED);
    } else {
      toast.error(BILLING_ERRORS.refresh);
    }
    setSyncing(false);
  }

  return (
    <Card>
      <CardHeader>
        <h2 className="text-xl font-semibold leading-tight tracking-tight">Billing actions</h2>
        <CardDescription>Invoices, payment method and plan status.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <div className="flex flex-col gap-3 sm:flex-row sm:flex-wrap">
          {canManage && local ? (
            <Button asChild>
              <Link to="/dashboard/billing/manage">
                <CreditCard aria-hidden="true" />
                Manage Billing
              </Link>
            </Button>
          ) : canManage ? (
            <Button type="button" onClick={() => void openPortal()} disabled={opening} aria-busy={opening || undefined}>
              {opening ? <Loader2 className="animate-spin" aria-hidden="true" /> : <CreditCard aria-hidden="true" />}
              {opening ? "Opening..." : "Manage Billing"}
            </Button>
          ) : null}
          <Form method="post" onSubmit={(e) => void refresh(e)}>
            <Button
              type="submit"
              name="intent"
              value="refresh"
              variant="outline"
              className="w-full sm:w-auto"
              disabled={refreshing}
              aria-busy={refreshing || undefined}
            >
              <RefreshCw className={cn(refreshing && "animate-spin")} aria-hidden="true" />
              {refreshing ? "Refreshing..." : "Refresh status"}
            </Button>
          </Form>
        </div>
        {!canManage && !hasOtherSubscriptions ? (
          <p className="text-sm text-muted-foreground">Billing management opens once you have an active subscription.</p>
        ) : null}
        {!canManage && hasOtherSubscriptions ? (
          // Stripe records a customer with every checkout: without one, they were paid in the test checkout.
          <p className="text-sm text-muted-foreground" data-testid="no-portal">
            Your subscriptions were paid with the test checkout, which has no billing portal.
          </p>
        ) : null}
        {local && canManage ? (
          <p className="text-sm text-muted-foreground" data-testid="local-billing">
            Payments on this site use the test checkout: Manage Billing shows your subscriptions, test card and receipts here.
          </p>
        ) : null}
      </CardContent>
    </Card>
  );
}
