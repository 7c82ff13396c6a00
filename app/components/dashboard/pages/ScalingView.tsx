import { useState } from "react";
import { Building2, Mail, MessageSquare, Users } from "lucide-react";
import { formatCount, formatDollars, shortCount } from "~/components/dashboard/pages/common";
import { CHECKOUT_NOTE, PlanBadge } from "~/components/dashboard/pages/PlanBadge";
import { Badge } from "~/components/ui/badge";
import { Button, buttonVariants } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardFooter, CardHeader } from "~/components/ui/card";
import { Slider } from "~/components/ui/slider";
import { SCALING_TIERS } from "~/catalogue/plans";
import { cn } from "~/lib/utils";

export interface ScalingViewProps {
  active: boolean;
  planName: string;
  /** Index into SCALING_TIERS of the account's tier, or null when it has none. */
  currentIndex: number | null;
  bookDemoUrl: string;
}

/** The tier at index i, clamped into range (the slider only yields valid indices). */
const tierAt = (i: number) => SCALING_TIERS[Math.min(Math.max(i, 0), SCALING_TIERS.length - 1)] ?? SCALING_TIERS[0]!;

export function ScalingView({ active, planName, currentIndex, bookDemoUrl }: ScalingViewProps) {
  const popular = SCALING_TIERS.findIndex((t) => t.popular);
  const [selected, setSelected] = useState(currentIndex ?? popular);
  const tier = tierAt(selected);

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
              max={SCALING_TIERS.length - 1}
              step={1}
              value={[selected]}
              onValueChange={([v]) => setSelected(v ?? 0)}
              thumbLabel="Contacts per month"
              aria-valuetext={`${shortCount(tier.contacts)} contacts, ${formatDollars(tier.monthlyPrice)} per month`}
            />
            <div className="flex justify-between text-xs text-muted-foreground" aria-hidden="true">
              {SCALING_TIERS.map((t) => (
                <span key={t.contacts}>{shortCount(t.contacts)}</span>
              ))}
            </div>
            <div className="rounded-lg bg-muted/60 p-4" aria-live="polite" data-testid="selected-tier">
              <p className="text-sm text-muted-foreground">Selected tier</p>
              <p className="text-2xl font-bold">
                {formatCount(tier.contacts)} contacts · {formatDollars(tier.monthlyPrice)}/month
              </p>
              <p className="text-sm text-muted-foreground">
                {formatCount(tier.sms)} SMS and {formatCount(tier.emails)} emails per month
              </p>
            </div>
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <div className="flex items-center justify-between gap-2">
              <h2 className="text-xl font-semibold leading-tight tracking-tight">Current plan</h2>
              <PlanBadge active={active} />
            </div>
          </CardHeader>
          <CardContent>
            <p className="text-2xl font-bold">{planName}</p>
            <p className="mt-1 text-sm text-muted-foreground">
              {currentIndex === null
                ? "You are not on a scaling tier yet."
                : `${formatCount(tierAt(currentIndex).contacts)} contacts per month.`}
            </p>
          </CardContent>
        </Card>
      </div>

      <section aria-labelledby="tiers-heading">
        <h2 id="tiers-heading" className="mb-1 text-xl font-semibold">
          Scaling tiers
        </h2>
        <p id="scaling-checkout-note" className="mb-4 text-sm text-muted-foreground">
          {CHECKOUT_NOTE}
        </p>
        <ul className="grid gap-4 sm:grid-cols-2 xl:grid-cols-5">
          {SCALING_TIERS.map((t, i) => {
            const isCurrent = i === currentIndex;
            const lower = currentIndex !== null && i < currentIndex;
            return (
              <li key={t.contacts}>
                <Card
                  className={cn(
                    "flex h-full flex-col",
                    i === selected && "border-primary ring-2 ring-primary/30",
                    t.popular && "shadow-md",
                  )}
                  aria-current={i === selected ? "true" : undefined}
                >
                  <CardHeader className="p-4">
                    <div className="flex flex-wrap items-center gap-1">
                      <h3 className="mr-auto font-semibold">{shortCount(t.contacts)} contacts</h3>
                      {t.popular ? <Badge>Popular</Badge> : null}
                      {isCurrent ? <Badge variant="success">Current Plan</Badge> : null}
                    </div>
                    <p>
                      <span className="text-2xl font-bold">{formatDollars(t.monthlyPrice)}</span>
                      <span className="text-sm text-muted-foreground">/month</span>
                    </p>
                  </CardHeader>
                  <CardContent className="grid flex-1 gap-1 p-4 pt-0 text-sm">
                    <p className="flex items-center gap-2">
                      <Users className="size-4 text-muted-foreground" aria-hidden="true" />
                      {formatCount(t.contacts)} contacts
                    </p>
                    <p className="flex items-center gap-2">
                      <MessageSquare className="size-4 text-muted-foreground" aria-hidden="true" />
                      {formatCount(t.sms)} SMS
                    </p>
                    <p className="flex items-center gap-2">
                      <Mail className="size-4 text-muted-foreground" aria-hidden="true" />
                      {formatCount(t.emails)} emails
                    </p>
                  </CardContent>
                  <CardFooter className="p-4 pt-0">
                    <Button
                      type="button"
                      className="w-full"
                      variant={isCurrent || lower ? "outline" : "default"}
                      disabled
                      aria-describedby="scaling-checkout-note"
                    >
                      {isCurrent ? "Current Plan" : lower ? "Downgrade" : "Upgrade"}
                    </Button>
                  </CardFooter>
                </Card>
              </li>
            );
          })}
        </ul>
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
          <p className="text-sm text-muted-foreground">Custom volumes, dedicated infrastructure and an account manager.</p>
        </div>
        <a href={bookDemoUrl} target="_blank" rel="noopener noreferrer" className={buttonVariants()}>
          Contact sales
          <span className="sr-only"> (opens in a new tab)</span>
        </a>
      </section>
    </div>
  );
}
