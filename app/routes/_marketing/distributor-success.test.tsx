import { renderToString } from "react-dom/server";
import { createMemoryRouter, RouterProvider } from "react-router";
import { describe, expect, it } from "vitest";
import DistributorSuccess, { meta } from "./distributor-success";

type Props = Parameters<typeof DistributorSuccess>[0];
type LoaderData = Props["loaderData"];

const paidOrder: Extract<LoaderData, { view: "paid" }>["order"] = {
  businessName: "Reyes Automation Group",
  fullName: "Dana Reyes",
  email: "dana@example.com",
  setupFee: "$997",
  monthly: "$199/month",
  trialDays: 7,
};

function render(data: LoaderData, url = "/?session_id=cs_local_1"): string {
  // A data router: a pending order asks the server to re-check it (useRevalidator).
  const router = createMemoryRouter([{ path: "/", element: <DistributorSuccess {...({ loaderData: data } as Props)} /> }], {
    initialEntries: [url],
  });
  return renderToString(<RouterProvider router={router} />);
}

const decode = (s: string) => s.replace(/&#x27;/g, "'").replace(/&amp;/g, "&");
const h1 = (html: string) => decode(/<h1[^>]*>([^<]*)<\/h1>/.exec(html)?.[1] ?? "");
const lead = (html: string) => decode(/<\/h1><p[^>]*>(.*?)<\/p>/.exec(html)?.[1]?.replace(/<[^>]*>/g, "") ?? "");
/** The step headings, e.g. "1. Payment Confirmed". */
const steps = (html: string) => [...html.matchAll(/<h2[^>]*>(.*?)<\/h2>/g)].map((m) => decode(m[1]!.replace(/<[^>]*>/g, "")));
const links = (html: string) =>
  [...html.matchAll(/<a [^>]*href="([^"]*)"[^>]*>(.*?)<\/a>/g)].map((m) => [decode(m[1]!), m[2]!.replace(/<[^>]*>/g, "")]);
const titleOf = (data: LoaderData) => {
  const tags = meta({ matches: [], loaderData: data } as unknown as Parameters<typeof meta>[0]) ?? [];
  return tags.flatMap((t) => ("title" in t ? [t.title as string] : []))[0];
};

describe("distributor success page", () => {
  it("without an order of the viewer's (another user's, another kind, none): not found, nothing confirmed", () => {
    const data = { view: "not-found" as const };
    const html = render(data);
    expect(h1(html)).toBe("Order not found");
    expect(steps(html)).toEqual([]);
    expect(html).not.toContain("Welcome to the AI Distributor Program");
    expect(html).not.toContain("have been processed");
    expect(html.toLowerCase()).not.toContain("confirm");
    expect(links(html)).toEqual([
      ["/dashboard", "Go to Dashboard"],
      ["/apps", "Browse Apps"],
    ]);
    expect(titleOf(data)).toBe("Order Not Found | AI Automation Apps");
  });

  it("signed out: asks to sign in and come back to the same order", () => {
    const signInHref = "/auth?next=%2Fdistributor-success%3Fsession_id%3Dcs_local_1";
    const html = render({ view: "sign-in", signInHref });
    expect(h1(html)).toBe("Sign in to see your order");
    expect(html).not.toContain("Payment Confirmed");
    expect(links(html)).toContainEqual([signInHref, "Sign In"]);
  });

  it("a paid own order: the welcome, the buyer's details and what was charged", () => {
    const data = { view: "paid" as const, order: paidOrder };
    const html = render(data);
    expect(h1(html)).toBe("Welcome to the AI Distributor Program!");
    expect(lead(html)).toBe("You are all set, Dana Reyes. Here is what happens next.");
    expect(steps(html)).toEqual(["1. Payment Confirmed", "2. Training Access", "3. Territory Assignment", "4. Start Earning"]);
    expect(html).toContain("Your $997 setup fee has been processed.");
    expect(html).toContain("Reyes Automation Group");
    expect(titleOf(data)).toBe("Welcome to the AI Distributor Program | AI Automation Apps");
  });

  it("a pending own order is still being confirmed: never 'Payment Confirmed' or 'all set', and a refresh is offered", () => {
    const data = { view: "pending" as const };
    const html = render(data, "/?session_id=cs_local_2");
    expect(h1(html)).toBe("We're confirming your payment");
    expect(lead(html)).toContain("still confirming your payment. Refresh this page in a moment.");
    expect(steps(html)[0]).toBe("1. Confirming Payment");
    expect(html).toContain("We are still confirming your payment.");
    expect(html).not.toContain("Payment Confirmed");
    expect(html).not.toContain("have been processed");
    expect(html).not.toContain("You are all set");
    expect(links(html)).toContainEqual(["/distributor-success?session_id=cs_local_2", "Refresh Status"]);
    expect(titleOf(data)).toBe("Confirming Your Payment | AI Automation Apps");
  });

  it.each([
    { ended: "declined", heading: "Payment not completed", title: "Payment Not Completed" },
    { ended: "canceled", heading: "Order canceled", title: "Order Canceled" },
  ] as const)("a $ended own order says so and offers to try again on /distributors", ({ ended, heading, title }) => {
    const data = { view: "ended" as const, ended };
    const html = render(data);
    expect(h1(html)).toBe(heading);
    expect(html.toLowerCase()).not.toContain("confirm");
    expect(html).not.toContain("have been processed");
    expect(html).not.toContain("You are all set");
    expect(steps(html)).toEqual([]);
    expect(links(html)).toContainEqual(["/distributors", "Try Again"]);
    expect(links(html)).toContainEqual(["/", "Back to Homepage"]);
    expect(titleOf(data)).toBe(`${title} | AI Automation Apps`);
  });
});
