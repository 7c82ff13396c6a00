import { useState } from "react";
import { Form, Link } from "react-router";
import { Building2, Check, Loader2, Mail, MessageSquare, Users } from "lucide-react";
import { formatCount, formatDollars, shortCount } from "~/components/dashboard/pages/common";
import { PlanBadge } from "~/components/dashboard/pages/PlanBadge";
import { Badge } from "~/components/ui/badge";
import { Button, buttonVariants } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardFooter, CardHeader } from "~/components/ui/card";
import { Slider } from "~/components/ui/slider";
import type { ScalingTier } from "~/catalogue/plans";
import { cn } from "~/lib/utils";
import { checkoutClick } from "./checkout";
import { LocalDate } from "./LocalDate";
import { CheckoutFormError } from "./CheckoutFormError";
import { tierRelation, type TierRelation, type TierSubscription } from "./tiers";

export interface ScalingCurrent extends TierSubscription {
  planName: string;
  monthlyPrice: number | null;
  currentPeriodEnd: string | null;
}

const LABEL: Record<TierRelation, string> = {
  current: "Current plan",
  // Short enough for the narrowest tier card; the card's badge says whose plan.
  included: "Included",
  upgrade: "Upgrade",
  downgrade: "Downgrade",
};

/** A tier with the contacts the plan has today: nothing to buy (the checkout refuses it too). */
const isHeld = (relation: TierRelation) => relation === "current" || relation === "included";

/** The tier at index i, clamped into range (the slider only yields valid indices). */
const tierAt = (tiers: readonly ScalingTier[], i: number) => tiers[Math.min(Math.max(i, 0), tiers.length - 1)] ?? tiers[0]!;

