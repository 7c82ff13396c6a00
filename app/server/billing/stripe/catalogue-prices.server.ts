import type { Stripe } from "stripe";
import { type CatalogueLine, type CatalogueProduct, catalogueLinesOf } from "./catalogue-items.server";

/**
 * Finds or creates the Stripe Products and Prices of the catalogue (catalogue-items.server.ts says
 * which), so Checkout Sessions and plan changes name a Price instead of an inline amount.
 *
 * A Price is found by its lookup key (prices.list with lookup_keys: read-after-write, unlike the
 * search API) and created when missing, under an idempotency key made of the lookup key, so two
 * instances creating the same Price at once get one Price. Found ids are kept in memory: a Price
 * never changes, so the map of key -> id never goes stale; a restart only costs one list call per
 * key.
 */

const priceIds = new Map<string, string>();
const inFlight = new Map<string, Promise<string>>();
const products = new Set<string>();

/** Tests start each file from an empty Stripe. */
export function forgetCataloguePrices() {
  priceIds.clear();
  inFlight.clear();
  products.clear();
}

const codeOf = (error: unknown) => (error as { code?: string }).code;

/**
 * Creates the product with its fixed id unless it exists, and gives an existing one the catalogue's
 * current name: an app renamed in the console is named anew on Stripe's checkout page, receipts
 * and reports. Known products are remembered with their name, so a rename is seen at once.
 */
async function ensureProduct(stripe: Stripe, product: CatalogueProduct): Promise<string> {
  const known = `${product.id}\n${product.name}`;
  if (products.has(known)) return product.id;
  let existing: Stripe.Product | null = null;
  try {
    existing = await stripe.products.retrieve(product.id);
  } catch (error) {
    if (codeOf(error) !== "resource_missing") throw error;
    try {
      await stripe.products.create(
        { id: product.id, name: product.name, metadata: product.metadata },
        { idempotencyKey: `catalogue-product-${product.id}` },
      );
    } catch (createError) {
      // Another instance created it between our read and our create.
      if (codeOf(createError) !== "resource_already_exists") throw createError;
    }
  }
  if (existing && existing.name !== product.name) await stripe.products.update(product.id, { name: product.name });
  products.add(known);
  return product.id;
}

async function listed(stripe: Stripe, lookupKey: string): Promise<string | null> {
  const found = await stripe.prices.list({ lookup_keys: [lookupKey], active: true, limit: 1 });
  return found.data[0]?.id ?? null;
}

/** The id of the line's catalogue Price, created (with its Product) when Stripe has none. */
export async function cataloguePriceId(
  stripe: Stripe,
  line: CatalogueLine & { lookupKey: string },
): Promise<{ id: string; created: boolean }> {
  // Even for a known Price: its product may have been renamed since (remembered, so this is free).
  await ensureProduct(stripe, line.product);
  const known = priceIds.get(line.lookupKey);
  if (known) return { id: known, created: false };
  let created = false;
  const pending =
    inFlight.get(line.lookupKey) ??
    (async () => {
      const existing = await listed(stripe, line.lookupKey);
      if (existing) return existing;
      try {
        const price = await stripe.prices.create(
          {
            product: line.product.id,
            currency: line.currency,
            unit_amount: line.unitAmount,
            ...(line.interval ? { recurring: { interval: line.interval } } : {}),
            lookup_key: line.lookupKey,
            metadata: line.product.metadata,
          },
          { idempotencyKey: `catalogue-price-${line.lookupKey}` },
        );
        created = true;
        return price.id;
      } catch (error) {
        // The key is taken: another creator won (outside the idempotency key's day). Use its Price.
        const winner = await listed(stripe, line.lookupKey);
        if (winner) return winner;
        throw error;
      }
    })();
  inFlight.set(line.lookupKey, pending);
  try {
    const id = await pending;
    priceIds.set(line.lookupKey, id);
    return { id, created };
  } finally {
    inFlight.delete(line.lookupKey);
  }
}

/** One Checkout line item: `price` for a catalogue Price, else `price_data` naming the item's Product. */
async function checkoutLineItem(stripe: Stripe, line: CatalogueLine): Promise<Stripe.Checkout.SessionCreateParams.LineItem> {
  if (line.lookupKey) return { quantity: 1, price: (await cataloguePriceId(stripe, { ...line, lookupKey: line.lookupKey })).id };
  return {
    quantity: 1,
    price_data: {
      currency: line.currency,
      unit_amount: line.unitAmount,
      product: await ensureProduct(stripe, line.product),
      ...(line.interval ? { recurring: { interval: line.interval } } : {}),
    },
  };
}

/** The line items of `order`'s Checkout Session. */
export async function checkoutLineItems(
  stripe: Stripe,
  order: Parameters<typeof catalogueLinesOf>[0],
): Promise<Stripe.Checkout.SessionCreateParams.LineItem[]> {
  const items: Stripe.Checkout.SessionCreateParams.LineItem[] = [];
  for (const line of catalogueLinesOf(order)) items.push(await checkoutLineItem(stripe, line));
  return items;
}

/** Finds or creates each line's Price (`npm run stripe:prices`): what exists at Stripe afterwards. */
export async function ensureCataloguePrices(
  stripe: Stripe,
  lines: CatalogueLine[],
): Promise<{ lookupKey: string; priceId: string; product: string; created: boolean }[]> {
  const out = [];
  for (const line of lines) {
    if (!line.lookupKey) continue;
    const { id, created } = await cataloguePriceId(stripe, { ...line, lookupKey: line.lookupKey });
    out.push({ lookupKey: line.lookupKey, priceId: id, product: line.product.id, created });
  }
  return out;
}
