import { ArrowLeft, BadgePercent, Clock, Headphones, Users } from "lucide-react";
import { Link } from "react-router";
import type { PaymentMode } from "~/catalogue/pricing";
import { buttonVariants } from "~/components/ui/button";
import { cn } from "~/lib/utils";
import { BackLink } from "./BackLink";
import { FunnelSteps } from "./FunnelSteps";
import type { MemberTierData } from "./MemberDiscountNote";
import { type MemberCheckout, MemberPlanOffer } from "./MemberPlanOffer";
import { PaymentModeSwitch } from "./PaymentModeSwitch";
import { PlanCard, type PlanCardData, type PlanCheckout } from "./PlanCard";

export interface QuickPickData {
  personalised: string | null;
  badge: { kind: "discount" | "premium"; text: string } | null;
  backHref: string;
  fromFunnel: boolean;
  plans: Record<PaymentMode, PlanCardData[]>;
  tier: MemberTierData | null;
}

const GENERIC_SENTENCE =
  "Three ready-to-go plans for businesses of every size. Each one starts with a 3-day free trial, and rush delivery is available on all of them.";

const RUSH_POINTS = [
  { icon: Clock, title: "24-48 hour delivery", text: "Your AI app goes live within two days instead of weeks." },
  { icon: Users, title: "Dedicated dev team", text: "A team assigned to your project alone, from kick-off to launch." },
  { icon: Headphones, title: "Priority support", text: "Jump the queue for questions, changes and fixes." },
];

export function QuickPickView({
  data,
  mode,
  onModeChange,
  hrefFor,
  bookDemoUrl,
  checkoutFor,
  memberCheckout,
}: {
  data: QuickPickData;
  mode: PaymentMode;
  onModeChange: (mode: PaymentMode) => void;
  hrefFor: (mode: PaymentMode) => string;
  bookDemoUrl: string;
  /** The checkout buttons' behaviour for one plan card. */
  checkoutFor: (plan: PlanCardData) => PlanCheckout;
  /** The buy button of the member plan the trial chooser sent the customer here for. */
  memberCheckout: MemberCheckout | null;
}) {
  return (
    <div className="mx-auto max-w-7xl px-4 py-10 sm:px-6 sm:py-14">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <BackLink fallback={data.backHref} className={cn(buttonVariants({ variant: "ghost", size: "sm" }), "-ml-3")}>
          <ArrowLeft aria-hidden />
          Back to Goals
        </BackLink>
        {data.fromFunnel && <FunnelSteps current={3} />}
      </div>

      <header className="mx-auto mt-6 max-w-3xl text-center">
        <p className="inline-flex items-center rounded-full bg-secondary px-3 py-1 text-sm font-semibold text-secondary-foreground">
          Pricing & Packages
        </p>
        <h1 className="mt-4 text-3xl font-bold tracking-tight sm:text-5xl">Quick Pick Plan</h1>
        <p className="mt-4 text-lg text-muted-foreground">{data.personalised ?? GENERIC_SENTENCE}</p>
        {data.badge && (
          <p
            className={cn(
              "mt-5 inline-flex items-center gap-2 rounded-full px-4 py-1.5 text-sm font-bold",
              data.badge.kind === "discount" ? "bg-emerald-100 text-emerald-900" : "bg-amber-100 text-amber-900",
            )}
            data-testid="multiplier-badge"
          >
            <BadgePercent className="size-4" aria-hidden />
            {data.badge.text}
          </p>
        )}
      </header>

      {data.tier && memberCheckout && (
        <div className="mx-auto mt-6 max-w-3xl">
          <MemberPlanOffer tier={data.tier} checkout={memberCheckout} />
        </div>
      )}

      <div className="mt-8">
        <PaymentModeSwitch mode={mode} onModeChange={onModeChange} hrefFor={hrefFor} />
      </div>

      <div className="mx-auto mt-10 grid max-w-md items-stretch gap-8 lg:max-w-none lg:grid-cols-3 lg:gap-6">
        {data.plans[mode].map((plan) => (
          <PlanCard key={plan.id} plan={plan} mode={mode} checkout={checkoutFor(plan)} />
        ))}
      </div>
      <p className="mt-4 text-center text-sm text-muted-foreground">
        {mode === "monthly" ? "Billed monthly, cancel anytime." : "One payment, no subscription."} The price you see is the price
        you pay.
      </p>

      <section aria-labelledby="rush-heading" className="mt-16 rounded-2xl bg-ink px-6 py-10 text-white sm:px-10">
        <h2 id="rush-heading" className="text-2xl font-bold sm:text-3xl">
          The Rush Model
        </h2>
        <p className="mt-2 max-w-2xl text-slate-300">
          Need it yesterday? Add rush delivery to any plan for +50% and we put everything else second. Rush is one +50% on the
          plan's price: it takes the place of your timeline's adjustment, never adds to it.
        </p>
        <ul className="mt-8 grid gap-6 sm:grid-cols-3">
          {RUSH_POINTS.map(({ icon: Icon, title, text }) => (
            <li key={title} className="flex gap-3">
              <span className="grid size-10 shrink-0 place-items-center rounded-lg bg-white/10">
                <Icon className="size-5 text-amber-300" aria-hidden />
              </span>
              <div>
                <h3 className="font-semibold">{title}</h3>
                <p className="mt-1 text-sm text-slate-300">{text}</p>
              </div>
            </li>
          ))}
        </ul>
        <div className="mt-8 flex flex-wrap gap-3">
          <a
            href={bookDemoUrl}
            target="_blank"
            rel="noopener noreferrer"
            className={buttonVariants({ variant: "accent", size: "lg" })}
          >
            BOOK DEMO
            <span className="sr-only"> (opens in a new tab)</span>
          </a>
          <Link
            to="/apps"
            className={cn(
              buttonVariants({ variant: "outline", size: "lg" }),
              "border-white/40 bg-transparent text-white hover:bg-white/10 hover:text-white",
            )}
          >
            View Solutions
          </Link>
        </div>
      </section>
    </div>
  );
}
