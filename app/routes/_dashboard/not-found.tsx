import { SearchX } from "lucide-react";
import { data, Link } from "react-router";
import { Button } from "~/components/ui/button";
import { requireUser } from "~/server/auth/session.server";
import { log } from "~/server/log.server";
import type { Route } from "./+types/not-found";

export const meta: Route.MetaFunction = () => [
  { title: "Page not found | AI Dashboard" },
  { name: "robots", content: "noindex" },
];

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  log.warn("404 not found", { path: new URL(request.url).pathname, userId: user.id });
  return data(null, { status: 404 });
}

export default function DashboardNotFound() {
  return (
    <div className="mx-auto flex max-w-xl flex-col items-center gap-4 rounded-xl border bg-card px-6 py-16 text-center shadow-sm">
      <SearchX className="size-12 text-primary" aria-hidden />
      <p className="text-5xl font-extrabold text-primary">404</p>
      <h1 className="text-2xl font-bold">Oops! Page not found</h1>
      <p className="text-muted-foreground">This dashboard page does not exist or has moved.</p>
      <div className="flex flex-wrap justify-center gap-3">
        <Button asChild>
          <Link to="/dashboard">Back to Dashboard</Link>
        </Button>
        <Button asChild variant="outline">
          <Link to="/">Return to Home</Link>
        </Button>
      </div>
    </div>
  );
}
