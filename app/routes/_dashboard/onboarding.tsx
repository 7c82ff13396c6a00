import { CalendarClock, CheckCircle2, Circle, PartyPopper } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { data, useFetcher } from "react-router";
import { toast } from "sonner";
import { z } from "zod";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader } from "~/components/ui/card";
import { Progress } from "~/components/ui/progress";
import { formatCallCountdown, nextStep, onboardingProgress, SIGNUP_STEP_ID, type OnboardingStep } from "~/catalogue/onboarding";
import { cn } from "~/lib/utils";
import { requireUser } from "~/server/auth/session.server";
import { db } from "~/server/db/client.server";
import { errorDetail, log } from "~/server/log.server";
import { completeStep, getOnboarding, reopenStep, scheduleOnboardingCall } from "~/server/onboarding/onboarding.server";
import { serviceAccessRefusal } from "~/server/trial/trial.server";
import { getSettings } from "~/server/profile/settings.server";
import { FALLBACK_TIME_ZONE, formatInZone, knownTimeZone } from "~/lib/time-zone";
import { useShownTimeZone } from "~/lib/time-zone-context";
import type { Route } from "./+types/onboarding";

export const meta: Route.MetaFunction = () => [
  { title: "Onboarding Tracker | AI Dashboard" },
  { name: "robots", content: "noindex" },
];

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const state = await getOnboarding(db(), user.id);
  return { steps: state.steps, callAt: state.callScheduledAt?.getTime() ?? null, now: Date.now() };
}

const ActionInput = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("complete"), step: z.string().max(60) }).strict(),
  z.object({ intent: z.literal("reopen"), step: z.string().max(60) }).strict(),
  z.object({ intent: z.literal("schedule-call") }).strict(),
]);

type ActionResult = { ok: true; toast: string } | { ok: false; error: string };

/** The spec's words for a failure (section 8: trial start; scheduling has its own). */
const SOMETHING_WENT_WRONG = "Something went wrong. Please try again.";
const SCHEDULE_FAILED = "Failed to schedule call";
const STEP_REOPENED = "Step marked as not done";

export async function action({ request }: Route.ActionArgs) {
  const user = await requireUser(request);
  const parsed = ActionInput.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success) return data<ActionResult>({ ok: false, error: "Invalid request" }, { status: 400 });
  const input = parsed.data;
  try {
    // The trial gate (spec section 4): without an active trial or subscription, nothing is booked or completed.
    const refusal = await serviceAccessRefusal(db(), user.id);
    if (refusal) return data<ActionResult>({ ok: false, error: refusal }, { status: 403 });
    if (input.intent === "complete") {
      const result = await completeStep(db(), user.id, input.step);
      if (!result.ok) return data<ActionResult>({ ok: false, error: result.message }, { status: 400 });
      return data<ActionResult>({ ok: true, toast: "Step Completed" });
    }
    if (input.intent === "reopen") {
      const result = await reopenStep(db(), user.id, input.step);
      if (!result.ok) return data<ActionResult>({ ok: false, error: result.message }, { status: 400 });
      return data<ActionResult>({ ok: true, toast: STEP_REOPENED });
    }
    const { timeZone } = await getSettings(db(), user.id);
    await scheduleOnboardingCall(
      db(),
      user.id,
      new Date(),
      knownTimeZone(timeZone, request.headers.get("Cookie")) ?? FALLBACK_TIME_ZONE,
    );
    return data<ActionResult>({ ok: true, toast: "Your onboarding call has been scheduled!" });
  } catch (error) {
    const what = {
      complete: "complete onboarding step",
      reopen: "reopen onboarding step",
      "schedule-call": "schedule onboarding call",
    };
    log.error(`${what[input.intent]} failed`, { userId: user.id, error: errorDetail(error) });
    const message = input.intent === "schedule-call" ? SCHEDULE_FAILED : SOMETHING_WENT_WRONG;
    return data<ActionResult>({ ok: false, error: message }, { status: 500 });
  }
}

/**
 * Toasts a successful result once per response. A refusal or failure is shown next to its button
 * instead (role="alert"), where it stays readable and is announced once.
 */
function useSuccessToast(result: ActionResult | undefined) {
  useEffect(() => {
    if (result?.ok) toast.success(result.toast);
  }, [result]);
}

/** The error of a fetcher's last answer, once it has settled. */
function settledError(fetcher: { state: string; data?: ActionResult }) {
  return fetcher.state === "idle" && fetcher.data && !fetcher.data.ok ? fetcher.data.error : null;
}

