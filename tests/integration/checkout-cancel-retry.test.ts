import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loader as paymentCancelLoader } from "~/routes/_marketing/payment-cancel";
import { paymentCancelRetryPath } from "~/server/billing/checkout-paths.server";
import { createCheckout } from "~/server/billing/create-checkout.server";
import { seedCatalogue } from "~/server/catalogue/seed.server";
import { orders, user } from "~/server/db/schema";
import { engine, freshDatabase } from "./support/db";

const tryAgain = (cancelPath: string) => {
  const request = new Request(`http://localhost:3000${cancelPath}`);
  return (paymentCancelLoader({ request } as Parameters<typeof paymentCancelLoader>[0]) as { retry: string }).retry;
};

/** Try Again after a cancelled package checkout returns to the packages page with the buyer's choices. */
describe(`package checkout cancel address (${engine})`, () => {
  let database: Awaited<ReturnType<typeof freshDatabase>>;
  beforeAll(async () => {
    database = await freshDatabase();
    await seedCatalogue(database.db);
    await database.db.insert(user).values({ id: "retry-user", name: "Retry", email: "retry@example.com", emailVerified: true });
  });
  afterAll(async () => {
    await database.cleanup();
  });

  it("the order's cancel path carries its validated choices, and Try Again leads back to them", async () => {
    const { orderId } = await createCheckout(
      database.db,
      { id: "retry-user", email: "retry@example.com" },
      {
        kind: "package",
        planId: "professional",
        mode: "monthly",
        rush: true,
        goal: "add_ai",
        timeline: "2weeks",
        industry: "real estate & mortgage",
      },
    );
    const [order] = await database.db.select().from(orders).where(eq(orders.id, orderId));
    const retry = new URL(order!.cancelPath, "http://x").searchParams.get("retry");
    expect(new URL(order!.cancelPath, "http://x").pathname).toBe("/payment-cancel");
    const expected = "/packages?industry=Real+Estate+%26+Mortgage&goal=add_ai&timeline=2weeks&mode=monthly";
    expect(retry).toBe(expected);
    expect(tryAgain(order!.cancelPath)).toBe(expected);
  });

  it("unknown choices are left out; without a funnel the address is the mode alone", async () => {
    const { orderId } = await createCheckout(
      database.db,
      { id: "retry-user", email: "retry@example.com" },
      { kind: "package", planId: "starter", mode: "one-time", rush: false, goal: "nope", industry: "<script>" },
    );
    const [order] = await database.db.select().from(orders).where(eq(orders.id, orderId));
    expect(tryAgain(order!.cancelPath)).toBe("/packages?mode=one-time");
  });

  it("never follows an arbitrary address from the query", () => {
    for (const bad of [
      null,
      "",
      "https://evil.example/packages",
      "//evil.example/packages?goal=add_ai",
      "/packages/../admin",
      "/packagesX?goal=add_ai",
      "/dashboard",
      "javascript:alert(1)",
      "/\\evil.example/packages",
    ])
      expect(paymentCancelRetryPath(bad)).toBe("/packages");
    expect(paymentCancelRetryPath("/packages?goal=add_ai&next=https://evil.example&industry=x")).toBe("/packages?goal=add_ai");
    expect(tryAgain("/payment-cancel")).toBe("/packages");
    expect(tryAgain(`/payment-cancel?retry=${encodeURIComponent("https://evil.example/")}`)).toBe("/packages");
  });
});
