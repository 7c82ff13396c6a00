import { requireUser } from "~/server/auth/session.server";
import type { Route } from "./+types/addons";

export const meta: Route.MetaFunction = () => [
  { title: "Add-Ons Marketplace | AI Dashboard" },
  { name: "robots", content: "noindex" },
];

export async function loader({ request }: Route.LoaderArgs) {
  await requireUser(request);
  return null;
}

export default function Page() {
  return <h1 className="text-2xl font-bold">Add-Ons Marketplace</h1>;
}
