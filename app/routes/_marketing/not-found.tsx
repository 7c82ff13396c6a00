import { data } from "react-router";
import { NotFoundContent, notFoundMeta } from "~/components/marketing/NotFound";
import { log } from "~/server/log.server";
import type { Route } from "./+types/not-found";

export async function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  log.warn("404 not found", { path: url.pathname, referer: request.headers.get("referer") ?? undefined });
  return data(null, { status: 404 });
}

export const meta: Route.MetaFunction = ({ matches }) => notFoundMeta(matches);

export default function NotFound() {
  return <NotFoundContent />;
}
