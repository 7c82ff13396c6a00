import { Check, Clock, Crown, Sparkles, Zap } from "lucide-react";
import { Dialog as DialogPrimitive } from "radix-ui";
import { type ReactNode, useEffect, useLayoutEffect, useRef, useState } from "react";
import { Form, Link, useNavigation } from "react-router";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Progress } from "~/components/ui/progress";
import type { TrialPlan, TrialPlanId } from "~/catalogue/plans";
import {
  discountPercent,
  FREE_PREVIEW_SECONDS,
  formatDollars,
  memberSaving,
  membersSave,
  TRIAL_LENGTH_DAYS,
} from "~/catalogue/trial";
import { useHydrated } from "~/lib/use-hydrated";
import { cn } from "~/lib/utils";
import type { ErrorNotice } from "./DashboardToasts";

const PLAN_ICONS = { starter: Zap, growth: Sparkles, pro: Crown } as const;

export interface TrialOverlayProps {
  /** 'preview': the 15 s free preview, then the chooser. 'expired': the trial was used; chooser at once. */
  mode: "preview" | "expired";
  /**
   * Preview seconds left, by the server's clock from the account's first dashboard view: a new
   * object is a new reading, which the countdown restarts from. `counting` is false until the
   * server has recorded that first view (the page's visit report answers it).
   */
  preview: { seconds: number; counting: boolean };
  /** A plan preselected by the link that led here (`?plan=`), highlighted in the chooser. */
  preselected: TrialPlanId | null;
  /** The chooser's plans at the prices they sell at now (the layout's loader read them). */
  plans: TrialPlan[];
  /** The layout action's last error (a refused trial start), shown inside the chooser while it is open. */
  error: ErrorNotice | null;
  /** Told when the chooser dialog opens and closes, so the layout's toaster stays quiet meanwhile. */
  onChooserOpenChange: (open: boolean) => void;
}

/**
 * Shown by the dashboard layout when the server's gate says there is no active trial or
 * subscription. The dashboard stays visible behind the preview box; the chooser is a modal dialog.
 */
export function TrialOverlay({ mode, preview, preselected, plans, error, onChooserOpenChange }: TrialOverlayProps) {
  const hydrated = useHydrated();
  // Counted down from the server's figure, so a reload goes on where the preview was.
  const [left, setLeft] = useState(preview.seconds);
  const secondsLeft = mode === "expired" ? 0 : Math.max(0, left);
  const chooserOpen = secondsLeft === 0;

  useEffect(() => {
    onChooserOpenChange(chooserOpen);
    return () => onChooserOpenChange(false);
  }, [chooserOpen, onChooserOpenChange]);

  // Each new reading of the server's (the visit's answer, a revalidated loader) is taken (React's
  // "adjust state on a prop change"); a countdown never goes up, so a late answer cannot take back a
  // chooser already open.
  const [reading, setReading] = useState(preview);
  if (reading !== preview) {
    setReading(preview);
    setLeft(Math.min(left, preview.seconds));
  }
  const ticking = mode === "preview" && reading.counting && secondsLeft > 0;

  // The ticks start again from each reading, never above it. A layout effect: the interval exists
  // from the commit that shows `data-counting`, which tests driving a paused clock wait for.
  useLayoutEffect(() => {
    if (!ticking) return;
    // One tick per second; stops at 0, when the chooser replaces the box (plain setInterval, no rAF).
    const id = setInterval(() => setLeft((l) => Math.max(0, Math.min(l, reading.seconds) - 1)), 1000);
    return () => clearInterval(id);
  }, [ticking, reading]);

  if (!chooserOpen) {
    return (
      <>
        {/* Without JavaScript the preview cannot count down: the chooser is there at once. */}
        <noscript>
          <StaticChooser expired={false} preselected={preselected} plans={plans} error={error} />
        </noscript>

        <section
          aria-label="Free preview"
          className="fixed inset-x-4 bottom-4 z-40 rounded-xl border bg-card p-4 shadow-lg sm:left-auto sm:w-72"
          data-testid="free-preview"
          data-counting={ticking}
        >
          <p className="flex items-center gap-2 text-sm font-semibold">
            <Clock className="size-4 text-primary" aria-hidden />
            Free Preview: {secondsLeft}s remaining
          </p>
          <Progress
            className="mt-3"
            value={(secondsLeft / FREE_PREVIEW_SECONDS) * 100}
            aria-label="Free preview time remaining"
          />
          <p className="mt-2 text-xs text-muted-foreground">Explore the dashboard, then choose a plan to continue.</p>
        </section>
      </>
    );
  }
  const chooser = { expired: mode === "expired", preselected, plans, error };
  return hydrated ? <PlanChooser {...chooser} /> : <StaticChooser {...chooser} />;
}

