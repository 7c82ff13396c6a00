import { seo } from "~/lib/seo";
import type { Route } from "./+types/industries";

export const meta: Route.MetaFunction = ({ matches }) =>
  seo(matches, { title: "Industries", description: "Industries", path: "/industries" });

export default function Page() {
  return (
    <div className="mx-auto max-w-7xl px-4 py-16">
      <h1 className="text-4xl font-bold">Industries</h1>
    </div>
  );
}
