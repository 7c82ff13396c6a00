import { useEffect, useRef } from "react";
import { CircleCheck, CreditCard, FlaskConical } from "lucide-react";
import { data, Form, Link, redirect, useActionData, useNavigation } from "react-router";
import { formatDollars } from "~/catalogue/pricing";
import { Button, buttonVariants } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { LocalDateTime } from "~/components/checkout/LocalDateTime";
import { seo } from "~/lib/seo";
import { requireUser } from "~/server/auth/session.server";
import { authoriseTrial } from "~/server/billing/authorise-trial.server";
import { successPathOf } from "~/server/billing/checkout-paths.server";
import { declineOrder } from "~/server/billing/decline-order.server";
import { capturesAfterTrial, chargedAtTrialEnd, dueToday, trialCaptureAt } from "~/server/billing/due-today.server";
import { fulfilOrder } from "~/server/billing/fulfil-order.server";
import { getOrderForUser } from "~/server/billing/list-orders.server";
import { orderOptionLabel } from "~/server/billing/order-labels.server";
import { recordTestCard } from "~/server/billing/payment-method.server";
import { asItWouldBePaid } from "~/server/billing/owned-items.server";
import { db } from "~/server/db/client.server";
import { customerTimeZone } from "~/server/profile/time-zone.server";
import { TimeZoneContext } from "~/lib/time-zone-context";
import type { Route } from "./+types/checkout.local";

/**
 * The built-in local payment provider's hosted checkout page (docs/decisions/0007). It plays the
 * part of a provider's hosted page: test cards only, and it completes orders through the same
 * fulfilment code a provider webhook will use. Only the order's owner can see it; anyone else gets 404.
 */
export const meta: Route.MetaFunction = ({ matches }) =>
  seo(matches, {
    title: "Test Checkout",
    description: "Test payment page of the local checkout provider.",
    path: "/checkout/local",
    noindex: true,
  });

const SUCCESS_CARD = "4242424242424242";
const DECLINE_CARD = "4000000000000002";
/** Authorised at checkout, then refused when a one-time build's trial ends and the payment is captured. */
const CAPTURE_FAILS_CARD = "4000000000000341";
const DECLINED_MESSAGE = "Your card was declined. Try another card.";
const TEST_CARD_MESSAGE = "Use a test card: 4242 4242 4242 4242 (succeeds) or 4000 0000 0000 0002 (declined).";

async function ownOrder(request: Request, sessionId: string) {
  const user = await requireUser(request);
  const order = await getOrderForUser(db(), user.id, sessionId);
  if (!order) throw data(null, { status: 404 });
  return { user, order };
}

export async function loader({ request, params }: Route.LoaderArgs) {
  const own = await ownOrder(request, params.sessionId);
  const [order, timeZone] = await Promise.all([asItWouldBePaid(db(), own.order), customerTimeZone(db(), own.user.id, request)]);
  return {
    timeZone,
    sessionId: order.providerSessionId,
    itemName: order.itemName,
    tab: orderOptionLabel(order),
    amount: order.amount,
    setupFee: order.setupFee,
    dueToday: dueToday(order),
    cancelUrl: order.cancelPath,
    isSubscription: order.isSubscription,
    trialDays: order.trialDays,
    status: order.status,
    successUrl: successPathOf(order),
    /** A one-time build's trial: what is charged when it ends, and when (paying now, or as authorised). */
    trialCharge: capturesAfterTrial(order)
      ? { amount: chargedAtTrialEnd(order), at: (order.captureAt ?? trialCaptureAt(order)).toISOString() }
      : null,
  };
}

const ALREADY_OWNED_MESSAGE = "You already own one of these add-ons. Nothing was charged.";

type FieldErrors = Partial<Record<"card" | "expiry" | "cvc", string>>;

/** The fields in page order: the error summary lists their errors in this order. */
const FIELDS = [
  { id: "card", label: "Card number" },
  { id: "expiry", label: "Expiry (MM/YY)" },
  { id: "cvc", label: "CVC" },
] as const;

/** MM/YY (or MM/YYYY), this month or later. */
function validExpiry(value: string, now = new Date()): boolean {
  const m = value.replace(/\s/g, "").match(/^(\d{2})\/(\d{2}|\d{4})$/);
  if (!m) return false;
  const month = Number(m[1]);
  const year = m[2]!.length === 2 ? 2000 + Number(m[2]) : Number(m[2]);
  if (month < 1 || month > 12) return false;
  return year * 12 + month >= now.getUTCFullYear() * 12 + now.getUTCMonth() + 1;
}

