import { renderToString } from "react-dom/server";
import { createMemoryRouter, RouterProvider } from "react-router";
import { describe, expect, it } from "vitest";
import PaymentSuccess, { meta } from "./payment-success";

type Props = Parameters<typeof PaymentSuccess>[0];
type LoaderData = Props["loaderData"];
type OrderView = Extract<LoaderData, { view: "order" }>;
type Status = OrderView["order"]["status"];

const LABELS: Record<Status, string> = {
  Paid: "Paid",
  Trial: "Free trial started",
  Pending: "Pending",
  Declined: "Declined",
  Canceled: "Canceled",
};

const order = (status: Status, retryPath = "/apps"): OrderView["order"] => ({
  itemName: "Invoice Bot",
  rows: [{ label: "Option", value: "Standard", testId: "order-option" }],
  amount: "$499",
  dueToday: null,
  trialDays: 0,
  isSubscription: false,
  status,
  statusLabel: LABELS[status],
  retryPath,
});

function render(data: LoaderData): string {
  // A data router: the page asks the server to re-check a pending order (useRevalidator).
  const router = createMemoryRouter([{ path: "/", element: <PaymentSuccess {...({ loaderData: data } as Props)} /> }]);
  return renderToString(<RouterProvider router={router} />);
}

const h1 = (html: string) => /<h1[^>]*>([^<]*)<\/h1>/.exec(html)?.[1];
const lead = (html: string) => /<\/h1><p[^>]*>([^<]*)<\/p>/.exec(html)?.[1];
/** Each link as [href, visible text]. */
const links = (html: string) =>
  [...html.matchAll(/<a [^>]*href="([^"]*)"[^>]*>(.*?)<\/a>/g)].map((m) => [m[1], m[2]!.replace(/<[^>]*>/g, "")]);
const titleOf = (data: LoaderData) => {
  const tags = meta({ matches: [], loaderData: data } as unknown as Parameters<typeof meta>[0]) ?? [];
  return tags.flatMap((t) => ("title" in t ? [t.title as string] : []))[0];
};

describe("payment success page", () => {
  it("keeps the paid wording for a paid order", () => {
    const data = { view: "order" as const, orderId: "cs_test_1", order: order("Paid") };
    const html = render(data);
    expect(h1(html)).toBe("Payment Successful!");
    expect(lead(html)).toBe("Thank you for your purchase. Your order is confirmed.");
    expect(html).not.toContain("Try Again");
    expect(html).not.toContain("Refresh Status");
    expect(html).toContain('data-testid="order-id">cs_test_1</dd>');
    expect(titleOf(data)).toBe("Payment Successful | AI Automation Apps");
  });

  it("without an order of the viewer's: 'Order not found', the dashboard and the apps, never 'confirmed' nor the id", () => {
    const data = { view: "not-found" as const };
    const html = render(data);
    expect(h1(html)).toBe("Order not found");
    expect(html.toLowerCase()).not.toContain("confirm");
    expect(html).not.toContain("Payment Successful");
    expect(html).not.toContain("order-id");
    expect(links(html)).toEqual([
      ["/dashboard", "Go to Dashboard"],
      ["/apps", "Browse Apps"],
    ]);
    expect(titleOf(data)).toBe("Order Not Found | AI Automation Apps");
  });

  it("signed out: asks to sign in and come back to the same order, confirming nothing", () => {
    const data = { view: "sign-in" as const, signInHref: "/auth?next=%2Fpayment-success%3Fsession_id%3Dcs_test_9" };
    const html = render(data);
    expect(h1(html)).toBe("Sign in to see your order");
    expect(html.toLowerCase()).not.toContain("confirmed");
    expect(links(html)).toContainEqual(["/auth?next=%2Fpayment-success%3Fsession_id%3Dcs_test_9", "Sign In"]);
    expect(titleOf(data)).toBe("Sign In to See Your Order | AI Automation Apps");
  });

  it("a subscription whose free trial started: confirmed, without claiming a payment", () => {
    const data = { view: "order" as const, orderId: "cs_test_4", order: order("Trial") };
    const html = render(data);
    expect(h1(html)).toBe("Your free trial has started!");
    expect(lead(html)).toContain("Your order is confirmed");
    expect(html).not.toContain("Payment Successful");
    expect(html).toContain('data-testid="order-status">Free trial started</dd>');
    expect(titleOf(data)).toBe("Free Trial Started | AI Automation Apps");
  });

  it("says a pending payment is still being confirmed, and offers a refresh of the same order", () => {
    const data = { view: "order" as const, orderId: "cs_test_2", order: order("Pending") };
    const html = render(data);
    expect(h1(html)).toBe("We&#x27;re confirming your payment");
    expect(lead(html)).toContain("still confirming your payment. Refresh this page in a moment.");
    expect(lead(html)).not.toContain("is confirmed");
    expect(links(html)).toContainEqual(["/payment-success?session_id=cs_test_2", "Refresh Status"]);
    expect(titleOf(data)).toBe("Confirming Your Payment | AI Automation Apps");
  });

  it.each([
    { status: "Declined", heading: "Payment not completed", title: "Payment Not Completed", retry: "/apps" },
    { status: "Canceled", heading: "Order canceled", title: "Order Canceled", retry: "/packages" },
  ] as const)(
    "never says 'confirmed' for a $status order, and offers a new attempt where the item was picked",
    ({ status, heading, title, retry }) => {
      const data = { view: "order" as const, orderId: "cs_test_3", order: order(status, retry) };
      const html = render(data);
      expect(h1(html)).toBe(heading);
      expect(html.toLowerCase()).not.toContain("confirm");
      expect(links(html)).toContainEqual([retry, "Try Again"]);
      expect(html).not.toContain("Refresh Status");
      // The status is in words next to the heading's, never colour alone.
      expect(html).toContain(`data-testid="order-status">${status}</dd>`);
      expect(titleOf(data)).toBe(`${title} | AI Automation Apps`);
    },
  );
});
