import { ArrowLeft, ArrowRight, CalendarClock, Check, Layers } from "lucide-react";
import { type FormEvent, useState } from "react";
import { Link, redirect, useNavigate } from "react-router";
import { DEFAULT_TIMELINE, findGoal, findTimeline, GOALS, type Goal, TIMELINES } from "~/catalogue/goals";
import { ChoiceCard } from "~/components/funnel/ChoiceCard";
import { FunnelSteps } from "~/components/funnel/FunnelSteps";
import { goalsHref, industryLabel, packagesHref, parseGoalsQuery } from "~/catalogue/funnel-params";
import { Badge } from "~/components/ui/badge";
import { Button, buttonVariants } from "~/components/ui/button";
import { NativeSelect } from "~/components/ui/input";
import { seo } from "~/lib/seo";
import type { Route } from "./+types/goals";
import { pageCacheHandle } from "~/lib/page-cache";

// Same HTML for every anonymous visitor of a URL: served from the page cache (docs/decisions/0015).
export const handle = pageCacheHandle;

export const meta: Route.MetaFunction = ({ matches }) =>
  seo(matches, {
    title: "Choose Your Project Goal",
    description:
      "Build a new AI app, add AI to the app you already run (20% off), or redesign with AI. Pick a goal and a delivery timeline from 24-48 hour rush to 8 weeks.",
    path: "/goals",
  });

/**
 * The goal form is a GET form to this page. Without JavaScript, "Select This Goal" submits
 * `select` along with the ids: when goal and timeline both exist the server redirects to
 * /packages, otherwise the page simply renders again (spec section 5: nothing happens).
 */
export function loader({ url }: Route.LoaderArgs) {
  const q = parseGoalsQuery(url.searchParams);
  if (q.select && q.goal && q.timeline) {
    throw redirect(packagesHref({ industry: q.industry, goal: q.goal.id, timeline: q.timeline.id }));
  }
  return { industry: q.industry, goalId: q.goal?.id ?? null, timelineId: q.timeline?.id ?? DEFAULT_TIMELINE };
}

function multiplierText(goal: Goal): string | null {
  if (goal.multiplier < 1) return `${Math.round((1 - goal.multiplier) * 100)}% off`;
  if (goal.multiplier > 1) return `+${Math.round((goal.multiplier - 1) * 100)}%`;
  return null;
}

function read(form: HTMLFormElement) {
  const data = new FormData(form);
  return { goal: findGoal(String(data.get("goal") ?? "")), timeline: findTimeline(String(data.get("timeline") ?? "")) };
}

export default function Goals({ loaderData }: Route.ComponentProps) {
  const { industry, goalId } = loaderData;
  const navigate = useNavigate();
  const [timelineId, setTimelineId] = useState(loaderData.timelineId);
  const timeline = findTimeline(timelineId);

  // Keep the choice in the address bar (replace: no history entry per click) so a reload or a
  // shared link shows the same selection.
  const remember = (form: HTMLFormElement | null) => {
    if (!form) return;
    const { goal, timeline } = read(form);
    navigate(goalsHref({ industry, goal: goal?.id, timeline: timeline?.id }), { replace: true, preventScrollReset: true });
  };

  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const { goal, timeline } = read(e.currentTarget);
    if (!goal || !timeline) {
      console.error("Goal or timeline not found");
      return;
    }
    navigate(packagesHref({ industry, goal: goal.id, timeline: timeline.id }));
  };

  return (
    <div className="mx-auto max-w-7xl px-4 py-10 sm:px-6 sm:py-14">
      <FunnelSteps current={2} />
      <div className="mt-6 max-w-3xl">
        <h1 className="text-3xl font-bold tracking-tight sm:text-4xl">Choose Your Project Goal</h1>
        <p className="mt-3 text-lg text-muted-foreground">
          Tell us what you want to build and how fast you need it. Your package prices adjust to your goal and timeline.
        </p>
        <p className="mt-4 flex flex-wrap items-center gap-2 text-sm">
          <span className="text-muted-foreground">Industry:</span>
          <span className="font-semibold">{industryLabel(industry)}</span>
          <Link to="/industries" className="font-medium text-primary underline underline-offset-4">
            Change<span className="sr-only"> industry</span>
          </Link>
        </p>
      </div>

      <form method="get" action="/goals" onSubmit={submit} className="mt-8">
        <input type="hidden" name="industry" value={industry} />
        <fieldset>
          <legend className="mb-4 text-sm font-semibold uppercase tracking-wider text-muted-foreground">Your goal</legend>
          <div className="grid gap-5 md:grid-cols-3">
            {GOALS.map((goal) => {
              const adjustment = multiplierText(goal);
              return (
                <ChoiceCard
                  key={goal.id}
                  id={`goal-${goal.id}`}
                  name="goal"
                  value={goal.id}
                  title={goal.title}
                  titleAs="h2"
                  defaultChecked={goal.id === goalId}
                  describedBy={`goal-${goal.id}-description`}
                  onChange={(e) => remember(e.currentTarget.form)}
                >
                  <div className="mt-3 flex flex-wrap gap-2">
                    <Badge variant="secondary">
                      <Layers className="size-3" aria-hidden />
                      {goal.complexity}
                    </Badge>
                    <Badge variant="outline">
                      <CalendarClock className="size-3" aria-hidden />
                      {goal.timeline}
                    </Badge>
                    {adjustment && <Badge variant={goal.multiplier < 1 ? "success" : "warning"}>{adjustment}</Badge>}
                  </div>
                  <p id={`goal-${goal.id}-description`} className="mt-3 text-sm text-muted-foreground">
                    {goal.description}
                  </p>
                  <ul className="mt-4 space-y-2 text-sm">
                    {goal.features.map((f) => (
                      <li key={f} className="flex gap-2">
                        <Check className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden />
                        {f}
                      </li>
                    ))}
                  </ul>
                </ChoiceCard>
              );
            })}
          </div>
        </fieldset>

        <div className="mt-8 grid gap-6 rounded-xl border bg-muted/60 p-5 md:grid-cols-[1fr_auto] md:items-end">
          <div className="max-w-md">
            <label htmlFor="timeline" className="text-sm font-semibold">
              Delivery timeline
            </label>
            <NativeSelect
              id="timeline"
              name="timeline"
              defaultValue={loaderData.timelineId}
              aria-describedby="timeline-description"
              className="mt-2"
              onChange={(e) => {
                setTimelineId(e.currentTarget.value as typeof timelineId);
                remember(e.currentTarget.form);
              }}
            >
              {TIMELINES.map((t) => (
                <option key={t.id} value={t.id}>
                  {t.label}
                </option>
              ))}
            </NativeSelect>
            <p id="timeline-description" className="mt-2 text-sm text-muted-foreground">
              {timeline?.description}
            </p>
          </div>
          <div className="flex flex-col-reverse gap-3 sm:flex-row">
            <Link to="/industries" className={buttonVariants({ variant: "outline", size: "lg" })}>
              <ArrowLeft aria-hidden />
              Back to Industries
            </Link>
            <Button type="submit" name="select" value="1" size="lg">
              Select This Goal
              <ArrowRight aria-hidden />
            </Button>
          </div>
        </div>
      </form>
    </div>
  );
}
