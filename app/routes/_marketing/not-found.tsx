import { data, Link } from "react-router";
import { log } from "~/server/log.server";
import { seo } from "~/lib/seo";
import type { Route } from "./+types/not-found";

export async function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  log.warn("404 not found", { path: url.pathname, referer: request.headers.get("referer") ?? undefined });
  return data(null, { status: 404 });
}

export const meta: Route.MetaFunction = ({ matches }) =>
  seo(matches, {
    title: "Page not found",
    description: "The page you are looking for does not exist.",
    // No path: '/404' is not a page, and the requested address is not one either.
    noindex: true,
  });

export default function NotFound() {
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
