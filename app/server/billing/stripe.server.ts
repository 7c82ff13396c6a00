import type { CheckoutProvider } from "./provider.server";

/** Stripe provider: being written (issue 4). Until then a Stripe configuration fails loudly at checkout. */
export function stripeProvider(): CheckoutProvider {
  throw new Error("The Stripe provider is not available in this build");
}
