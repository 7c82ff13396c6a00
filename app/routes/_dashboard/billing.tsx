import { requireUser } from "~/server/auth/session.server";
import type { Route } from "./+types/billing";

export const meta: Route.MetaFunction = () => [
  { title: "Subscription & Billing | AI Dashboard" },
  { name: "robots", content: "noindex" },
];

export async function loader({ request }: Route.LoaderArgs) {
  await requireUser(request);
  return null;
}

export default function Page() {
  return <h1 className="text-2xl font-bold">Subscription & Billing</h1>;
}
