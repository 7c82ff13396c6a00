import { ArrowRight, ClipboardList, RotateCcw, Sparkles } from "lucide-react";
import { type FormEvent, useEffect, useRef } from "react";
import { Link, useLocation, useNavigate } from "react-router";
import {
  ASSISTANT_COUNTS,
  AUTOMATIONS,
  BUDGETS,
  BUSINESS_SIZES,
  CHANNELS,
  countAnswered,
  findManagementPlan,
  findOnboardingPackage,
  LAUNCH_TIMELINES,
  parseAnswers,
  recommend,
  recommendationHref,
} from "~/catalogue/questionnaire";
import { Button, buttonVariants } from "~/components/ui/button";
import { seo } from "~/lib/seo";
import { cn } from "~/lib/utils";
import type { Route } from "./+types/questionnaire";
import { pageCacheHandle } from "~/lib/page-cache";

// Same HTML for every anonymous visitor of a URL: served from the page cache (docs/decisions/0015).
export const handle = pageCacheHandle;

export const meta: Route.MetaFunction = ({ matches }) =>
  seo(matches, {
    title: "Find Your AI Package: 6-Question Questionnaire",
    description:
      "Answer six quick questions about your team, what to automate, channels, assistants, budget and timeline, and get the onboarding package and management plan that fit.",
    path: "/questionnaire",
  });

/** The form is a GET form: the server reads the answers (validated, unknown values ignored) and renders the result. */
export function loader({ url }: Route.LoaderArgs) {
  const answers = parseAnswers(url.searchParams);
  const answered = countAnswered(answers);
  if (answered === 0) return { answers, answered, result: null };
  const r = recommend(answers);
  const pkg = findOnboardingPackage(r.packageId);
  const plan = findManagementPlan(r.planName);
  return {
    answers,
    answered,
    result:
      pkg && plan
        ? {
            packageName: pkg.name,
            packagePrice: pkg.priceText,
            packageDescription: pkg.description,
            packageFeatures: pkg.features,
            planName: plan.name,
            planPrice: plan.monthlyPriceText,
            planFeatures: plan.features,
            reasons: r.reasons,
            href: recommendationHref(r),
          }
        : null,
  };
}

interface Option {
  id: string;
  label: string;
}