export async function action({ request, params }: Route.ActionArgs) {
  const { user, order } = await ownOrder(request, params.sessionId);
  if (order.status === "paid" || order.status === "authorized") throw redirect(successPathOf(order));

  const form = await request.formData();
  const card = String(form.get("card") ?? "").replace(/[\s-]/g, "");
  const expiry = String(form.get("expiry") ?? "");
  const cvc = String(form.get("cvc") ?? "").trim();
  const errors: FieldErrors = {};
  if (!/^\d{12,19}$/.test(card)) errors.card = "Enter a card number.";
  if (!validExpiry(expiry)) errors.expiry = "Enter a future expiry date as MM/YY.";
  if (!/^\d{3,4}$/.test(cvc)) errors.cvc = "Enter the 3 or 4 digit security code.";
  if (Object.keys(errors).length > 0) return data({ errors, message: null }, { status: 400 });

  // The receipt and Manage Billing show the card an order is paid or held with (last four digits only).
  if (card === SUCCESS_CARD || (capturesAfterTrial(order) && card === CAPTURE_FAILS_CARD)) {
    await recordTestCard(db(), user.id, order.providerSessionId, card);
  }
  if (capturesAfterTrial(order) && (card === SUCCESS_CARD || card === CAPTURE_FAILS_CARD)) {
    // Nothing is charged today: the card is held and the trial's capture job enqueued with it.
    await authoriseTrial(db(), order.providerSessionId, { captureFails: card === CAPTURE_FAILS_CARD });
    throw redirect(successPathOf(order));
  }
  if (card === SUCCESS_CARD) {
    const paid = await fulfilOrder(db(), order.providerSessionId);
    // Null: paid already (a second submit), or refused because what it buys is owned through
    // another order since this checkout opened (nothing charged; the order is canceled).
    if (!paid && (await getOrderForUser(db(), user.id, order.providerSessionId))?.status === "canceled") {
      return data({ errors: {} as FieldErrors, message: ALREADY_OWNED_MESSAGE }, { status: 409 });
    }
    throw redirect(successPathOf(order));
  }
  if (card === DECLINE_CARD || card === CAPTURE_FAILS_CARD) {
    await declineOrder(db(), user.id, order.providerSessionId);
    return data({ errors: {} as FieldErrors, message: DECLINED_MESSAGE }, { status: 402 });
  }
  return data({ errors: {} as FieldErrors, message: TEST_CARD_MESSAGE }, { status: 400 });
}

