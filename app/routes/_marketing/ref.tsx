import { seo } from "~/lib/seo";
import Home from "./home";
import type { Route } from "./+types/ref";

/** /ref/{username} renders the home page; attribution is recorded by the affiliates issue. */
export const meta: Route.MetaFunction = ({ matches }) =>
  seo(matches, {
    title: "AI is the Future — Is Your Business Ready?",
    description: "Ready-made AI automation apps for small and mid-size businesses.",
    path: "/",
  });

export default function Referral() {
  return <Home />;
}
