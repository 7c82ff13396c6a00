import { Outlet } from "react-router";
import { requireUser } from "~/server/auth/session.server";
import type { Route } from "./+types/layout";

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  return { user };
}

export default function DashboardLayout({ loaderData }: Route.ComponentProps) {
  return (
    <div className="min-h-screen p-6">
      <p className="text-sm text-muted-foreground">{loaderData.user.email}</p>
      <Outlet />
    </div>
  );
}