function Field({
  id,
  label,
  error,
  ...props
}: { id: string; label: string; error?: string } & React.ComponentProps<typeof Input>) {
  return (
    <div className="grid gap-2">
      <Label htmlFor={id}>{label}</Label>
      <Input
        id={id}
        name={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        {...props}
      />
      {error && (
        <p id={`${id}-error`} className="text-sm font-medium text-destructive">
          {error}
        </p>
      )}
    </div>
  );
}

function LocalCheckoutPage({ loaderData }: Route.ComponentProps) {
  const order = loaderData;
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const submitting = navigation.state !== "idle" && navigation.formMethod === "POST";
  const errors: FieldErrors = result?.errors ?? {};
  const fieldErrors = FIELDS.flatMap((f) => (errors[f.id] ? [{ ...f, error: errors[f.id]! }] : []));
  const formRef = useRef<HTMLFormElement>(null);
  // After the server rejects a field, focus moves to the first invalid one (the summary above the
  // form announces every error); a new result (a new object) moves it again.
  useEffect(() => {
    if (!result || Object.keys(result.errors).length === 0) return;
    formRef.current?.querySelector<HTMLInputElement>('[aria-invalid="true"]')?.focus();
  }, [result]);

  const price = `${formatDollars(order.amount)}${order.isSubscription ? "/month" : ""}`;

  return (
    <main className="min-h-screen bg-muted px-4 py-10 sm:py-16">
      <div className="mx-auto max-w-lg">
        <p
          role="note"
          className="flex items-center gap-2 rounded-lg border border-amber-400 bg-amber-50 px-4 py-3 text-sm font-semibold text-amber-950"
        >
          <FlaskConical className="size-5 shrink-0" aria-hidden />
          TEST PAYMENT — no real card is charged
        </p>
        <div className="mt-6 rounded-2xl border bg-card p-6 shadow-sm sm:p-8">
          <h1 className="text-2xl font-bold tracking-tight">Checkout</h1>
          <dl className="mt-4 grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
            <dt className="text-muted-foreground">Item</dt>
            <dd className="font-semibold" data-testid="checkout-item">
              {order.itemName}
            </dd>
            <dt className="text-muted-foreground">Option</dt>
            <dd data-testid="checkout-tab">{order.tab}</dd>
            <dt className="text-muted-foreground">Amount</dt>
            <dd className="text-lg font-extrabold" data-testid="checkout-amount">
              {price}
            </dd>
            {order.setupFee > 0 && (
              <>
                <dt className="text-muted-foreground">Setup fee</dt>
                <dd data-testid="checkout-setup-fee">{formatDollars(order.setupFee)} (one-time)</dd>
              </>
            )}
            <dt className="text-muted-foreground">Due today</dt>
            <dd className="font-semibold" data-testid="checkout-due-today">
              {formatDollars(order.dueToday)}
            </dd>
          </dl>
          {order.trialCharge ? (
            <p className="mt-3 text-sm font-medium text-emerald-800" data-testid="checkout-trial-charge">
              {order.trialDays}-day free trial included: nothing is charged today. Your card is authorised and{" "}
              <span data-testid="checkout-charge-amount">{formatDollars(order.trialCharge.amount)}</span> is charged on{" "}
              <LocalDateTime iso={order.trialCharge.at} testId="checkout-charge-date" />, unless you cancel the trial in Billing
              before then.
            </p>
          ) : (
            order.trialDays > 0 && (
              <p className="mt-3 text-sm font-medium text-emerald-800">
                {order.trialDays}-day free trial included
                {order.isSubscription ? `: the first ${formatDollars(order.amount)} is charged when it ends.` : "."}
              </p>
            )
          )}

          {order.status === "authorized" ? (
            <div className="mt-6 flex flex-col items-start gap-3">
              <p className="flex items-center gap-2 font-semibold text-emerald-800">
                <CircleCheck className="size-5" aria-hidden />
                Free trial started
              </p>
              <Link to={order.successUrl} className={buttonVariants()}>
                View your order
              </Link>
            </div>
          ) : order.status === "paid" ? (
            <div className="mt-6 flex flex-col items-start gap-3">
              <p className="flex items-center gap-2 font-semibold text-emerald-800">
                <CircleCheck className="size-5" aria-hidden />
                Already paid
              </p>
              <Link to={order.successUrl} className={buttonVariants()}>
                View your order
              </Link>
            </div>
          ) : order.status === "canceled" ? (
            <p className="mt-6 font-semibold">This checkout was canceled.</p>
          ) : (
            <Form method="post" className="mt-6 grid gap-4" noValidate ref={formRef}>
              {result?.message && (
                <p role="alert" className="rounded-md border border-destructive bg-destructive/10 px-3 py-2 text-sm font-medium">
                  {result.message}
                </p>
              )}
              {fieldErrors.length > 0 && (
                <div
                  role="alert"
                  aria-labelledby="checkout-errors-title"
                  className="rounded-md border border-destructive bg-destructive/10 px-3 py-2 text-sm"
                  data-testid="checkout-error-summary"
                >
                  <p id="checkout-errors-title" className="font-semibold">
                    {fieldErrors.length === 1 ? "Check this field:" : `Check these ${fieldErrors.length} fields:`}
                  </p>
                  <ul className="mt-1 list-disc pl-5">
                    {fieldErrors.map((f) => (
                      <li key={f.id}>
                        <a href={`#${f.id}`} className="underline underline-offset-4">
                          {f.label}: {f.error}
                        </a>
                      </li>
                    ))}
                  </ul>
                </div>
              )}
              <Field
                id="card"
                label="Card number"
                inputMode="numeric"
                autoComplete="cc-number"
                placeholder="4242 4242 4242 4242"
                required
                error={errors.card}
              />
              <div className="grid grid-cols-2 gap-4">
                <Field
                  id="expiry"
                  label="Expiry (MM/YY)"
                  autoComplete="cc-exp"
                  placeholder="12/34"
                  required
                  error={errors.expiry}
                />
                <Field
                  id="cvc"
                  label="CVC"
                  inputMode="numeric"
                  autoComplete="cc-csc"
                  placeholder="123"
                  required
                  error={errors.cvc}
                />
              </div>
              {/* Disabled while the payment is submitted: one payment per click (fulfilment is idempotent as well). */}
              <Button type="submit" size="lg" disabled={submitting} aria-busy={submitting || undefined}>
                <CreditCard aria-hidden />
                {submitting ? "Processing..." : order.dueToday > 0 ? `Pay ${formatDollars(order.dueToday)}` : "Start free trial"}
              </Button>
              <Link to={order.cancelUrl} className="text-sm font-medium underline underline-offset-4">
                Cancel and go back
              </Link>
              <p className="text-xs text-muted-foreground">{TEST_CARD_MESSAGE}</p>
            </Form>
          )}
        </div>
      </div>
    </main>
  );
}

/** Times on this page are in the customer's zone, as on the dashboard. */
export default function LocalCheckout(props: Route.ComponentProps) {
  return (
    <TimeZoneContext value={props.loaderData.timeZone}>
      <LocalCheckoutPage {...props} />
    </TimeZoneContext>
  );
}