export function ScalingPlans({
  tiers,
  current,
  bookDemoUrl,
  pending,
  failure,
  onUpgrade,
  changesPlan = false,
  changing = null,
}: {
  /** The tiers at the prices they sell at now (the page's loader read them). */
  tiers: readonly ScalingTier[];
  current: ScalingCurrent;
  bookDemoUrl: string;
  /**
   * The account already pays for a plan or tier: a tier's button posts its form (no new tab) and the
   * answer is the plan change's confirmation page.
   */
  changesPlan?: boolean;
  /** Index of the tier whose plan change is being prepared (the form is on its way). */
  changing?: number | null;
  /** Index of the tier whose checkout is in flight. */
  pending: number | null;
  /** A failed no-JavaScript checkout (the page's action answer): shown under that tier's buttons. */
  failure?: { tierIndex: number; text: string } | null;
  onUpgrade: (tierIndex: number) => void;
}) {
  const currentIndex = tiers.findIndex((t) => isHeld(tierRelation(t.contacts, current)));
  const popular = tiers.findIndex((t) => t.popular);
  const failedIndex = failure && tiers[failure.tierIndex] ? failure.tierIndex : null;
  // After a failed no-JavaScript checkout the selected tier is the one that failed.
  const [selected, setSelected] = useState(failedIndex ?? (currentIndex >= 0 ? currentIndex : popular));
  const errorOf = (i: number) => (failedIndex === i ? (failure?.text ?? null) : null);
  const tier = tierAt(tiers, selected);
  // The tier the account pays for, if its plan is one (a billing plan may include a tier instead).
  const heldTier = tiers.find((t) => tierRelation(t.contacts, current) === "current") ?? null;
  const selectedRelation = tierRelation(tier.contacts, current);

  return (
    <div className="grid gap-8">
      <div className="grid gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <Card>
          <CardHeader>
            <h2 className="text-xl font-semibold leading-tight tracking-tight">Choose your reach</h2>
            <CardDescription>Slide to the number of contacts you need each month.</CardDescription>
          </CardHeader>
          <CardContent className="grid gap-4">
            <Slider
              min={0}
              max={tiers.length - 1}
              step={1}
              value={[selected]}
              onValueChange={([v]) => setSelected(v ?? 0)}
              thumbLabel="Contacts per month"
              aria-valuetext={`${shortCount(tier.contacts)} contacts, ${formatDollars(tier.monthlyPrice)} per month`}
            />
            <div className="flex justify-between text-xs text-muted-foreground" aria-hidden="true">
              {tiers.map((t) => (
                <span key={t.contacts}>{shortCount(t.contacts)}</span>
              ))}
            </div>
            <div className="grid gap-3 rounded-lg bg-muted/60 p-4 sm:grid-cols-[1fr_auto] sm:items-center">
              <div aria-live="polite" data-testid="selected-tier">
                <p className="text-sm text-muted-foreground">Selected tier</p>
                <p className="text-2xl font-bold">
                  {formatCount(tier.contacts)} contacts · {formatDollars(tier.monthlyPrice)}/month
                </p>
                <p className="text-sm text-muted-foreground">
                  {formatCount(tier.sms)} SMS and {formatCount(tier.emails)} emails per month
                </p>
              </div>
              <TierButton
                tierIndex={selected}
                error={errorOf(selected)}
                relation={selectedRelation}
                busy={pending === selected || changing === selected}
                disabled={pending !== null || changing !== null}
                onClick={() => onUpgrade(selected)}
                describedBy="selected-tier-name"
                changesPlan={changesPlan}
              />
              <span id="selected-tier-name" className="sr-only">
                {shortCount(tier.contacts)} contacts tier
              </span>
            </div>
          </CardContent>
        </Card>
        <Card className="flex flex-col">
          <CardHeader>
            <div className="flex items-center justify-between gap-2">
              <h2 className="text-xl font-semibold leading-tight tracking-tight">Current plan</h2>
              <PlanBadge active={current.active} />
            </div>
          </CardHeader>
          <CardContent>
            <p className="text-2xl font-bold" data-testid="scaling-current-plan">
              {current.planName}
            </p>
            <p className="mt-1 text-sm text-muted-foreground" data-testid="scaling-current-reach">
              {!current.active
                ? "You are not on a paid plan yet. Pick a tier to start."
                : current.reachLimit === null
                  ? "Unlimited contacts per month."
                  : `${formatCount(current.reachLimit)} contacts per month.`}
            </p>
            {current.active && current.monthlyPrice !== null ? (
              <p className="mt-1 text-sm text-muted-foreground">
                {formatDollars(current.monthlyPrice)}/month
                {current.currentPeriodEnd ? (
                  <>
                    {" · renews "}
                    <LocalDate iso={current.currentPeriodEnd} />
                  </>
                ) : null}
              </p>
            ) : null}
            {heldTier ? (
              <ul className="mt-4 grid gap-1.5 text-sm" aria-label="Included each month" data-testid="scaling-current-includes">
                <TierAllowances tier={heldTier} item="li" />
              </ul>
            ) : null}
            {!current.active ? (
              <ul className="mt-4 grid gap-1.5 text-sm" aria-label="With a tier" data-testid="scaling-tier-promises">
                <li className="flex items-start gap-2">
                  <Check className="mt-0.5 size-4 shrink-0 text-emerald-600" aria-hidden="true" />
                  Contacts, SMS and emails every month, as each tier lists
                </li>
                <li className="flex items-start gap-2">
                  <Check className="mt-0.5 size-4 shrink-0 text-emerald-600" aria-hidden="true" />
                  Switch tiers later: you see the prorated amount before you confirm
                </li>
                <li className="flex items-start gap-2">
                  <Check className="mt-0.5 size-4 shrink-0 text-emerald-600" aria-hidden="true" />
                  Cancel in Billing: you keep the tier to the end of the month paid for
                </li>
              </ul>
            ) : null}
          </CardContent>
          <CardFooter className="mt-auto">
            <Link
              to="/dashboard/billing"
              className="text-sm font-medium text-primary underline underline-offset-4 hover:no-underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
            >
              {current.active ? "Invoices, payment method and billing plans" : "Compare the billing plans"}
            </Link>
          </CardFooter>
        </Card>
      </div>

      <section aria-labelledby="tiers-heading">
        <h2 id="tiers-heading" className="mb-1 text-xl font-semibold">
          Scaling tiers
        </h2>
        <p className="mb-4 text-sm text-muted-foreground">
          {changesPlan
            ? "Switching changes your current subscription from today: you see the prorated amount before you confirm."
            : "Checkout opens in a new tab. A new tier replaces your current plan from the day you buy it."}
        </p>
        <ul className="grid gap-4 sm:grid-cols-2 xl:grid-cols-5">
          {tiers.map((t, i) => {
            const relation = tierRelation(t.contacts, current);
            const nameId = `tier-${i}-name`;
            return (
              <li key={t.contacts}>
                <Card
                  className={cn(
                    "flex h-full flex-col",
                    i === selected && "border-primary ring-2 ring-primary/30",
                    t.popular && "shadow-md",
                  )}
                  data-testid={`tier-${i}`}
                >
                  <CardHeader className="p-4 xl:p-3">
                    {/* A row of the same height on every card, badges or not, so names and prices line up (one column on phones: no row when empty). */}
                    <div className="flex min-h-6 flex-wrap items-center gap-1 empty:hidden sm:empty:flex">
                      {t.popular ? <Badge>Popular</Badge> : null}
                      {relation === "current" ? <Badge variant="success">Current plan</Badge> : null}
                      {relation === "included" ? <Badge variant="success">In your plan</Badge> : null}
                    </div>
                    <h3 id={nameId} className="font-semibold">
                      {shortCount(t.contacts)} contacts
                    </h3>
                    <p>
                      <span className="text-2xl font-bold">{formatDollars(t.monthlyPrice)}</span>
                      <span className="text-sm text-muted-foreground">/month</span>
                    </p>
                  </CardHeader>
                  <CardContent className="grid flex-1 content-start gap-1 whitespace-nowrap p-4 pt-0 text-sm xl:p-3 xl:pt-0 xl:text-[0.8125rem]">
                    <TierAllowances tier={t} item="p" />
                  </CardContent>
                  <CardFooter className="p-4 pt-0 xl:p-3 xl:pt-0">
                    <TierButton
                      tierIndex={i}
                      error={errorOf(i)}
                      relation={relation}
                      busy={pending === i || changing === i}
                      disabled={pending !== null || changing !== null}
                      onClick={() => {
                        setSelected(i);
                        onUpgrade(i);
                      }}
                      describedBy={nameId}
                      changesPlan={changesPlan}
                    />
                  </CardFooter>
                </Card>
              </li>
            );
          })}
        </ul>
        <p className="sr-only" aria-live="polite">
          {pending !== null
            ? "Starting checkout, please wait."
            : changing !== null
              ? "Preparing the plan change, please wait."
              : ""}
        </p>
      </section>

      <section
        aria-labelledby="enterprise-heading"
        className="flex flex-col items-start gap-4 rounded-xl border bg-muted/50 p-6 sm:flex-row sm:items-center"
      >
        <Building2 className="size-10 shrink-0 text-primary" aria-hidden="true" />
        <div className="flex-1">
          <h2 id="enterprise-heading" className="text-lg font-semibold">
            Need more than 1M contacts?
          </h2>
          <p className="text-sm text-muted-foreground">
            Contact sales for custom volumes, dedicated infrastructure and an account manager.
          </p>
        </div>
        <a href={bookDemoUrl} target="_blank" rel="noopener noreferrer" className={buttonVariants()}>
          BOOK DEMO
          <span className="sr-only"> with sales (opens in a new tab)</span>
        </a>
      </section>
    </div>
  );
}

