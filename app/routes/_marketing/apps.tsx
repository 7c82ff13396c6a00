import { CalendarDays, LayoutGrid, List, Search } from "lucide-react";
import { useCallback, useEffect, useRef } from "react";
import { Link, useActionData, useLocation, type ShouldRevalidateFunctionArgs } from "react-router";
import type { CatalogueApp } from "~/catalogue/apps";
import { ALL_INDUSTRIES, INDUSTRIES, type Industry } from "~/catalogue/industries";
import { APP_PRICING_TABS, APP_TAB_INFO, isAppPricingTab } from "~/catalogue/pricing";
import { AppCard } from "~/components/apps/AppCard";
import { AppSearch } from "~/components/apps/AppSearch";
import { LazyToaster } from "~/components/LazyToaster";
import { PAGE_SIZE, parseAppsQuery, sameFilters, type AppsQuery, type AppView } from "~/components/apps/query";
import { useAppsQuery } from "~/components/apps/use-apps-query";
import { trialFailureText, useAppTrial } from "~/components/apps/use-app-trial";
import { ReviewsDialog } from "~/components/apps/ReviewsDialog";
import { TrialSignInBack } from "~/components/apps/trial-sign-in";
import { appTrialFromForm } from "~/server/billing/app-trial-from-form.server";
import { Badge } from "~/components/ui/badge";
import { Button, buttonVariants } from "~/components/ui/button";
import { NativeSelect } from "~/components/ui/input";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "~/components/ui/tabs";
import { seo } from "~/lib/seo";
import { cn } from "~/lib/utils";
import { useRootData } from "~/root";
import { getUser } from "~/server/auth/session.server";
import { getApp, searchApps } from "~/server/catalogue/apps.server";
import { db } from "~/server/db/client.server";
import type { Route } from "./+types/apps";
import { pageCacheHandle } from "~/lib/page-cache";

// Same HTML for every anonymous visitor of a URL: served from the page cache (docs/decisions/0015).
export const handle = pageCacheHandle;

export const meta: Route.MetaFunction = ({ matches }) =>
  seo(matches, {
    title: "Ready Made Apps",
    description:
      "Choose from 181+ pre-built AI applications across 22 industries. Search, compare prices and start a 3-day free trial.",
    path: "/apps",
    image: "apps",
  });

export async function loader({ request }: Route.LoaderArgs) {
  const params = new URL(request.url).searchParams;
  const query = parseAppsQuery(params);
  const database = db();
  // The page, its count and the reviewed app (which may lie beyond the page) are separate queries;
  // only the cards on screen travel to the browser, so the hydration data stays small.
  const [page, user, reviewsApp] = await Promise.all([
    searchApps(database, { q: query.q, industry: query.industry }, query.show),
    getUser(request),
    query.reviews === null ? null : getApp(database, query.reviews).then((app) => app ?? null),
  ]);
  return {
    apps: page.apps,
    total: page.total,
    filters: { q: query.q, industry: query.industry },
    reviewsApp,
    signedIn: user !== null,
    // The checkout's cancel address (spec section 9): the page says nothing was charged. The next
    // filter change drops the parameter, and the notice with it.
    canceled: params.get("canceled") === "true",
  };
}

/** "Start 3-Day Trial" without JavaScript, signed in (TrialForm posts here). */
export async function action({ request, url }: Route.ActionArgs) {
  return appTrialFromForm(request, url);
}

