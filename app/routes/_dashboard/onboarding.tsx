import { requireUser } from "~/server/auth/session.server";
import type { Route } from "./+types/onboarding";

export const meta: Route.MetaFunction = () => [
  { title: "Onboarding Tracker | AI Dashboard" },
  { name: "robots", content: "noindex" },
];

export async function loader({ request }: Route.LoaderArgs) {
  await requireUser(request);
  return null;
}

export default function Page() {
  return <h1 className="text-2xl font-bold">Onboarding Tracker</h1>;
}
