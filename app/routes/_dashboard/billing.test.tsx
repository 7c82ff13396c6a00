import { renderToString } from "react-dom/server";
import { createMemoryRouter, RouterProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { pricePlans } from "~/catalogue/plan-prices";
import BillingPage from "./billing";

type Props = Parameters<typeof BillingPage>[0];
type LoaderData = Props["loaderData"];
type Summary = NonNullable<LoaderData["subscription"]>;

const base: Summary = {
  active: false,
  planName: "Free Trial",
  planType: null,
  monthlyPrice: null,
  currentPeriodEnd: null,
  reachLimit: null,
  trialEndsAt: null,
  cancelAtPeriodEnd: false,
  otherSubscriptions: [],
  otherSubscriptionActive: false,
  hasBillingAccount: false,
};

function render(
  subscription: Partial<Summary>,
  {
    portal = "stripe",
    hasPayments = false,
    changesPlan = false,
    billingPlans = pricePlans({}).billingPlans,
  }: {
    portal?: "stripe" | "local";
    hasPayments?: boolean;
    changesPlan?: boolean;
    billingPlans?: LoaderData["billingPlans"];
  } = {},
): string {
  const loaderData = {
    subscription: { ...base, ...subscription },
    history: [],
    trials: [],
    portal,
    hasPayments,
    changesPlan,
    billingPlans,
    loadError: false,
  } as LoaderData;
  const router = createMemoryRouter([{ path: "/", element: <BillingPage {...({ loaderData } as Props)} /> }]);
  return renderToString(<RouterProvider router={router} />);
}

const text = (html: string) =>
  html
    .replace(/<!-- -->/g, "")
    .replace(/<[^>]*>/g, " ")
    .replace(/\s+/g, " ");
const testId = (html: string, id: string) =>
  text(new RegExp(`data-testid="${id}"[^>]*>([\\s\\S]*?)</(p|span|dd)>`).exec(html)?.[1] ?? "").trim();

describe("billing page summary", () => {
  it("a customer paying monthly for add-ons or the distributor program sees them, and Manage Billing with a Stripe customer", () => {
    const html = render({
      otherSubscriptions: [
        { id: "o1", itemName: "2 add-ons", kind: "addons", monthlyPrice: 9800, status: "active", active: true },
        {
          id: "o2",
          itemName: "AI Distributor Program",
          kind: "distributor",
          monthlyPrice: 19900,
          status: "past_due",
          active: false,
        },
      ],
      otherSubscriptionActive: true,
      hasBillingAccount: true,
    });
    const page = text(html);
    expect(testId(html, "plan-status")).toBe("Active");
    expect(testId(html, "current-plan-name")).toBe("No billing plan");
    expect(page).not.toContain("No paid subscription yet");
    expect(page).toContain("You have 1 active paid subscription.");
    expect(page).toContain("2 add-ons $98/month Active");
    expect(page).toContain("AI Distributor Program $199/month Past due");
    expect(page).toContain("Manage Billing");
    expect(page).not.toContain("Billing management opens once you have an active subscription.");
  });

  it("with Stripe but without a Stripe customer (paid in the test checkout) the subscriptions are listed but no portal is offered", () => {
    const html = render({
      otherSubscriptions: [
        { id: "o1", itemName: "Invoice Bot", kind: "app", monthlyPrice: 4900, status: "active", active: true },
      ],
      otherSubscriptionActive: true,
    });
    expect(text(html)).toContain("Invoice Bot $49/month Active");
    expect(text(html)).not.toContain("Manage Billing");
    expect(text(html)).toContain("Your subscriptions were paid with the test checkout, which has no billing portal.");
    expect(text(html)).not.toContain("Billing management opens once you have an active subscription.");
  });

  it("keeps the spec's texts for a plan subscriber and for a customer with nothing paid", () => {
    const plan = render({ active: true, planName: "Pro", planType: "pro", monthlyPrice: 49900, reachLimit: 100_000 });
    expect(testId(plan, "current-plan-name")).toBe("Pro");
    expect(testId(plan, "plan-status")).toBe("Active");
    expect(text(plan)).toContain("Manage Billing");
    expect(plan).not.toContain('data-testid="paid-subscriptions"');

    const none = render({});
    expect(testId(none, "current-plan-name")).toBe("Free Trial");
    expect(testId(none, "plan-status")).toBe("Trial");
    expect(text(none)).toContain("No paid subscription yet. Choose a plan below to upgrade.");
    expect(text(none)).toContain("Billing management opens once you have an active subscription.");
    expect(text(none)).not.toContain("Manage Billing");
  });

  it("with the local provider, Manage Billing is a link to the local page once there is anything to manage", () => {
    const subscriber = render(
      {
        otherSubscriptions: [
          { id: "o1", itemName: "Invoice Bot", kind: "app", monthlyPrice: 4900, status: "active", active: true },
        ],
        otherSubscriptionActive: true,
      },
      { portal: "local" },
    );
    expect(subscriber).toMatch(/<a[^>]*href="\/dashboard\/billing\/manage"[^>]*>.*?Manage Billing<\/a>/);
    expect(text(subscriber)).not.toContain("which has no billing portal");
    // A customer whose only payment was one-time (no subscription): its receipts are there.
    expect(render({}, { portal: "local", hasPayments: true })).toContain('href="/dashboard/billing/manage"');
    expect(text(render({ active: true, planName: "Pro", planType: "pro" }, { portal: "local" }))).toContain("Manage Billing");
    const none = render({}, { portal: "local" });
    expect(none).not.toContain("/dashboard/billing/manage");
    expect(text(none)).toContain("Billing management opens once you have an active subscription.");
  });

  it("a subscriber's other plans say Switch to and the page says the change is prorated; a non-subscriber's say Choose", () => {
    const pro = { active: true, planName: "Pro", planType: "pro", monthlyPrice: 49900, reachLimit: 100_000 };
    const subscriber = text(render(pro, { portal: "local", changesPlan: true }));
    expect(subscriber).toContain("Switch to Basic");
    expect(subscriber).toContain("Switch to Enterprise");
    expect(subscriber).toContain("Current Plan");
    expect(subscriber).not.toContain("Choose Enterprise");
    expect(subscriber).toContain("you see the prorated amount before you confirm");
    const buyer = text(render({}, { portal: "local" }));
    expect(buyer).toContain("Choose Enterprise");
    expect(buyer).toContain("Checkout opens in a new tab.");
  });

  it("each plan card shows the price the loader read, not the list price", () => {
    const listed = text(render({}));
    expect(listed).toMatch(/Pro Popular \$499 \/month/);
    const changed = text(
      render(
        {},
        {
          billingPlans: pricePlans({ "plan-pro": { amount: 59950, originalAmount: null, setupFee: null, monthlyAmount: null } })
            .billingPlans,
        },
      ),
    );
    expect(changed).toMatch(/Pro Popular \$599\.50 \/month/);
    expect(changed).not.toContain("$499");
    expect(changed).toMatch(/Basic \$99 \/month/);
  });
});