/** 'now', starting from the server's clock so hydration matches, then ticking every second. */
function useSecondClock(serverNow: number) {
  const [now, setNow] = useState(serverNow);
  useEffect(() => {
    const id = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(id);
  }, []);
  return now;
}

export default function OnboardingPage({ loaderData }: Route.ComponentProps) {
  const { steps, callAt } = loaderData;
  const progress = onboardingProgress(steps);
  const next = nextStep(steps);
  const done = steps.filter((s) => s.completed).length;

  return (
    <div className="mx-auto flex max-w-5xl flex-col gap-6">
      <div>
        <h1 className="text-2xl font-bold sm:text-3xl">Onboarding Tracker</h1>
        <p className="mt-1 text-muted-foreground">Follow these steps to launch your AI automation.</p>
      </div>

      <Card>
        <CardHeader>
          <h2 className="text-xl font-semibold">Your progress</h2>
          <CardDescription>
            {done} of {steps.length} steps completed
          </CardDescription>
        </CardHeader>
        <CardContent className="flex flex-col gap-2">
          <p className="text-3xl font-extrabold" data-testid="onboarding-progress">
            {progress}%
          </p>
          <Progress value={progress} aria-label="Onboarding progress" />
        </CardContent>
      </Card>

      {progress === 100 && (
        <Card className="border-emerald-200 bg-emerald-50">
          <CardContent className="flex items-center gap-4 p-6">
            <PartyPopper className="size-10 shrink-0 text-emerald-700" aria-hidden />
            <div>
              <h2 className="text-xl font-semibold">Congratulations! Onboarding complete</h2>
              <p className="text-emerald-900">You have completed every step. Your AI app is ready to grow your business.</p>
            </div>
          </CardContent>
        </Card>
      )}

      <div className="grid gap-6 md:grid-cols-2">
        <CallCard callAt={callAt} serverNow={loaderData.now} />
        <Card>
          <CardHeader>
            <h2 className="text-xl font-semibold">Next step</h2>
          </CardHeader>
          <CardContent>
            {next ? (
              <div className="flex flex-col gap-3">
                <p className="font-semibold">
                  Step {next.order}: {next.title}
                </p>
                <p className="text-sm text-muted-foreground">{next.description}</p>
              </div>
            ) : (
              <p className="text-muted-foreground">All steps are done.</p>
            )}
          </CardContent>
        </Card>
      </div>

      <section aria-labelledby="steps-heading">
        <h2 id="steps-heading" className="text-xl font-semibold">
          All steps
        </h2>
        <ol className="mt-3 flex flex-col gap-3">
          {steps.map((step) => (
            <StepRow key={step.id} step={step} />
          ))}
        </ol>
      </section>
    </div>
  );
}

function CallCard({ callAt, serverNow }: { callAt: number | null; serverNow: number }) {
  const fetcher = useFetcher<ActionResult>();
  useSuccessToast(fetcher.data);
  const now = useSecondClock(serverNow);
  const busy = fetcher.state !== "idle";
  const error = settledError(fetcher);
  const timeZone = useShownTimeZone();
  return (
    <Card>
      <CardHeader>
        <h2 className="flex items-center gap-2 text-xl font-semibold">
          <CalendarClock className="size-5 text-primary" aria-hidden />
          Onboarding call
        </h2>
        <CardDescription>
          {`A kickoff call with your success manager, two days ahead at 2:00 PM your time (${timeZone.replaceAll("_", " ")}).`}
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-3">
        {callAt === null ? (
          <p className="text-sm text-muted-foreground">No call scheduled yet.</p>
        ) : (
          <>
            <p className="text-sm">
              Scheduled for{" "}
              <time dateTime={new Date(callAt).toISOString()} data-testid="call-time">
                {formatInZone(new Date(callAt), timeZone, "long")}
              </time>
            </p>
            <p className="text-2xl font-bold" data-testid="call-countdown">
              {callAt > now
                ? `Starts in ${formatCallCountdown(new Date(callAt), new Date(now))}`
                : formatCallCountdown(new Date(callAt), new Date(now))}
            </p>
          </>
        )}
        {/* aria-disabled, not disabled, while sending: a disabled button drops keyboard focus to <body>. */}
        <fetcher.Form
          method="post"
          onSubmit={(event) => {
            if (busy) event.preventDefault();
          }}
        >
          <input type="hidden" name="intent" value="schedule-call" />
          <Button
            type="submit"
            aria-disabled={busy || undefined}
            aria-describedby={error ? "call-error" : undefined}
            className="aria-disabled:cursor-not-allowed aria-disabled:opacity-50"
            variant={callAt === null ? "default" : "outline"}
          >
            {callAt === null ? "Schedule call" : "Reschedule call"}
          </Button>
        </fetcher.Form>
        {error ? (
          <p id="call-error" role="alert" className="text-sm font-medium text-destructive">
            {error}
          </p>
        ) : null}
      </CardContent>
    </Card>
  );
}

