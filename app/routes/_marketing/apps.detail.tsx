import { ArrowLeft, CalendarDays } from "lucide-react";
import { data, Link, useActionData, type ShouldRevalidateFunctionArgs } from "react-router";
import { APP_PRICING_TABS, APP_TAB_INFO, quoteApp, type AppPricingTab } from "~/catalogue/pricing";
import { allReviews, REVIEWS_SHOWN } from "~/catalogue/reviews";
import { ReviewsBody } from "~/components/apps/ReviewsBody";
import { Star } from "~/components/apps/Stars";
import { TrialForm } from "~/components/apps/TrialForm";
import { TrialSignInBack } from "~/components/apps/trial-sign-in";
import { trialFailureText, useAppTrial } from "~/components/apps/use-app-trial";
import { LazyToaster } from "~/components/LazyToaster";
import { Badge } from "~/components/ui/badge";
import { Button, buttonVariants } from "~/components/ui/button";
import { appProductJsonLd, jsonLd } from "~/lib/json-ld";
import { pageCacheHandle } from "~/lib/page-cache";
import { OG_IMAGES, seo, siteUrlOf } from "~/lib/seo";
import { cn } from "~/lib/utils";
import { useRootData } from "~/root";
import { getUser } from "~/server/auth/session.server";
import { appTrialFromForm } from "~/server/billing/app-trial-from-form.server";
import { getAppBySlug, relatedApps } from "~/server/catalogue/apps.server";
import { db } from "~/server/db/client.server";
import { log } from "~/server/log.server";
import type { Route } from "./+types/apps.detail";

// Same HTML for every anonymous visitor: served from the page cache (docs/decisions/0015).
export const handle = pageCacheHandle;

/** How many other apps of the same industry the page suggests. */
const RELATED_COUNT = 3;

export async function loader({ request, params }: Route.LoaderArgs) {
  const database = db();
  const app = await getAppBySlug(database, params.slug);
  if (!app) {
    log.warn("404 not found", { path: new URL(request.url).pathname, referer: request.headers.get("referer") ?? undefined });
    // The marketing layout's boundary draws the site's 404 page for it.
    throw data(null, { status: 404 });
  }
  const [related, user] = await Promise.all([relatedApps(database, app, RELATED_COUNT), getUser(request)]);
  // Every review the count promises: the first few shown, the rest behind "Read all".
  const reviews = allReviews(app);
  return {
    app,
    // Prices and delivery come from the same quoteApp the cards, the dialog and the checkout use.
    prices: APP_PRICING_TABS.map((tab) => quoteApp(app, tab)),
    reviews: reviews.slice(0, REVIEWS_SHOWN),
    earlier: reviews.slice(REVIEWS_SHOWN),
    related: related.map((r) => ({ slug: r.slug, name: r.name, description: r.description, from: quoteApp(r, "base").display })),
    signedIn: user !== null,
  };
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) => {
  if (!loaderData) return [];
  const { app } = loaderData;
  const path = `/apps/${app.slug}`;
  const base = siteUrlOf(matches);
  return [
    ...seo(matches, {
      title: `${app.name}: ${app.industry} AI App`,
      description: `${app.description} From ${loaderData.prices[0]!.display}, with a 3-day free trial.`,
      path,
      image: "apps",
    }),
    jsonLd(appProductJsonLd(app, `${base}${path}`, `${base}${OG_IMAGES.apps.path}`)),
  ];
};

/** "Start 3-Day Trial" without JavaScript, signed in (the TrialForms post here). */
export async function action({ request, url }: Route.ActionArgs) {
  return appTrialFromForm(request, url);
}

