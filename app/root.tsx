import { useContext, useEffect } from "react";
import { isRouteErrorResponse, Links, Meta, Outlet, Scripts, ScrollRestoration, useRouteLoaderData } from "react-router";
import type { Route } from "./+types/root";
import stylesheet from "./app.css?url";
import { CspNonceContext } from "./lib/csp-nonce";
import { useIslandsDocument } from "./lib/islands";
import { SUBMIT_GATE_SCRIPT, submitGateHydrated } from "./lib/submit-gate";
import { writeBrowserTimeZone } from "./lib/time-zone";
import { env, publicEnv } from "./server/env.server";
import { formBodyGuard } from "./server/http/form-body.server";

export const links: Route.LinksFunction = () => [{ rel: "icon", href: "/favicon.svg", type: "image/svg+xml" }];

// Every non-API POST must be a readable form before any action runs (415 otherwise, never a 500).
export const middleware: Route.MiddlewareFunction[] = [formBodyGuard];

export function loader() {
  return { siteUrl: env().PUBLIC_SITE_URL, env: publicEnv(), year: new Date().getUTCFullYear() };
}

/**
 * The root's data (site URL, public settings, year) is the same for every page of a visit, so a
 * client navigation never asks for it again. Besides a smaller request, this keeps a failed data
 * request (the busy server's 503, a dropped connection) on the page's own route, whose error boundary
 * keeps the site around the message, instead of marking the root failed and blanking the whole site.
 */
export function shouldRevalidate() {
  return false;
}

export function useRootData() {
  const data = useRouteLoaderData<typeof loader>("root");
  if (!data) throw new Error("root loader data is missing");
  return data;
}

export function Layout({ children }: { children: React.ReactNode }) {
  const nonce = useContext(CspNonceContext);
  const islands = useIslandsDocument();
  // The layout renders on every page, error pages too: once it has hydrated, so has the page.
  useEffect(() => submitGateHydrated(), []);
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#0b1120" />
        {islands ? null : (
          // Before any form (docs/decisions/0040-forms-before-hydration.md); async, so it blocks nothing.
          <script
            type="module"
            async
            nonce={nonce}
            suppressHydrationWarning
            dangerouslySetInnerHTML={{ __html: SUBMIT_GATE_SCRIPT }}
          />
        )}
        {/* First in <head>, ahead of the module preloads, so the first paint is not held up. */}
        <link rel="stylesheet" href={stylesheet} precedence="default" />
        <Meta />
        <Links />
      </head>
      <body className="min-h-screen">
        {children}
        {islands ? (
          // An islands page (docs/decisions/0019): its widgets' script instead of React Router's.
          <script type="module" nonce={nonce} dangerouslySetInnerHTML={{ __html: islands.bootScript }} />
        ) : (
          <>
            <ScrollRestoration nonce={nonce} />
            <Scripts nonce={nonce} />
          </>
        )}
      </body>
    </html>
  );
}

export default function App() {
  // Marks the document once React has hydrated: end-to-end tests wait for it before interacting.
  useEffect(() => {
    document.documentElement.dataset.hydrated = "true";
    // The server shows times in the customer's zone: it learns the browser's from this cookie.
    writeBrowserTimeZone();
  }, []);
  return <Outlet />;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  // Never show a stack trace to a visitor; the server already logged it.
  let title = "Something went wrong";
  let details = "An unexpected error occurred. Please try again in a moment.";
  if (isRouteErrorResponse(error)) {
    title = error.status === 404 ? "Oops! Page not found" : `Error ${error.status}`;
    details = error.status === 404 ? "The page you are looking for does not exist." : error.statusText || details;
  }
  return (
    <main className="mx-auto flex min-h-screen max-w-xl flex-col items-center justify-center gap-4 p-8 text-center">
      <h1 className="text-3xl font-bold">{title}</h1>
      <p className="text-muted-foreground">{details}</p>
      <a href="/" className="font-semibold text-primary underline">
        Return to Home
      </a>
    </main>
  );
}
