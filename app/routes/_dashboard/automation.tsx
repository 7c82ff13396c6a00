import { Bot, Package, Store } from "lucide-react";
import { Link } from "react-router";
import { EmptyState, PageHeader } from "~/components/dashboard/pages/common";
import { buttonVariants } from "~/components/ui/button";
import { requireUser } from "~/server/auth/session.server";
import type { Route } from "./+types/automation";

export const meta: Route.MetaFunction = () => [
  { title: "Apps & Automations | AI Dashboard" },
  { name: "robots", content: "noindex" },
];

export interface PurchasedApp {
  id: string;
  name: string;
  status: string;
  purchasedAt: string;
}

/**
 * The customer's purchased apps and automations. There is no orders table yet (checkout arrives
 * with the next issue), so this returns []; once it exists, read the user's fulfilled orders here,
 * filtered by userId, and the page's list renders them with no other change.
 */
async function listPurchasedApps(_userId: string): Promise<PurchasedApp[]> {
  return [];
}

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  return { apps: await listPurchasedApps(user.id) };
}

export default function AutomationPage({ loaderData }: Route.ComponentProps) {
  const { apps } = loaderData;
  return (
    <div className="mx-auto max-w-5xl">
      <PageHeader title="Apps & Automations" description="The AI apps and automations running for your business." />
      {apps.length === 0 ? (
        <EmptyState icon={<Bot />} title="No automations yet">
          <p className="max-w-md text-sm text-muted-foreground">
            Pick a ready-made AI app or a package and it will appear here once it is live.
          </p>
          <div className="mt-2 flex flex-col gap-2 sm:flex-row">
            <Link to="/apps" className={buttonVariants()}>
              <Store aria-hidden="true" />
              Browse Ready-Made Apps
            </Link>
            <Link to="/packages" className={buttonVariants({ variant: "outline" })}>
              <Package aria-hidden="true" />
              See Packages
            </Link>
          </div>
        </EmptyState>
      ) : (
        <ul className="grid gap-3 sm:grid-cols-2">
          {apps.map((a) => (
            <li key={a.id} className="rounded-xl border bg-card p-4 shadow-sm">
              <h2 className="font-semibold">{a.name}</h2>
              <p className="text-sm text-muted-foreground">{a.status}</p>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
