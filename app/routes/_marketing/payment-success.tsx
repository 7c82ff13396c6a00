import { seo } from "~/lib/seo";
import type { Route } from "./+types/payment-success";

export const meta: Route.MetaFunction = ({ matches }) =>
  seo(matches, { title: "Payment Successful", description: "Payment Successful", path: "/payment-success" });

export default function Page() {
  return (
    <div className="mx-auto max-w-7xl px-4 py-16">
      <h1 className="text-4xl font-bold">Payment Successful</h1>
    </div>
  );
}
