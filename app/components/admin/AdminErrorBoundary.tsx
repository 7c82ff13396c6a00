import { isRouteErrorResponse, useRouteError } from "react-router";
import { MarketingShell } from "~/components/marketing/MarketingShell";
import { NotFoundContent } from "~/components/marketing/NotFound";

/**
 * Every console page's error boundary. Not an operator, or no such record (the loaders' 404): the
 * site's own 404 page, as for any unknown address. Anything else: a generic page, never the error's
 * text or stack (the server logged it), with a link to try `retryHref` again.
 */
export function AdminErrorBoundary({ retryHref = "/admin" }: { retryHref?: string }) {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) {
    return (
      <MarketingShell>
        <NotFoundContent />
      </MarketingShell>
    );
  }
  return (
    <main className="mx-auto flex min-h-screen max-w-xl flex-col items-center justify-center gap-4 p-8 text-center">
      <h1 className="text-3xl font-bold">Something went wrong</h1>
      <p className="text-muted-foreground">An unexpected error occurred. Please try again in a moment.</p>
      <a href={retryHref} className="font-semibold text-primary underline">
        Try again
      </a>
    </main>
  );
}
