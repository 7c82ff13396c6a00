import { Check, Crown, LoaderCircle, Star, Timer, Zap, type LucideIcon } from "lucide-react";
import type * as React from "react";
import { Link } from "react-router";
import type { QuickPickPlan } from "~/catalogue/plans";
import { formatDollars, type PaymentMode } from "~/catalogue/pricing";
import { buttonVariants } from "~/components/ui/button";
import { cn } from "~/lib/utils";

const ICONS: Record<QuickPickPlan["icon"], LucideIcon> = { Zap, Star, Crown };

export interface PlanCardData {
  id: QuickPickPlan["id"];
  name: string;
  icon: QuickPickPlan["icon"];
  description: string;
  features: string[];
  popular: boolean;
  /** Cents shown and charged, standard delivery. */
  amount: number;
  /** The delivery `amount` is sold with: '5-7 days', or '24-48 hours' on the funnel's Rush timeline. */
  delivery: string;
  /** The funnel's Rush timeline: `amount` already is the rush price, so there is no Rush button. */
  rushIncluded: boolean;
  /** Cents shown and charged with rush delivery (x1.5 in place of the timeline's factor). */
  rushAmount: number;
  /** Struck-through "was" price in cents, only when above `amount`. */
  wasAmount: number | null;
}

/**
 * How a card's two checkout buttons behave (docs/decisions/0009). Signed out: links to /auth with
 * this page as `next` (spec section 8: no message). Signed in: submit buttons of a POST form (the
 * no-JavaScript path); with JavaScript the click is intercepted and `onStart` opens the checkout tab.
 */
export type PlanCheckout =
  | { signedIn: false; authHref: string }
  | {
      signedIn: true;
      /** Hidden fields of the no-JavaScript form: plan id, mode and the funnel ids. */
      fields: Record<string, string>;
      /** Which of this card's buttons is in progress. */
      processing: "standard" | "rush" | null;
      /** Any checkout on the page is in progress: every button waits. */
      busy: boolean;
      error: string | null;
      onStart: (rush: boolean) => void;
    };

export function PlanCard({ plan, mode, checkout }: { plan: PlanCardData; mode: PaymentMode; checkout: PlanCheckout }) {
  const Icon = ICONS[plan.icon];
  const suffix = mode === "monthly" ? "/month" : "";
  const headingId = `plan-${plan.id}`;
  return (
    <article
      aria-labelledby={headingId}
      className={cn(
        "relative flex flex-col rounded-2xl border bg-card p-6 text-card-foreground shadow-sm",
        plan.popular && "border-2 border-primary shadow-lg",
      )}
    >
      {plan.popular && (
        <p className="absolute -top-3.5 left-1/2 -translate-x-1/2 whitespace-nowrap rounded-full bg-primary px-3 py-1 text-xs font-bold tracking-wider text-primary-foreground">
          MOST POPULAR
        </p>
      )}
      <div className="flex items-center gap-3">
        <span
          className={cn(
            "grid size-11 place-items-center rounded-lg",
            plan.popular ? "bg-primary text-primary-foreground" : "bg-secondary text-secondary-foreground",
          )}
        >
          <Icon className="size-6" aria-hidden />
        </span>
        <h2 id={headingId} className="text-2xl font-bold">
          {plan.name}
        </h2>
      </div>
      <p className="mt-3 text-sm text-muted-foreground">{plan.description}</p>

      <p className="mt-5 flex flex-wrap items-baseline gap-x-3 gap-y-1">
        <span className="text-4xl font-extrabold tracking-tight" data-testid="plan-price">
          {formatDollars(plan.amount)}
          {suffix && <span className="text-base font-semibold text-muted-foreground">{suffix}</span>}
        </span>
        {plan.wasAmount !== null && (
          <s className="text-lg text-muted-foreground">
            <span className="sr-only">Was </span>
            {formatDollars(plan.wasAmount)}
            {suffix}
          </s>
        )}
      </p>

      <p className="mt-1 text-sm text-muted-foreground" data-testid="plan-delivery">
        {plan.rushIncluded ? "Rush delivery included: " : "Delivered in "}
        {plan.delivery}
      </p>

      <ul className="mt-5 space-y-2.5 text-sm">
        {plan.features.map((f) => (
          <li key={f} className="flex gap-2">
            <Check className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden />
            {f}
          </li>
        ))}
      </ul>

      <CheckoutButtons plan={plan} suffix={suffix} checkout={checkout} />
    </article>
  );
}

function CheckoutButtons({ plan, suffix, checkout }: { plan: PlanCardData; suffix: string; checkout: PlanCheckout }) {
  const trialClass = buttonVariants({ variant: plan.popular ? "default" : "secondary", size: "lg" });
  const rushClass = cn(buttonVariants({ variant: "outline" }), "h-auto flex-col gap-0.5 whitespace-normal py-2");
  const trialLabel = (
    <>
      Start 3-Day Free Trial<span className="sr-only"> with {plan.name}</span>
    </>
  );
  const rushLabel = (
    <>
      <span className="inline-flex items-center gap-2">
        <Timer aria-hidden />
        Rush (24-48hrs) +50%
      </span>
      <span className="text-xs font-medium text-muted-foreground">
        <span data-testid="rush-price">
          {formatDollars(plan.rushAmount)}
          {suffix}
        </span>
        , delivered in 24-48 hours
        <span className="sr-only"> for {plan.name}</span>
      </span>
    </>
  );

  if (!checkout.signedIn) {
    return (
      <div className="mt-auto flex flex-col gap-2 pt-6">
        <Link to={checkout.authHref} className={trialClass}>
          {trialLabel}
        </Link>
        {plan.rushIncluded ? null : (
          <Link to={checkout.authHref} className={rushClass}>
            {rushLabel}
          </Link>
        )}
      </div>
    );
  }

  const errorId = `plan-${plan.id}-error`;
  const processing = (
    <span className="inline-flex items-center gap-2">
      <LoaderCircle className="motion-safe:animate-spin" aria-hidden />
      Processing...
    </span>
  );
  const click = (rush: boolean) => (e: React.MouseEvent<HTMLButtonElement>) => {
    e.preventDefault();
    checkout.onStart(rush);
  };
  return (
    <form method="post" className="mt-auto flex flex-col gap-2 pt-6" aria-busy={checkout.processing !== null}>
      {Object.entries(checkout.fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <button
        type="submit"
        name="rush"
        value="false"
        className={trialClass}
        disabled={checkout.busy}
        aria-describedby={checkout.error ? errorId : undefined}
        onClick={click(false)}
      >
        {checkout.processing === "standard" ? processing : trialLabel}
      </button>
      {plan.rushIncluded ? null : (
        <button
          type="submit"
          name="rush"
          value="true"
          className={rushClass}
          disabled={checkout.busy}
          aria-describedby={checkout.error ? errorId : undefined}
          onClick={click(true)}
        >
          {checkout.processing === "rush" ? processing : rushLabel}
        </button>
      )}
      {checkout.error && (
        <p id={errorId} role="alert" className="text-center text-sm font-medium text-destructive" data-testid="checkout-error">
          {checkout.error}
        </p>
      )}
    </form>
  );
}
