import { seo } from "~/lib/seo";
import type { Route } from "./+types/results";

export const meta: Route.MetaFunction = ({ matches }) =>
  seo(matches, { title: "Results", description: "Results", path: "/results" });

export default function Page() {
  return (
    <div className="mx-auto max-w-7xl px-4 py-16">
      <h1 className="text-4xl font-bold">Results</h1>
    </div>
  );
}
