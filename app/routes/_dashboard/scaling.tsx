import { PageHeader } from "~/components/dashboard/pages/common";
import { ScalingView } from "~/components/dashboard/pages/ScalingView";
import { SCALING_TIERS } from "~/catalogue/plans";
import { useRootData } from "~/root";
import { requireUser } from "~/server/auth/session.server";
import { db } from "~/server/db/client.server";
import { getSubscriptionSummary } from "~/server/profile/billing.server";
import type { Route } from "./+types/scaling";

export const meta: Route.MetaFunction = () => [{ title: "Scaling Plans | AI Dashboard" }, { name: "robots", content: "noindex" }];

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const subscription = await getSubscriptionSummary(db(), user.id);
  // The account's tier is the one whose contact count equals its subscription's reach limit.
  const index = subscription.active ? SCALING_TIERS.findIndex((t) => t.contacts === subscription.reachLimit) : -1;
  return { active: subscription.active, planName: subscription.planName, currentIndex: index >= 0 ? index : null };
}

export default function ScalingPage({ loaderData }: Route.ComponentProps) {
  const { env } = useRootData();
  return (
    <div className="mx-auto max-w-6xl">
      <PageHeader title="Scaling Plans" description="Grow your contacts, SMS and email volume as your business grows." />
      <ScalingView {...loaderData} bookDemoUrl={env.BOOK_DEMO_URL} />
    </div>
  );
}