/** The page depends on its slug alone: a failed trial form re-renders it without asking again. */
export function shouldRevalidate({ currentUrl, nextUrl, formMethod, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  if (formMethod && formMethod !== "GET") return false;
  return currentUrl.pathname === nextUrl.pathname ? false : defaultShouldRevalidate;
}

export default function AppPage({ loaderData }: Route.ComponentProps) {
  const { app, prices, reviews, earlier, related, signedIn } = loaderData;
  const { env } = useRootData();
  const { processingId, processingTab, notice, startTrial } = useAppTrial({ signedIn, tab: "base" });
  const actionData = useActionData<typeof action>();
  const path = `/apps/${app.slug}`;
  const industryHref = `/apps?industry=${encodeURIComponent(app.industry)}`;
  const trialError = (tab: AppPricingTab) =>
    actionData && processingId === null && actionData.context?.tab === tab ? trialFailureText(actionData) : null;

  return (
    <TrialSignInBack.Provider value={path}>
      <section className="bg-ink text-white">
        <div className="mx-auto max-w-7xl px-4 py-10 sm:px-6 sm:py-14">
          <nav aria-label="Breadcrumb" className="text-sm text-slate-300">
            <ol className="flex flex-wrap items-center gap-x-2 gap-y-1">
              <li>
                <Link to="/apps" className="inline-flex items-center gap-1 underline-offset-4 hover:text-white hover:underline">
                  <ArrowLeft className="size-4" aria-hidden />
                  All apps
                </Link>
              </li>
              <li aria-hidden>/</li>
              <li>
                <Link to={industryHref} className="underline-offset-4 hover:text-white hover:underline">
                  {app.industry}
                </Link>
              </li>
            </ol>
          </nav>
          <div className="mt-6 flex flex-wrap items-center gap-2">
            <Badge className="border-emerald-400/40 bg-emerald-400/10 text-emerald-200">
              <span className="size-2 rounded-full bg-emerald-400 motion-safe:animate-pulse" aria-hidden />
              Live Demo Available
            </Badge>
            {app.isPopular && <Badge variant="accent">Popular</Badge>}
          </div>
          <h1 className="mt-4 text-3xl font-extrabold tracking-tight break-words sm:text-5xl">{app.name}</h1>
          <p className="mt-2 text-sm font-semibold uppercase tracking-wide text-emerald-200">{app.industry}</p>
          <p className="mt-4 max-w-3xl text-lg text-slate-300">{app.description}</p>
          {app.reviews > 0 ? (
            <p className="mt-4 flex flex-wrap items-center gap-x-1.5 text-sm">
              <Star />
              <span className="font-semibold">5.0</span>
              <span className="text-slate-300">({app.reviews} reviews)</span>
            </p>
          ) : (
            <p className="mt-4 text-sm text-slate-300">No reviews yet</p>
          )}
        </div>
      </section>

      <div className="mx-auto max-w-7xl px-4 py-10 sm:px-6">
        <section aria-labelledby="pricing-heading">
          <h2 id="pricing-heading" className="text-2xl font-bold tracking-tight">
            Pricing and delivery
          </h2>
          <p className="mt-2 text-sm text-muted-foreground">Every option includes a 3-day free trial.</p>
          <ul className="mt-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
            {prices.map((price) => {
              const labelId = `price-${price.tab}`;
              const info = APP_TAB_INFO[price.tab];
              const processing = processingId === app.id && processingTab === price.tab;
              return (
                <li
                  key={price.tab}
                  className="flex flex-col gap-3 rounded-xl border bg-card p-5 shadow-sm"
                  data-testid="app-price-option"
                >
                  <h3 id={labelId} className="text-lg font-bold">
                    {info.label}
                  </h3>
                  <p className="text-3xl font-extrabold tracking-tight" data-testid="app-price">
                    {price.display}
                  </p>
                  <p className="text-sm text-muted-foreground">
                    Delivery:{" "}
                    <span className="font-semibold text-foreground" data-testid="app-delivery">
                      {price.delivery}
                    </span>
                  </p>
                  <p className="flex-1 text-sm text-muted-foreground">{info.sentence}</p>
                  <TrialForm
                    appId={app.id}
                    tab={price.tab}
                    signedIn={signedIn}
                    error={trialError(price.tab)}
                    onSubmit={(e) => {
                      e.preventDefault();
                      startTrial(app, price.tab);
                    }}
                  >
                    <Button type="submit" className="w-full" disabled={processingId !== null} aria-describedby={labelId}>
                      {processing ? "Processing..." : "Start 3-Day Trial"}
                    </Button>
                  </TrialForm>
                </li>
              );
            })}
          </ul>
        </section>

        <div className="mt-12 grid gap-10 lg:grid-cols-[2fr_1fr]">
          <section aria-labelledby="features-heading">
            <h2 id="features-heading" className="text-2xl font-bold tracking-tight">
              What's Included
            </h2>
            <ul className="mt-4 list-['✓_'] space-y-2 pl-5 marker:font-bold marker:text-emerald-700" data-testid="app-features">
              {app.features.map((f) => (
                <li key={f}>{f}</li>
              ))}
            </ul>
            <dl className="mt-6 grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
              <dt className="text-muted-foreground">Delivery time</dt>
              <dd className="font-medium">{app.deliveryTime}</dd>
              <dt className="text-muted-foreground">Industry focus</dt>
              <dd className="font-medium">{app.industry}</dd>
            </dl>
          </section>

          <section aria-labelledby="demo-heading" className="rounded-2xl bg-ink p-6 text-white">
            <h2 id="demo-heading" className="text-xl font-bold">
              See {app.name} live
            </h2>
            <p className="mt-2 text-sm text-slate-300">
              Book a free demo: we walk you through the app with your own {app.industry.toLowerCase()} workflow and answer your
              questions.
            </p>
            <a
              href={env.BOOK_DEMO_URL}
              target="_blank"
              rel="noopener noreferrer"
              className={cn(buttonVariants({ variant: "accent", size: "lg" }), "mt-5 w-full")}
            >
              <CalendarDays aria-hidden />
              BOOK DEMO<span className="sr-only"> (opens in a new tab)</span>
            </a>
          </section>
        </div>

        <section aria-labelledby="reviews-heading" className="mt-12">
          <h2 id="reviews-heading" className="text-2xl font-bold tracking-tight">
            Customer Reviews
          </h2>
          <div className="mt-4 flex flex-col gap-3">
            <ReviewsBody app={app} reviews={reviews} earlier={earlier} />
          </div>
        </section>

        {related.length > 0 && (
          <section aria-labelledby="related-heading" className="mt-12">
            <h2 id="related-heading" className="text-2xl font-bold tracking-tight">
              More {app.industry} apps
            </h2>
            <ul className="mt-4 grid gap-4 md:grid-cols-3" data-testid="related-apps">
              {related.map((r) => (
                <li key={r.slug} className="flex flex-col gap-2 rounded-xl border bg-card p-5 shadow-sm">
                  <h3 className="font-bold">
                    <Link to={`/apps/${r.slug}`} className="text-primary underline-offset-4 hover:underline">
                      {r.name}
                    </Link>
                  </h3>
                  <p className="line-clamp-3 text-sm text-muted-foreground">{r.description}</p>
                  <p className="mt-auto text-sm">
                    From <span className="font-semibold">{r.from}</span>
                  </p>
                </li>
              ))}
            </ul>
            <Link to={industryHref} className="mt-4 inline-block text-sm font-semibold text-primary underline underline-offset-4">
              See all {app.industry} apps
            </Link>
          </section>
        )}
      </div>
      <LazyToaster notice={notice} />
    </TrialSignInBack.Provider>
  );
}
