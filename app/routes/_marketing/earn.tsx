import { seo } from "~/lib/seo";
import type { Route } from "./+types/earn";

export const meta: Route.MetaFunction = ({ matches }) =>
  seo(matches, { title: "Earn With Us", description: "Earn With Us", path: "/earn" });

export default function Page() {
  return (
    <div className="mx-auto max-w-7xl px-4 py-16">
      <h1 className="text-4xl font-bold">Earn With Us</h1>
    </div>
  );
}
