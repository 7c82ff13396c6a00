import { seo } from "~/lib/seo";
import type { Route } from "./+types/distributor-success";

export const meta: Route.MetaFunction = ({ matches }) =>
  seo(matches, { title: "Welcome", description: "Welcome", path: "/distributor-success" });

export default function Page() {
  return (
    <div className="mx-auto max-w-7xl px-4 py-16">
      <h1 className="text-4xl font-bold">Welcome</h1>
    </div>
  );
}
