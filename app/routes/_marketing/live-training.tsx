import { seo } from "~/lib/seo";
import type { Route } from "./+types/live-training";

export const meta: Route.MetaFunction = ({ matches }) =>
  seo(matches, { title: "LIVE TRAINING", description: "LIVE TRAINING", path: "/live-training" });

export default function Page() {
  return (
    <div className="mx-auto max-w-7xl px-4 py-16">
      <h1 className="text-4xl font-bold">LIVE TRAINING</h1>
    </div>
  );
}
