import { seo } from "~/lib/seo";
import type { Route } from "./+types/payment-cancel";

export const meta: Route.MetaFunction = ({ matches }) =>
  seo(matches, { title: "Payment Cancelled", description: "Payment Cancelled", path: "/payment-cancel" });

export default function Page() {
  return (
    <div className="mx-auto max-w-7xl px-4 py-16">
      <h1 className="text-4xl font-bold">Payment Cancelled</h1>
    </div>
  );
}