function StepRow({ step }: { step: OnboardingStep }) {
  const fetcher = useFetcher<ActionResult>();
  useSuccessToast(fetcher.data);
  const pending = fetcher.state !== "idle";
  // Shown as it will be while the answer is on its way: ticked or unticked at once.
  const pendingIntent = pending ? fetcher.formData?.get("intent") : null;
  const completed = pendingIntent === "complete" ? true : pendingIntent === "reopen" ? false : step.completed;
  // Step 1 is the account itself: it has no button to undo it.
  const fixed = step.id === SIGNUP_STEP_ID;
  const error = settledError(fetcher);
  const row = useRef<HTMLLIElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  /** Where focus was sent when the button gave way to 'Completed' (null: the button did not have focus). */
  const movedTo = useRef<HTMLElement | null>(null);
  const hadFocus = useRef(false);

  // 'Mark complete' is replaced by 'Completed' as soon as it is pressed: keyboard focus goes on to
  // the next open step's button, or this row's heading when none is left. 'Mark not done' gives
  // way to this row's own 'Mark complete', which is the same button element and keeps focus.
  useEffect(() => {
    if (pendingIntent !== "complete" || !hadFocus.current) return;
    hadFocus.current = false;
    let target: HTMLElement | null = null;
    for (let next = row.current?.nextElementSibling; next && !target; next = next.nextElementSibling) {
      target = next.querySelector<HTMLElement>("button[data-complete]");
    }
    target ??= heading.current;
    target?.focus();
    movedTo.current = target;
  }, [pendingIntent]);

  // Refused or failed: the button is back, with the error as its description; focus returns to it
  // unless the user has moved on.
  useEffect(() => {
    if (!error || !movedTo.current) return;
    const active = document.activeElement;
    if (active === movedTo.current || active === document.body || active === null) button.current?.focus();
    movedTo.current = null;
  }, [error]);

  const errorId = `step-${step.id}-error`;
  const intent = completed ? "reopen" : "complete";
  return (
    <li
      ref={row}
      className={cn(
        "flex flex-wrap items-start gap-x-4 gap-y-2 rounded-xl border bg-card p-4",
        completed && "border-emerald-200 bg-emerald-50/60",
      )}
      data-testid={`step-${step.id}`}
    >
      {completed ? (
        <CheckCircle2 className="mt-0.5 size-6 shrink-0 text-emerald-700" aria-hidden />
      ) : (
        <Circle className="mt-0.5 size-6 shrink-0 text-muted-foreground" aria-hidden />
      )}
      <div className="min-w-0 flex-1 basis-48">
        <h3 ref={heading} tabIndex={-1} className="font-semibold focus:outline-none">
          <span className="sr-only">Step </span>
          {step.order}. {step.title}
        </h3>
        <p className="text-sm text-muted-foreground">{step.description}</p>
        {error ? (
          <p id={errorId} role="alert" className="mt-1 text-sm font-medium text-destructive">
            {error}
          </p>
        ) : null}
      </div>
      <div className="ml-10 flex items-center gap-3 sm:ml-0">
        {completed ? <span className="text-sm font-semibold text-emerald-800">Completed</span> : null}
        {fixed && completed ? null : (
          <fetcher.Form
            method="post"
            onSubmit={(event) => {
              if (pending) {
                event.preventDefault();
                return;
              }
              hadFocus.current = !!row.current?.contains(document.activeElement);
            }}
          >
            <input type="hidden" name="intent" value={intent} />
            <input type="hidden" name="step" value={step.id} />
            <Button
              ref={button}
              type="submit"
              size="sm"
              variant={completed ? "ghost" : "outline"}
              data-complete={completed ? undefined : ""}
              aria-label={`${completed ? "Mark not done" : "Mark complete"}: ${step.title}`}
              aria-describedby={error ? errorId : undefined}
            >
              {completed ? "Mark not done" : "Mark complete"}
            </Button>
          </fetcher.Form>
        )}
      </div>
    </li>
  );
}
