import { LoaderCircle, Menu, PanelLeft } from "lucide-react";
import { useCallback, useEffect, useMemo, useState } from "react";
import { data, Outlet, redirect, useActionData, useNavigation } from "react-router";
import { z } from "zod";
import type { SignInReason } from "~/lib/auth-messages";
import { DashboardToasts, type ErrorNotice } from "~/components/dashboard/DashboardToasts";
import { MOBILE_BREAKPOINT_PX, readSidebarOpen, SIDEBAR_SHORTCUT_KEY, sidebarCookie } from "~/components/dashboard/nav";
import { DesktopSidebar, MobileSidebar } from "~/components/dashboard/Sidebar";
import { TrialOverlay } from "~/components/dashboard/TrialOverlay";
import { useDashboardVisit } from "~/components/dashboard/visit";
import { cn } from "~/lib/utils";
import { knownTimeZone } from "~/lib/time-zone";
import { TimeZoneContext } from "~/lib/time-zone-context";
import { isTrialPlanId, previewSecondsLeftAt } from "~/catalogue/trial";
import { auth } from "~/server/auth/auth.server";
import { getSettings } from "~/server/profile/settings.server";
import { requireUser } from "~/server/auth/session.server";
import { db } from "~/server/db/client.server";
import { currentPlanPricesOfRequest } from "~/server/catalogue/current-plan-prices.server";
import { errorMessage, log } from "~/server/log.server";
import { startTrial } from "~/server/trial/trial.server";
import { trialStatusOfRequest } from "~/server/trial/request-trial-status.server";
import type { Route } from "./+types/layout";

export const meta: Route.MetaFunction = () => [{ title: "AI Dashboard" }, { name: "robots", content: "noindex" }];

/** An account's pages are kept by no browser or proxy cache (the server's own copy checks the session). */
export const headers: Route.HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

/**
 * The gate (spec section 4) and the sidebar's state. Reads only: it also runs for prefetches and
 * revalidations, so the visit each opened page counts is reported by the page (useDashboardVisit,
 * ADR 0027).
 */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const [status, settings] = await Promise.all([trialStatusOfRequest(request, user.id), getSettings(db(), user.id)]);
  const plan = new URL(request.url).searchParams.get("plan");
  // The chooser's prices, read only when it may be shown (most views have access and no overlay).
  const trialPlans = status.overlay === "none" ? [] : (await currentPlanPricesOfRequest(request)).trialPlans;
  return {
    email: user.email,
    // The toggle's cookie wins; without one, the default saved on the settings page applies.
    sidebarOpen: readSidebarOpen(request.headers.get("Cookie"), !settings.sidebarCollapsed),
    overlay: status.overlay,
    previewSeconds: previewSecondsLeftAt(status.trial.previewStartedAt, new Date()),
    // Before the first visit is recorded the preview has not begun: the page waits for the visit's
    // answer to count (the server's clock), so it never runs ahead of what a reload shows.
    previewStarted: status.trial.previewStartedAt !== null,
    // Every time on the dashboard is shown in it, by the server and the browser alike.
    timeZone: knownTimeZone(settings.timeZone, request.headers.get("Cookie")),
    preselectedPlan: isTrialPlanId(plan) ? plan : null,
    trialPlans,
  };
}

const ActionInput = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("sign-out") }).strict(),
  z.object({ intent: z.literal("start-trial"), plan: z.string().max(40) }).strict(),
]);

export type LayoutActionData = { error: { title: string; description: string; at: number } };

/** A trial start whose session has ended is told why it must sign in (spec section 5); a sign-out is not. */
async function signInReasonOf(request: Request): Promise<SignInReason | null> {
  const form = await request.formData();
  return form.get("intent") === "start-trial" ? "dashboard-trial" : null;
}

export async function action({ request }: Route.ActionArgs) {
  const user = await requireUser(request, signInReasonOf);
  const parsed = ActionInput.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success) {
    return data<LayoutActionData>(
      { error: { title: "Invalid request", description: "Please reload the page and try again.", at: Date.now() } },
      { status: 400 },
    );
  }
  if (parsed.data.intent === "sign-out") {
    const headers = new Headers();
    try {
      const res = await auth().api.signOut({ headers: request.headers, asResponse: true });
      for (const cookie of res.headers.getSetCookie()) headers.append("Set-Cookie", cookie);
    } catch (error) {
      log.warn("sign-out failed", { userId: user.id, error: errorMessage(error) });
    }
    return redirect("/auth", { headers });
  }

  try {
    const result = await startTrial(db(), user.id, parsed.data.plan);
    if (result.ok) return redirect("/dashboard?toast=trial-started");
    return data<LayoutActionData>(
      {
        error: {
          title: "Error Starting Trial",
          description: result.reason === "unknown-plan" ? "Something went wrong. Please try again." : result.message,
          at: Date.now(),
        },
      },
      { status: result.reason === "already-used" ? 409 : 400 },
    );
  } catch (error) {
    log.error("trial start failed", { userId: user.id, error: errorMessage(error) });
    return data<LayoutActionData>(
      { error: { title: "Error Starting Trial", description: "Something went wrong. Please try again.", at: Date.now() } },
      { status: 500 },
    );
  }
}

