import { CircleAlert } from "lucide-react";
import { isRouteErrorResponse, Link, Outlet, useLocation, useRouteError } from "react-router";
import { MarketingShell } from "~/components/marketing/MarketingShell";
import { buttonVariants } from "~/components/ui/button";
import { seo } from "~/lib/seo";
import { NotFoundContent, notFoundMeta } from "~/components/marketing/NotFound";
import type { Route } from "./+types/layout";

/**
 * Only the error screen's title: a page's own meta wins while it renders, and the pages below this
 * boundary are not rendered (so not asked for theirs) when it shows.
 */
export const meta: Route.MetaFunction = ({ error, matches }) =>
  isRouteErrorResponse(error) && error.status === 404
    ? notFoundMeta(matches)
    : error
      ? seo(matches, {
          title: "This page could not be loaded",
          description: "Something went wrong loading this page. Please try again in a moment.",
          noindex: true,
        })
      : [];

/** Shell of every public page: fixed nav, the ticker banner under it, content, footer. */
export default function MarketingLayout() {
  return (
    <MarketingShell>
      <Outlet />
    </MarketingShell>
  );
}

/**
 * A public page whose data failed to load (the busy server's 503, a dropped connection, a loader or
 * render error) keeps the site around it: this boundary replaces the layout, so it draws the same
 * shell with the message in place of the page. Never the error's text or stack: the server logged it.
 */
export function ErrorBoundary() {
  const error = useRouteError();
  const location = useLocation();
  const status = isRouteErrorResponse(error) ? error.status : null;
  // A page that is not there (an unknown app's address): the site's own 404 page.
  if (status === 404) {
    return (
      <MarketingShell>
        <NotFoundContent />
      </MarketingShell>
    );
  }
  // fetch() rejects with a TypeError when the connection drops before any answer.
  const offline = error instanceof TypeError && /fetch|network|load failed/i.test(error.message);
  const title =
    status === 503 ? "The server is busy" : offline ? "We could not reach the server" : "This page could not be loaded";
  const details =
    status === 503
      ? "Too many people are visiting right now. Please try again in a few seconds."
      : offline
        ? "Please check your connection and try again."
        : "Something went wrong on our side. Please try again in a moment.";
  return (
    <MarketingShell>
      <div
        role="alert"
        data-testid="marketing-error"
        className="mx-auto my-16 flex max-w-xl flex-col items-center gap-4 px-4 py-12 text-center"
      >
        <CircleAlert className="size-12 text-destructive" aria-hidden />
        <h1 className="text-3xl font-bold">{title}</h1>
        <p className="text-muted-foreground">{details}</p>
        <div className="flex flex-wrap justify-center gap-3">
          {/* A full load: the page's data is fetched again from scratch. */}
          <a href={location.pathname + location.search} className={buttonVariants()}>
            Try again
          </a>
          <Link to="/" className={buttonVariants({ variant: "outline" })}>
            Return to Home
          </Link>
        </div>
      </div>
    </MarketingShell>
  );
}