/**
 * A tier's checkout button in a form of its own, for a click before hydration or without JavaScript
 * (ADR 0016): it posts the tier index only. Hydrated, a plain click runs `onClick` (the new tab).
 */
function TierButton({
  tierIndex,
  error,
  relation,
  busy,
  disabled,
  onClick,
  describedBy,
  changesPlan,
}: {
  changesPlan: boolean;
  tierIndex: number;
  error: string | null;
  relation: TierRelation;
  busy: boolean;
  disabled: boolean;
  onClick: () => void;
  describedBy: string;
}) {
  const held = isHeld(relation);
  return (
    <Form method="post" className="grid w-full gap-2">
      <input type="hidden" name="tierIndex" value={tierIndex} />
      <Button
        type="submit"
        className="w-full"
        variant={relation === "upgrade" ? "default" : "outline"}
        disabled={held || disabled}
        aria-describedby={describedBy}
        aria-busy={busy || undefined}
        onClick={changesPlan ? undefined : checkoutClick(onClick)}
      >
        {busy ? <Loader2 className="animate-spin" aria-hidden="true" /> : null}
        {/* The spec's Upgrade and Downgrade whether this is a checkout or a plan change (the section says which). */}
        {busy ? (changesPlan ? "Preparing..." : "Processing...") : LABEL[relation]}
      </Button>
      <CheckoutFormError message={error} />
    </Form>
  );
}

/** A tier's monthly contacts, SMS and emails, each with its icon: list items, or lines of a card. */
function TierAllowances({ tier, item: Item }: { tier: ScalingTier; item: "li" | "p" }) {
  const rows = [
    [Users, `${formatCount(tier.contacts)} contacts`],
    [MessageSquare, `${formatCount(tier.sms)} SMS`],
    [Mail, `${formatCount(tier.emails)} emails`],
  ] as const;
  return (
    <>
      {rows.map(([Icon, text]) => (
        <Item key={text} className="flex items-center gap-2">
          <Icon className="size-4 text-muted-foreground" aria-hidden="true" />
          {text}
        </Item>
      ))}
    </>
  );
}