function Question({
  number,
  legend,
  hint,
  type,
  name,
  options,
  checked,
  compact = false,
}: {
  /** Short labels: two columns even on phones. */
  compact?: boolean;
  number: number;
  legend: string;
  hint?: string;
  type: "radio" | "checkbox";
  name: string;
  options: readonly Option[];
  checked: (id: string) => boolean;
}) {
  const hintId = `${name}-hint`;
  return (
    <fieldset className="rounded-xl border bg-card p-5 shadow-sm" aria-describedby={hint ? hintId : undefined}>
      <legend className="float-left w-full text-lg font-semibold">
        <span className="mr-2 text-primary" aria-hidden>
          {number}.
        </span>
        {legend}
      </legend>
      {hint && (
        <p id={hintId} className="clear-left pt-1 text-sm text-muted-foreground">
          {hint}
        </p>
      )}
      <div className={cn("clear-left grid gap-2 pt-4", compact ? "grid-cols-2" : "sm:grid-cols-2")}>
        {options.map((o) => (
          <label
            key={o.id}
            className="flex cursor-pointer items-center gap-3 rounded-lg border-2 border-border px-3 py-2.5 text-sm font-medium transition-colors hover:border-primary/60 has-[:checked]:border-primary has-[:checked]:bg-secondary/60 has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-ring has-[:focus-visible]:ring-offset-2"
          >
            <input
              type={type}
              name={name}
              value={o.id}
              defaultChecked={checked(o.id)}
              className="size-4 shrink-0 accent-primary focus-visible:outline-none"
            />
            {o.label}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

export default function Questionnaire({ loaderData }: Route.ComponentProps) {
  const { answers, answered, result } = loaderData;
  const navigate = useNavigate();
  const location = useLocation();
  const headingRef = useRef<HTMLHeadingElement>(null);

  // After a submit, move focus to the answer so keyboard and screen-reader users land on it.
  useEffect(() => {
    if (location.hash === "#recommendation" && result) headingRef.current?.focus();
  }, [location.hash, result]);

  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const params = new URLSearchParams();
    for (const [k, v] of new FormData(e.currentTarget)) if (typeof v === "string") params.append(k, v);
    void navigate(`/questionnaire?${params.toString()}#recommendation`);
  };

  return (
    <div className="mx-auto max-w-7xl px-4 py-10 sm:px-6 sm:py-14">
      <header className="max-w-3xl">
        <p className="inline-flex items-center gap-1.5 rounded-full bg-secondary px-3 py-1 text-sm font-semibold text-secondary-foreground">
          <ClipboardList className="size-4" aria-hidden />
          Takes under a minute
        </p>
        <h1 className="mt-4 text-3xl font-bold tracking-tight sm:text-4xl">Find Your Perfect AI Package</h1>
        <p className="mt-3 text-lg text-muted-foreground">
          Six quick questions about your business. We recommend one of our four setup packages and the management plan that keeps
          it running. Skip anything you are unsure about.
        </p>
      </header>

      <div className="mt-10 grid gap-8 lg:grid-cols-[minmax(0,1fr)_22rem] lg:items-start">
        {/* `key` resets the unchecked-by-default inputs when the answers in the URL change (e.g. Start over). */}
        <form
          key={location.search}
          method="get"
          action="/questionnaire#recommendation"
          onSubmit={submit}
          className="space-y-5"
          aria-label="Package questionnaire"
        >
          <Question
            number={1}
            legend="How big is your team?"
            type="radio"
            name="size"
            compact
            options={BUSINESS_SIZES}
            checked={(id) => answers.size === id}
          />
          <Question
            number={2}
            legend="What do you want to automate?"
            hint="Choose all that apply."
            type="checkbox"
            name="automate"
            options={AUTOMATIONS}
            checked={(id) => (answers.automate as string[]).includes(id)}
          />
          <Question
            number={3}
            legend="Where do your customers reach you?"
            hint="Choose all that apply."
            type="checkbox"
            name="channels"
            compact
            options={CHANNELS}
            checked={(id) => (answers.channels as string[]).includes(id)}
          />
          <Question
            number={4}
            legend="How many AI assistants or bots do you need?"
            type="radio"
            name="assistants"
            compact
            options={ASSISTANT_COUNTS}
            checked={(id) => answers.assistants === id}
          />
          <Question
            number={5}
            legend="What is your budget for the setup?"
            hint="A one-time amount; management is billed monthly."
            type="radio"
            name="budget"
            options={BUDGETS}
            checked={(id) => answers.budget === id}
          />
          <Question
            number={6}
            legend="When do you want to launch?"
            type="radio"
            name="timeline"
            options={LAUNCH_TIMELINES}
            checked={(id) => answers.timeline === id}
          />
          <div className="flex flex-wrap gap-3">
            <Button type="submit" size="lg">
              <Sparkles aria-hidden />
              Get my recommendation
            </Button>
            {answered > 0 && (
              <Link to="/questionnaire" className={buttonVariants({ variant: "ghost", size: "lg" })}>
                <RotateCcw aria-hidden />
                Start over
              </Link>
            )}
          </div>
        </form>

        <aside id="recommendation" aria-labelledby="recommendation-heading" className="scroll-mt-28 lg:sticky lg:top-28">
          <div className={cn("rounded-2xl border p-6 shadow-sm", result ? "border-2 border-primary bg-card" : "bg-muted/60")}>
            <h2 id="recommendation-heading" ref={headingRef} tabIndex={-1} className="text-xl font-bold focus:outline-none">
              {result ? "We recommend" : "Your recommendation"}
            </h2>
            {result ? (
              <>
                <div className="mt-4 rounded-xl bg-secondary/60 p-4">
                  <p className="text-xs font-semibold uppercase tracking-wider text-secondary-foreground">Setup package</p>
                  <p className="mt-1 flex items-baseline justify-between gap-2">
                    <strong className="text-lg" data-testid="recommended-package">
                      {result.packageName}
                    </strong>
                    <span className="font-bold">{result.packagePrice}</span>
                  </p>
                  <p className="mt-1 text-sm text-muted-foreground">{result.packageDescription}</p>
                </div>
                <div className="mt-3 rounded-xl bg-secondary/60 p-4">
                  <p className="text-xs font-semibold uppercase tracking-wider text-secondary-foreground">Management plan</p>
                  <p className="mt-1 flex items-baseline justify-between gap-2">
                    <strong className="text-lg" data-testid="recommended-plan">
                      {result.planName}
                    </strong>
                    <span className="font-bold">{result.planPrice}</span>
                  </p>
                  <p className="mt-1 text-sm text-muted-foreground">{result.planFeatures.join(" · ")}</p>
                </div>
                {result.reasons.length > 0 && (
                  <>
                    <h3 className="mt-5 text-sm font-semibold">Why</h3>
                    <ul className="mt-2 list-disc space-y-1 pl-5 text-sm text-muted-foreground">
                      {result.reasons.map((r) => (
                        <li key={r}>{r}</li>
                      ))}
                    </ul>
                  </>
                )}
                <Link to={result.href} className={cn(buttonVariants({ size: "lg" }), "mt-6 w-full")}>
                  See my packages
                  <ArrowRight aria-hidden />
                </Link>
              </>
            ) : (
              <p className="mt-3 text-sm text-muted-foreground">
                Answer a few questions and press “Get my recommendation”. Your package and plan appear here, and you can compare
                all of them on the next page.
              </p>
            )}
          </div>
        </aside>
      </div>
    </div>
  );
}
