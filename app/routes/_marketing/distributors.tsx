import { seo } from "~/lib/seo";
import type { Route } from "./+types/distributors";

export const meta: Route.MetaFunction = ({ matches }) =>
  seo(matches, { title: "Distributor Program", description: "Distributor Program", path: "/distributors" });

export default function Page() {
  return (
    <div className="mx-auto max-w-7xl px-4 py-16">
      <h1 className="text-4xl font-bold">Distributor Program</h1>
    </div>
  );
}
