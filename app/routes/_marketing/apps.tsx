import { seo } from "~/lib/seo";
import type { Route } from "./+types/apps";

export const meta: Route.MetaFunction = ({ matches }) =>
  seo(matches, { title: "Ready Made Apps", description: "Ready Made Apps", path: "/apps" });

export default function Page() {
  return (
    <div className="mx-auto max-w-7xl px-4 py-16">
      <h1 className="text-4xl font-bold">Ready Made Apps</h1>
    </div>
  );
}
