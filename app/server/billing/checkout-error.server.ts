import type { CheckoutRefusalCode } from "~/lib/checkout-codes";

/** A checkout refused by the rules below; its code is one of the shared refusal codes (app/lib/checkout-codes.ts). */
export class CheckoutError extends Error {
  constructor(
    readonly code: CheckoutRefusalCode,
    message: string,
    readonly status = 400,
  ) {
    super(message);
    this.name = "CheckoutError";
  }
}

export const DISTRIBUTOR_ALREADY_OWNED = "You are already a member of the AI Distributor Program.";

export const ALREADY_PAYING = "This purchase has already been paid; it will appear on your account shortly.";