const ERROR_ID = "trial-chooser-error";

/** Inside the dialog: the modal sets aria-hidden on everything outside it, the toaster included. */
function ChooserError({ error }: { error: ErrorNotice }) {
  return (
    <div
      id={ERROR_ID}
      role="alert"
      className="mb-3 rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm text-destructive"
    >
      <p className="font-semibold">{error.title}</p>
      <p>{error.description}</p>
    </div>
  );
}

interface ChooserProps {
  expired: boolean;
  preselected: TrialPlanId | null;
  plans: TrialPlan[];
  error: ErrorNotice | null;
}

type TextPart = (props: { className: string; children: ReactNode }) => ReactNode;

const TITLE_ID = "trial-chooser-title";
const DESCRIPTION_ID = "trial-chooser-description";
const OVERLAY_CLASS = "fixed inset-0 z-50 bg-ink/80 backdrop-blur-sm";
const CONTENT_CLASS = "fixed inset-0 z-50 overflow-y-auto p-4 focus:outline-none sm:p-8";

/** The modal chooser once the page runs: focus kept inside, Escape and outside clicks ignored. */
function PlanChooser(props: ChooserProps) {
  return (
    <DialogPrimitive.Root open modal>
      <DialogPrimitive.Portal>
        <DialogPrimitive.Overlay className={OVERLAY_CLASS} />
        <DialogPrimitive.Content
          onEscapeKeyDown={(e) => e.preventDefault()}
          onPointerDownOutside={(e) => e.preventDefault()}
          onInteractOutside={(e) => e.preventDefault()}
          className={CONTENT_CLASS}
        >
          <ChooserBody {...props} Title={DialogPrimitive.Title} Description={DialogPrimitive.Description} />
        </DialogPrimitive.Content>
      </DialogPrimitive.Portal>
    </DialogPrimitive.Root>
  );
}

/**
 * The same chooser in the server's HTML, where Radix's portal renders nothing: before the page has
 * loaded its JavaScript, and for good without it (ADR 0025). Its forms post to the layout's action.
 */
function StaticChooser(props: ChooserProps) {
  return (
    <>
      <div className={OVERLAY_CLASS} />
      {/* Open but not shown by showModal(), which needs script: it covers the page and is reset to no frame of its own. */}
      <dialog
        open
        aria-modal="true"
        aria-labelledby={TITLE_ID}
        aria-describedby={DESCRIPTION_ID}
        className={cn(CONTENT_CLASS, "m-0 h-auto max-h-none w-auto max-w-none bg-transparent text-inherit")}
      >
        <ChooserBody {...props} Title={StaticTitle} Description={StaticDescription} />
      </dialog>
    </>
  );
}

function StaticTitle({ className, children }: { className: string; children: ReactNode }) {
  return (
    <h2 id={TITLE_ID} className={className}>
      {children}
    </h2>
  );
}

function StaticDescription({ className, children }: { className: string; children: ReactNode }) {
  return (
    <p id={DESCRIPTION_ID} className={className}>
      {children}
    </p>
  );
}

function ChooserBody({
  expired,
  preselected,
  plans,
  error,
  Title,
  Description,
}: ChooserProps & { Title: TextPart; Description: TextPart }) {
  return (
    <div className="mx-auto max-w-5xl rounded-2xl bg-background p-6 shadow-2xl sm:p-8">
      <div className="text-center">
        <Title className="text-2xl font-bold sm:text-3xl">{expired ? "Your Free Trial Has Ended" : "Choose Your Plan"}</Title>
        <Description className="mt-2 text-muted-foreground">
          {expired
            ? `Upgrade to keep using your AI dashboard.${memberSavings(plans)}`
            : "Your free preview has ended. Start a free trial or upgrade to keep using your AI dashboard."}
        </Description>
      </div>
      <ul className="mt-8 grid gap-4 md:grid-cols-3">
        {plans.map((plan) => (
          <PlanCard key={plan.id} plan={plan} expired={expired} highlighted={plan.id === preselected} error={error} />
        ))}
      </ul>
      {/* Without a start button (the trial was used) there is no card to put it beside. */}
      {expired && error ? (
        <div className="mt-6">
          <ChooserError key={error.id} error={error} />
        </div>
      ) : null}
      <p className="mt-6 text-center text-sm text-muted-foreground">Cancel anytime · 30-day money-back guarantee</p>
      {/* The modal hides the sidebar, and with it Sign Out: someone on a shared computer must still be able to leave. */}
      <div className="mt-3 flex flex-wrap items-center justify-center gap-x-6 gap-y-2">
        <Link to="/" className="text-sm font-semibold text-primary underline underline-offset-4">
          Back to Home
        </Link>
        <Form method="post" action="/dashboard">
          <input type="hidden" name="intent" value="sign-out" />
          <button
            type="submit"
            className="text-sm font-semibold text-muted-foreground underline underline-offset-4 hover:text-foreground"
          >
            Sign Out
          </button>
        </Form>
      </div>
    </div>
  );
}

