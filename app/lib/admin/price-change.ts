/**
 * What the app and add-on edit pages share about a price change: reading the id of a scheduled
 * price to withdraw, and the line that says what a save did.
 */

/** The `priceId` of a "cancel-price" post, or null when the post is not exactly intent + priceId. */
export function withdrawnPriceId(entries: Record<string, FormDataEntryValue>): number | null {
  const { priceId } = entries;
  if (typeof priceId !== "string" || !/^[1-9]\d{0,9}$/.test(priceId) || Object.keys(entries).length !== 2) return null;
  return Number(priceId);
}

export const PRICE_WITHDRAWN = "Scheduled price withdrawn.";
export const PRICE_NOT_WITHDRAWN = "That price change is already in effect or gone: it cannot be withdrawn.";

/** The answer to a saved edit: which of the listing and the price changed, or that nothing did. */
export function savedMessage(saved: { details: boolean; price: "none" | "now" | "scheduled" }): string {
  const parts = [
    saved.details ? "Listing saved." : null,
    saved.price === "now" ? "New price in effect." : saved.price === "scheduled" ? "Price change scheduled." : null,
  ].filter(Boolean);
  return parts.length ? parts.join(" ") : "Nothing changed.";
}
