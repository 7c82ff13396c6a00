import { CircleAlert } from "lucide-react";
import { isRouteErrorResponse, Link, Outlet, useLocation, useRouteError } from "react-router";
import { Button } from "~/components/ui/button";

/**
 * Every dashboard page sits in this pathless route, so a page whose loader, action or render fails
 * shows its error inside the dashboard (sidebar, header, Sign Out kept) instead of replacing the
 * whole shell with the root's error page.
 */
export default function DashboardPages() {
  return <Outlet />;
}

export function ErrorBoundary() {
  const error = useRouteError();
  const location = useLocation();
  // Never a stack trace: the server has logged the failure.
  const status = isRouteErrorResponse(error) ? error.status : 500;
  return (
    <div
      role="alert"
      className="mx-auto flex max-w-xl flex-col items-center gap-4 rounded-xl border bg-card px-6 py-16 text-center shadow-sm"
    >
      <CircleAlert className="size-12 text-destructive" aria-hidden />
      <h1 className="text-2xl font-bold">{status === 503 ? "The server is busy" : "This page could not be loaded"}</h1>
      <p className="text-muted-foreground">Something went wrong on our side. Your data is safe; please try again in a moment.</p>
      <div className="flex flex-wrap justify-center gap-3">
        {/* A full load: the failed page's data is fetched again from scratch. */}
        <Button asChild>
          <a href={location.pathname + location.search}>Try again</a>
        </Button>
        <Button asChild variant="outline">
          <Link to="/dashboard">Back to Dashboard</Link>
        </Button>
      </div>
    </div>
  );
}
