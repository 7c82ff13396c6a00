import { requireUser } from "~/server/auth/session.server";
import type { Route } from "./+types/automation";

export const meta: Route.MetaFunction = () => [{ title: "Automations | AI Dashboard" }, { name: "robots", content: "noindex" }];

export async function loader({ request }: Route.LoaderArgs) {
  await requireUser(request);
  return null;
}

export default function Page() {
  return <h1 className="text-2xl font-bold">Automations</h1>;
}
