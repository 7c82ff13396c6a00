import { seo } from "~/lib/seo";
import type { Route } from "./+types/questionnaire";

export const meta: Route.MetaFunction = ({ matches }) =>
  seo(matches, { title: "Questionnaire", description: "Questionnaire", path: "/questionnaire" });

export default function Page() {
  return (
    <div className="mx-auto max-w-7xl px-4 py-16">
      <h1 className="text-4xl font-bold">Questionnaire</h1>
    </div>
  );
}