/** Pricing tab, layout and the reviews dialog are display state: only the filters and 'show more' need the server. */
export function shouldRevalidate({ currentUrl, nextUrl, formMethod, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  if ((formMethod && formMethod !== "GET") || currentUrl.pathname !== nextUrl.pathname) return defaultShouldRevalidate;
  const current = parseAppsQuery(currentUrl.searchParams);
  const next = parseAppsQuery(nextUrl.searchParams);
  // Every app a card can open the reviews of is in the current result already.
  return sameFilters(current, next) && current.show === next.show ? false : defaultShouldRevalidate;
}

const SCROLL_DELAY_MS = 100;

const VIEWS: { view: AppView; label: string; Icon: typeof LayoutGrid }[] = [
  { view: "grid", label: "Grid view", Icon: LayoutGrid },
  { view: "list", label: "List view", Icon: List },
];

export default function AppsPage({ loaderData }: Route.ComponentProps) {
  const { env } = useRootData();
  const location = useLocation();
  const { query: state, update, type, href, linkTo, loading } = useAppsQuery();
  const { apps, total, filters, signedIn } = loaderData;
  const tab = state.tab;
  const { processingId, notice, startTrial } = useAppTrial({ signedIn, tab });

  const reviewsApp =
    state.reviews === null
      ? null
      : (apps.find((a) => a.id === state.reviews) ??
        (loaderData.reviewsApp?.id === state.reviews ? loaderData.reviewsApp : null));

  // A click with JavaScript starts over with toasts: the message of the form's failure steps aside.
  const actionData = useActionData<typeof action>();
  const trialError = (appId: number) =>
    actionData && processingId === null && actionData.context?.appId === String(appId) ? trialFailureText(actionData) : null;

  // 'Show more solutions' disappears with the last page of apps, which drops keyboard focus to the
  // page: it goes to the first of the new cards instead (also when the link stays).
  const listRef = useRef<HTMLUListElement>(null);
  const shownBeforeMore = useRef<number | null>(null);
  useEffect(() => {
    const before = shownBeforeMore.current;
    if (before === null || apps.length <= before) return;
    shownBeforeMore.current = null;
    const first = listRef.current?.children[before];
    if (!(first instanceof HTMLElement)) return;
    first.tabIndex = -1;
    first.focus();
  }, [apps.length]);

  const openReviews = useCallback((app: CatalogueApp) => update({ reviews: app.id }), [update]);
  const closeReviews = useCallback(() => update({ reviews: null }), [update]);

  const listingsRef = useRef<HTMLElement>(null);
  const pickIndustry = (industry: Industry) => {
    update({ industry, q: "" });
    // After the new result has rendered (its heading moves the list).
    window.setTimeout(() => {
      const reduce = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
      listingsRef.current?.scrollIntoView({ behavior: reduce ? "auto" : "smooth", block: "start" });
    }, SCROLL_DELAY_MS);
  };

  // Heading and count describe the result on screen, so they follow the loaded filters.
  const heading = filters.industry === ALL_INDUSTRIES ? "All AI Solutions" : `${filters.industry} Solutions`;
  const count = total === 1 ? "1 solution available" : `${total} solutions available`;

  return (
    // Signed out, a trial button's no-JavaScript form comes back to these very results after Sign In.
    <TrialSignInBack.Provider value={location.pathname + location.search}>
      <section className="bg-ink text-white">
        <div className="mx-auto flex max-w-7xl flex-col items-center px-4 py-12 text-center sm:px-6 sm:py-16">
          <Badge className="border-emerald-400/40 bg-emerald-400/10 text-emerald-200">
            <span className="size-2 rounded-full bg-emerald-400 motion-safe:animate-pulse" aria-hidden />
            Live Demo Available
          </Badge>
          <h1 className="mt-5 text-4xl font-extrabold tracking-tight sm:text-5xl">Ready Made Apps</h1>
          <p className="mt-4 max-w-2xl text-lg text-slate-300 sm:text-xl">
            Choose from 181+ pre-built AI applications across 22 industries
          </p>
          {loaderData.canceled && (
            <output
              className="mt-6 block max-w-xl rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-sm font-medium text-amber-950"
              data-testid="apps-checkout-canceled"
            >
              Checkout canceled. You have not been charged.
            </output>
          )}
        </div>
      </section>

      <div className="mx-auto max-w-7xl px-4 py-8 sm:px-6">
        <h2 className="sr-only">Find an app</h2>
        <search aria-label="Apps">
          <form
            action="/apps"
            method="get"
            className="flex flex-col gap-3 md:flex-row md:items-center"
            onSubmit={(e) => {
              e.preventDefault();
              update({ q: state.q });
            }}
          >
            <div className="min-w-0 flex-1">
              <AppSearch value={state.q} onValueChange={type} onPickIndustry={pickIndustry} />
            </div>
            <div className="flex gap-3">
              <label htmlFor="industry-filter" className="sr-only">
                Industry
              </label>
              <NativeSelect
                id="industry-filter"
                name="industry"
                className="h-11 min-w-0 flex-1 md:w-64"
                value={state.industry}
                onChange={(e) => update({ industry: e.target.value as AppsQuery["industry"] })}
              >
                <option value={ALL_INDUSTRIES}>All Industries</option>
                {INDUSTRIES.map((i) => (
                  <option key={i} value={i}>
                    {i}
                  </option>
                ))}
              </NativeSelect>
              {state.tab !== "base" && <input type="hidden" name="tab" value={state.tab} />}
              {state.view !== "grid" && <input type="hidden" name="view" value={state.view} />}
              <Button type="submit" variant="secondary" className="h-11">
                <Search aria-hidden />
                <span className="sr-only sm:not-sr-only">Search</span>
              </Button>
              <fieldset className="flex shrink-0 rounded-md border bg-muted p-1">
                <legend className="sr-only">Layout</legend>
                {VIEWS.map(({ view, label, Icon }) => (
                  <a
                    key={view}
                    {...linkTo({ view })}
                    aria-label={label}
                    aria-current={state.view === view ? "true" : undefined}
                    title={label}
                    className={cn(
                      "grid size-9 place-items-center rounded-sm text-muted-foreground hover:text-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring",
                      state.view === view && "bg-background text-foreground shadow-sm",
                    )}
                  >
                    <Icon className="size-4" aria-hidden />
                  </a>
                ))}
              </fieldset>
            </div>
          </form>
        </search>

        <Tabs value={state.tab} onValueChange={(tab) => isAppPricingTab(tab) && update({ tab })} className="mt-6">
          <TabsList aria-label="Pricing" className="grid h-auto w-full grid-cols-2 gap-1 sm:inline-flex sm:w-auto">
            {APP_PRICING_TABS.map((tab) => (
              <TabsTrigger key={tab} value={tab} asChild className="px-4 py-2">
                <a
                  href={href({ tab })}
                  onClick={linkTo({ tab }).onClick}
                  role="tab"
                  onKeyDown={(e) => {
                    // Space activates a tab (the Radix trigger does that) and must not scroll the page.
                    if (e.key === " ") e.preventDefault();
                  }}
                >
                  {APP_TAB_INFO[tab].label}
                </a>
              </TabsTrigger>
            ))}
          </TabsList>
          {APP_PRICING_TABS.map((tab) => (
            <TabsContent key={tab} value={tab} className="text-sm text-muted-foreground">
              {APP_TAB_INFO[tab].sentence}
            </TabsContent>
          ))}
        </Tabs>

        <section ref={listingsRef} id="listings" aria-labelledby="listings-heading" className="mt-8 scroll-mt-28">
          <div className="flex flex-wrap items-end justify-between gap-2">
            <h2 id="listings-heading" className="text-2xl font-bold tracking-tight">
              {heading}
            </h2>
            <p className="text-sm text-muted-foreground" aria-live="polite" data-testid="solutions-count">
              {count}
            </p>
          </div>

          {total === 0 ? (
            <div className="mt-6 flex flex-col items-center rounded-xl border border-dashed px-6 py-16 text-center">
              <h3 className="text-xl font-semibold">No Solutions Found</h3>
              <p className="mt-2 max-w-md text-sm text-muted-foreground">
                No app matches your search. Try another word or industry, or clear the filters to see all 181 apps.
              </p>
              <a {...linkTo({ q: "", industry: ALL_INDUSTRIES })} className={cn(buttonVariants({ variant: "default" }), "mt-6")}>
                Clear Filters
              </a>
            </div>
          ) : (
            <ul
              ref={listRef}
              aria-busy={loading}
              className={cn(
                "mt-6 grid items-start gap-6 transition-opacity",
                state.view === "grid" ? "sm:grid-cols-2 lg:grid-cols-3" : "grid-cols-1",
                loading && "opacity-60",
              )}
            >
              {apps.map((app) => (
                <li key={app.id}>
                  <AppCard
                    app={app}
                    tab={state.tab}
                    view={state.view}
                    reviewsHref={href({ reviews: app.id })}
                    processing={processingId === app.id}
                    busy={processingId !== null}
                    signedIn={signedIn}
                    trialError={trialError(app.id)}
                    onOpenReviews={openReviews}
                    onStartTrial={startTrial}
                  />
                </li>
              ))}
            </ul>
          )}
          {total > apps.length && (
            <div className="mt-8 flex flex-col items-center gap-2" onClickCapture={() => (shownBeforeMore.current = apps.length)}>
              <p className="text-sm text-muted-foreground">
                Showing {apps.length} of {total}
              </p>
              <a {...linkTo({ show: state.show + PAGE_SIZE })} className={cn(buttonVariants({ variant: "outline", size: "lg" }))}>
                Show more solutions
              </a>
            </div>
          )}
        </section>

        <section aria-labelledby="custom-heading" className="mt-16 rounded-2xl bg-ink px-6 py-10 text-center text-white sm:px-10">
          <h2 id="custom-heading" className="text-2xl font-bold sm:text-3xl">
            Not sure which app fits?
          </h2>
          <p className="mx-auto mt-3 max-w-2xl text-slate-300">
            Book a free demo and we will show you the right app for your business live, or see how we take you from trial to
            launch.
          </p>
          <div className="mt-6 flex flex-col justify-center gap-3 sm:flex-row">
            <a
              href={env.BOOK_DEMO_URL}
              target="_blank"
              rel="noopener noreferrer"
              className={cn(buttonVariants({ variant: "accent", size: "lg" }))}
            >
              <CalendarDays aria-hidden />
              BOOK DEMO<span className="sr-only"> (opens in a new tab)</span>
            </a>
            <Link
              to="/how-it-works"
              className={cn(
                buttonVariants({ variant: "outline", size: "lg" }),
                "border-white/30 bg-transparent text-white hover:bg-white/10 hover:text-white",
              )}
            >
              How It Works
            </Link>
          </div>
        </section>
      </div>

      {reviewsApp && (
        <ReviewsDialog
          key={reviewsApp.id}
          app={reviewsApp}
          tab={tab}
          closeHref={href({ reviews: null })}
          signedIn={signedIn}
          trialError={trialError(reviewsApp.id)}
          onClose={closeReviews}
          onStartTrial={startTrial}
        />
      )}
      <LazyToaster notice={notice} />
    </TrialSignInBack.Provider>
  );
}