/** " Members save 30%." at the plans' current prices ("up to" when they differ), nothing without a discount. */
function memberSavings(plans: readonly TrialPlan[]): string {
  const saving = memberSaving(plans);
  return saving ? ` ${membersSave(saving)}.` : "";
}

function PlanCard({
  plan,
  expired,
  highlighted,
  error,
}: {
  plan: TrialPlan;
  expired: boolean;
  highlighted: boolean;
  error: ErrorNotice | null;
}) {
  const navigation = useNavigation();
  const starting = navigation.state === "submitting" && navigation.formData?.get("intent") === "start-trial";
  const startRef = useRef<HTMLButtonElement>(null);

  // The button is disabled while its post is in flight, which drops focus to <body>, outside the
  // dialog's focus trap; bring it back so keyboard users continue where they were, with the error
  // read as the button's description. Focus moved elsewhere in the dialog meanwhile is left alone.
  useEffect(() => {
    const button = startRef.current;
    if (!error || !button) return;
    const dialog = button.closest('[role="dialog"]');
    const active = document.activeElement;
    if (!active || active === document.body || !dialog?.contains(active)) button.focus();
  }, [error]);
  const Icon = PLAN_ICONS[plan.id];
  const off = discountPercent(plan);
  const headingId = `plan-${plan.id}-name`;
  return (
    <li
      data-selected={highlighted ? "true" : undefined}
      className={cn(
        "relative flex flex-col rounded-xl border bg-card p-5 shadow-sm",
        plan.popular && "border-primary",
        highlighted && "ring-2 ring-primary ring-offset-2",
      )}
    >
      <div className="flex flex-wrap items-center gap-2">
        <Icon className="size-5 text-primary" aria-hidden />
        <h3 id={headingId} className="text-lg font-bold">
          {plan.name}
        </h3>
        {plan.popular && <Badge>Most Popular</Badge>}
        {highlighted && <Badge variant="accent">Selected</Badge>}
      </div>
      <p className="mt-3">
        <span className="text-3xl font-extrabold">{formatDollars(plan.price)}</span>
        {plan.price > 0 && <span className="text-muted-foreground">/mo</span>}
      </p>
      {plan.price === 0 ? (
        <p className="text-sm font-medium text-primary">{TRIAL_LENGTH_DAYS}-day free trial</p>
      ) : (
        <p className="text-sm">
          <span className="text-muted-foreground line-through">
            <span className="sr-only">was </span>
            {formatDollars(plan.originalPrice)}/mo
          </span>{" "}
          <Badge variant="success">{off}% off</Badge>
        </p>
      )}
      <ul className="mt-4 flex flex-1 flex-col gap-2 text-sm">
        {plan.features.map((f) => (
          <li key={f} className="flex items-start gap-2">
            <Check className="mt-0.5 size-4 shrink-0 text-emerald-700" aria-hidden />
            {f}
          </li>
        ))}
      </ul>
      <div className="mt-5">
        {plan.id !== "starter" ? (
          <Button asChild className="w-full" variant={highlighted ? "default" : "outline"}>
            <Link to={`/packages?tier=${plan.id}`}>Upgrade to {plan.name}</Link>
          </Button>
        ) : expired ? (
          <div className="flex flex-col gap-2">
            <p className="text-sm text-muted-foreground">
              You have already used your free trial. Upgrade to a member plan to continue.
            </p>
            <Button asChild className="w-full">
              <Link to="/packages">View Upgrade Options</Link>
            </Button>
          </div>
        ) : (
          <Form method="post" action="/dashboard">
            {error ? <ChooserError key={error.id} error={error} /> : null}
            <input type="hidden" name="intent" value="start-trial" />
            <input type="hidden" name="plan" value={plan.id} />
            <Button
              ref={startRef}
              type="submit"
              className="w-full"
              disabled={starting}
              aria-busy={starting || undefined}
              aria-describedby={error ? ERROR_ID : undefined}
            >
              Start {TRIAL_LENGTH_DAYS}-Day Free Trial
            </Button>
          </Form>
        )}
      </div>
    </li>
  );
}