export default function DashboardLayout({ loaderData }: Route.ComponentProps) {
  const { email, overlay, preselectedPlan } = loaderData;
  // The server's latest reading of the free preview (the loader's, then each visit's answer): a new
  // object each time, so the countdown re-syncs even when the figure is the same.
  const [preview, setPreview] = useState(() => ({ seconds: loaderData.previewSeconds, counting: loaderData.previewStarted }));
  useDashboardVisit(useCallback((seconds: number) => setPreview({ seconds, counting: true }), []));
  const [open, setOpen] = useState(loaderData.sidebarOpen);
  // A default saved on the settings page reaches an open page through the revalidated loader, also
  // when the value is the same as at load (the toggle changed it since): the toggle's cookie is read
  // by every run, so a revalidation never undoes a toggle. (React's "adjust state on a prop change".)
  const [loaded, setLoaded] = useState(loaderData);
  if (loaded !== loaderData) {
    setLoaded(loaderData);
    setOpen(loaderData.sidebarOpen);
    // A loader that ran before the first visit was recorded (the toast's address clean-up, say) must
    // not stop a count the visit's answer began: no further answer would start it again.
    setPreview((p) => ({ seconds: loaderData.previewSeconds, counting: loaderData.previewStarted || p.counting }));
  }
  const [mobileOpen, setMobileOpen] = useState(false);
  // The chooser is a modal dialog: the toaster outside it is aria-hidden then, so errors show inside it.
  const [chooserOpen, setChooserOpen] = useState(overlay === "expired");
  const navigation = useNavigation();
  const actionData = useActionData<typeof action>();
  const notice = useMemo<ErrorNotice | null>(
    () => (actionData?.error ? { id: String(actionData.error.at), ...actionData.error } : null),
    [actionData],
  );

  const toggle = useCallback(() => {
    if (window.matchMedia(`(max-width: ${MOBILE_BREAKPOINT_PX - 1}px)`).matches) {
      setMobileOpen((o) => !o);
      return;
    }
    const next = !open;
    setOpen(next);
    // Read by the loader on the next request, so the server renders the sidebar as it was left.
    document.cookie = sidebarCookie(next);
  }, [open]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key.toLowerCase() === SIDEBAR_SHORTCUT_KEY && (event.metaKey || event.ctrlKey) && !event.altKey) {
        event.preventDefault();
        toggle();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [toggle]);

  const loading = navigation.state === "loading" && navigation.location.pathname.startsWith("/dashboard");

  return (
    <div className="flex min-h-screen bg-muted/40">
      <a
        href="#dashboard-main"
        className="sr-only z-50 rounded-md bg-background px-4 py-2 font-semibold focus:not-sr-only focus:fixed focus:left-4 focus:top-4"
      >
        Skip to main content
      </a>
      <DesktopSidebar email={email} open={open} />
      <MobileSidebar email={email} open={mobileOpen} onOpenChange={setMobileOpen} />
      <div className="flex min-w-0 flex-1 flex-col">
        <header className="sticky top-0 z-30 flex h-14 items-center gap-3 border-b bg-background px-4">
          <button
            type="button"
            onClick={() => setMobileOpen(true)}
            aria-label="Open menu"
            aria-haspopup="dialog"
            aria-expanded={mobileOpen}
            className="inline-flex size-9 items-center justify-center rounded-md hover:bg-muted focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring md:hidden"
          >
            <Menu className="size-5" aria-hidden />
          </button>
          <button
            type="button"
            onClick={toggle}
            aria-label={open ? "Collapse sidebar" : "Expand sidebar"}
            aria-controls="dashboard-sidebar"
            aria-expanded={open}
            title="Toggle sidebar (Ctrl/Cmd+B)"
            className="hidden size-9 items-center justify-center rounded-md hover:bg-muted focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring md:inline-flex"
          >
            <PanelLeft className="size-5" aria-hidden />
          </button>
          <p className="text-lg font-semibold">AI Dashboard</p>
          {loading && (
            <output className="ml-auto flex items-center gap-2 text-sm text-muted-foreground">
              <LoaderCircle className="size-4 animate-spin" aria-hidden />
              Loading dashboard...
            </output>
          )}
        </header>
        {/* While the free preview's box floats over the bottom of the page, the page can scroll its end above it. */}
        <main
          id="dashboard-main"
          tabIndex={-1}
          className={cn("flex-1 p-4 focus:outline-none sm:p-6 lg:p-8", overlay === "preview" && "pb-40 sm:pb-40 lg:pb-40")}
        >
          <TimeZoneContext value={loaderData.timeZone}>
            <Outlet />
          </TimeZoneContext>
        </main>
      </div>
      {overlay !== "none" && (
        <TrialOverlay
          mode={overlay}
          preview={preview}
          preselected={preselectedPlan}
          plans={loaderData.trialPlans}
          error={notice}
          onChooserOpenChange={setChooserOpen}
        />
      )}
      <DashboardToasts error={chooserOpen ? null : notice} />
    </div>
  );
}
