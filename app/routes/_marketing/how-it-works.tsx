import { seo } from "~/lib/seo";
import type { Route } from "./+types/how-it-works";

export const meta: Route.MetaFunction = ({ matches }) =>
  seo(matches, { title: "How It Works", description: "How It Works", path: "/how-it-works" });

export default function Page() {
  return (
    <div className="mx-auto max-w-7xl px-4 py-16">
      <h1 className="text-4xl font-bold">How It Works</h1>
    </div>
  );
}
