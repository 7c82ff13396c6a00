/** Option lists of the callback / consultation request form (spec section 3, exact strings). */

export const PROJECT_TYPES = [
  "Web Application",
  "Mobile App",
  "E-commerce Platform",
  "Business Management System",
  "AI-Powered Solution",
  "Custom Integration",
  "Other",
] as const;

export const BUDGETS = [
  "$5,000 - $10,000",
  "$10,000 - $25,000",
  "$25,000 - $50,000",
  "$50,000 - $100,000",
  "$100,000+",
  "Let's discuss",
] as const;

export const TIMEFRAMES = ["ASAP", "Within 1 month", "1-3 months", "3-6 months", "6+ months", "Just exploring"] as const;

export const PREFERRED_TIMES = ["Morning (9AM-12PM)", "Afternoon (12PM-5PM)", "Evening (5PM-8PM)", "Any time"] as const;

/** Fields of a callback request, in form order (spec section 3). */
export const CALLBACK_FIELDS = [
  "firstName",
  "lastName",
  "email",
  "phone",
  "company",
  "projectType",
  "budget",
  "timeframe",
  "message",
  "preferredTime",
] as const;
export type CallbackField = (typeof CALLBACK_FIELDS)[number];

/** Spec section 5: firstName, email and phone are required; everything else is optional. */
export const REQUIRED_CALLBACK_FIELDS = ["firstName", "email", "phone"] as const satisfies readonly CallbackField[];

export const CALLBACK_REQUIRED_MESSAGE = "Please fill in required fields";

/** The required fields that are empty (after trimming), in form order. */
export function missingCallbackFields(values: Partial<Record<CallbackField, string | null | undefined>>): CallbackField[] {
  return REQUIRED_CALLBACK_FIELDS.filter((f) => !(values[f] ?? "").trim());
}

/** The marketing consent checkbox of the callback form: unchecked unless the visitor ticks it. */
export const MARKETING_CONSENT_FIELD = "marketingConsent";

/**
 * The words the visitor agrees to, shown beside the checkbox and stored with the lead when ticked
 * (the server stores its own copy, never text the browser sends). Changing them changes what future
 * consents record; leads keep the words they were given.
 */
export const MARKETING_CONSENT_TEXT =
  "Yes, email me news, offers and invitations to live trainings from AI Automation Apps. I can unsubscribe at any time.";
