import { Link } from "react-router";
import { seo } from "~/lib/seo";

/** The 404's title and description: noindex, and no path ('/404' is not a page, nor the address asked for). */
export const notFoundMeta = (matches: Parameters<typeof seo>[0]) =>
  seo(matches, {
    title: "Page not found",
    description: "The page you are looking for does not exist.",
    noindex: true,
  });

/** The site's 404 page body (inside the marketing shell). */
export function NotFoundContent() {
  return (
    <div className="mx-auto flex max-w-xl flex-col items-center gap-4 px-4 py-24 text-center">
      <p className="text-6xl font-extrabold text-primary">404</p>
      <h1 className="text-3xl font-bold">Oops! Page not found</h1>
      <p className="text-muted-foreground">The page you are looking for does not exist or has moved.</p>
      <Link to="/" className="font-semibold text-primary underline underline-offset-4">
        Return to Home
      </Link>
    </div>
  );
}
