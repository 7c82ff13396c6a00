import { Check, Crown, Star, Timer, Zap, type LucideIcon } from "lucide-react";
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
  /** Cents shown and charged with rush delivery (x1.5). */
  rushAmount: number;
  /** Struck-through "was" price in cents, only when above `amount`. */
  wasAmount: number | null;
}

/** Accounts and checkout arrive in a later issue: every visitor is signed out, and a signed-out
 * checkout goes to /auth without a message (spec section 8). */
export const SIGNED_OUT_CHECKOUT = "/auth";

export function PlanCard({ plan, mode }: { plan: PlanCardData; mode: PaymentMode }) {
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

      <ul className="mt-5 space-y-2.5 text-sm">
        {plan.features.map((f) => (
          <li key={f} className="flex gap-2">
            <Check className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden />
            {f}
          </li>
        ))}
      </ul>

      <div className="mt-auto flex flex-col gap-2 pt-6">
        <Link
          to={SIGNED_OUT_CHECKOUT}
          className={buttonVariants({ variant: plan.popular ? "default" : "secondary", size: "lg" })}
        >
          Start 3-Day Free Trial<span className="sr-only"> with {plan.name}</span>
        </Link>
        <Link to={SIGNED_OUT_CHECKOUT} className={cn(buttonVariants({ variant: "outline" }), "h-auto flex-col gap-0.5 py-2")}>
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
        </Link>
      </div>
    </article>
  );
}
