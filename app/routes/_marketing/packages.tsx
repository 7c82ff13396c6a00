import { seo } from "~/lib/seo";
import type { Route } from "./+types/packages";

export const meta: Route.MetaFunction = ({ matches }) =>
  seo(matches, { title: "Quick Pick Plan", description: "Quick Pick Plan", path: "/packages" });

export default function Page() {
  return (
    <div className="mx-auto max-w-7xl px-4 py-16">
      <h1 className="text-4xl font-bold">Quick Pick Plan</h1>
    </div>
  );
}
