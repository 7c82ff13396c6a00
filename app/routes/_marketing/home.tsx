import { seo } from "~/lib/seo";
import type { Route } from "./+types/home";

export const meta: Route.MetaFunction = ({ matches }) => seo(matches, { title: "Home", description: "Home", path: "/" });

export default function Page() {
  return (
    <div className="mx-auto max-w-7xl px-4 py-16">
      <h1 className="text-4xl font-bold">Home</h1>
    </div>
  );
}
