import { ADDONS } from "~/catalogue/addons";
import type { PlanCatalogue } from "~/catalogue/plan-prices";
import { scalingTierName } from "~/catalogue/pricing";
import type { OrderRow } from "../../db/schema";

/**
 * Which Stripe Product and Price each line of an order is (docs/decisions/0060-plan-changes-with-proration.md).
 * Pure: catalogue-prices.server.ts finds or creates them at Stripe.
 *
 * A catalogue item (a plan, a tier, an add-on, an app's pricing option…) is one Product with a fixed
 * id. Its Price is found by a lookup key that carries the amount, because a Stripe Price cannot
 * change: a new amount in the catalogue is a new key, so a new Price, and subscriptions on the old
 * one keep it until they change plan. An amount that is not a catalogue price (a package bought
 * through the funnel's multipliers) has no Price of its own: its line is `price_data` naming the
 * item's Product, so Stripe's reports still group it by product.
 */

export interface CatalogueProduct {
  /** Our fixed Stripe Product id: `ai_plan_pro`. */
  id: string;
  name: string;
  metadata: Record<string, string>;
}

export interface CatalogueLine {
  product: CatalogueProduct;
  currency: string;
  /** Cents. */
  unitAmount: number;
  interval: "month" | null;
  /** The Price's lookup key; null: a computed amount, sent as price_data with this product. */
  lookupKey: string | null;
}

/** `plan.pro.usd.49900.month`, `app.7.express.usd.1850000.once`: item, currency, cents, interval. */
export function priceLookupKey(item: string, currency: string, amount: number, interval: "month" | null): string {
  if (!Number.isInteger(amount) || amount < 0) throw new Error(`not an amount in cents: ${amount}`);
  return `${item}.${currency.toLowerCase()}.${amount}.${interval ?? "once"}`;
}

/** The parts of a lookup key made by priceLookupKey; null for any other key. */
export function parseLookupKey(
  key: string | null | undefined,
): { item: string; currency: string; amount: number; interval: "month" | null } | null {
  const m = /^(.+)\.([a-z]{3})\.(\d+)\.(month|once)$/.exec(key ?? "");
  if (!m) return null;
  return { item: m[1]!, currency: m[2]!, amount: Number(m[3]), interval: m[4] === "month" ? "month" : null };
}

/** Stripe Product ids take letters, digits, '_' and '-'. */
export const productIdOf = (item: string) => `ai_${item.replace(/[^a-zA-Z0-9-]+/g, "_")}`;

function product(item: string, name: string, kind: string): CatalogueProduct {
  return { id: productIdOf(item), name, metadata: { item, kind } };
}

function line(
  item: string,
  name: string,
  kind: string,
  amount: number,
  interval: "month" | null,
  currency = "usd",
): CatalogueLine {
  return {
    product: product(item, name, kind),
    currency,
    unitAmount: amount,
    interval,
    lookupKey: priceLookupKey(item, currency, amount, interval),
  };
}

/** The item key of a plan, tier or member plan: what its subscription is to ('plan.pro', 'scaling.2'). */
const planItemKey = (kind: string, itemId: string) => `${kind}.${itemId}`;

/** The line of a plan, a tier or a member plan: what a plan change moves a subscription to. */
export function planLine(
  kind: "plan" | "scaling" | "member",
  itemId: string,
  name: string,
  monthlyAmount: number,
): CatalogueLine {
  return line(planItemKey(kind, itemId), name, kind, monthlyAmount, "month");
}

/** The lines a Checkout Session of `order` sells, every amount from the order row. */
export function catalogueLinesOf(
  order: Pick<
    OrderRow,
    "kind" | "itemId" | "itemName" | "amount" | "currency" | "isSubscription" | "setupFee" | "pricingTab" | "details"
  >,
): CatalogueLine[] {
  const interval = order.isSubscription ? ("month" as const) : null;
  const lines: CatalogueLine[] = [];
  switch (order.kind) {
    case "plan":
    case "scaling":
    case "member":
      lines.push(line(planItemKey(order.kind, order.itemId), order.itemName, order.kind, order.amount, interval, order.currency));
      break;
    case "addons": {
      const addons = (order.details.addons as { id: string; name: string; monthlyPrice: number }[] | undefined) ?? [];
      // A bundle is the sum of its add-ons' prices (quoteAddons): one catalogue line per add-on.
      if (addons.length > 0 && addons.reduce((sum, a) => sum + a.monthlyPrice, 0) === order.amount) {
        for (const a of addons) lines.push(line(`addon.${a.id}`, a.name, "addon", a.monthlyPrice, interval, order.currency));
      } else {
        lines.push({
          ...line(`addon.${order.itemId}`, order.itemName, "addon", order.amount, interval, order.currency),
          lookupKey: null,
        });
      }
      break;
    }
    case "app":
      lines.push(
        line(`app.${order.itemId}.${order.pricingTab ?? "base"}`, order.itemName, "app", order.amount, interval, order.currency),
      );
      break;
    case "package": {
      const mode = order.isSubscription ? "monthly" : "once";
      const item = `package.${order.itemId}.${mode}`;
      const built = line(item, order.itemName, "package", order.amount, interval, order.currency);
      // The funnel's multipliers (and rush) make amounts that are not a list price: price_data.
      lines.push(order.details.multiplier === 1 ? built : { ...built, lookupKey: null });
      break;
    }
    case "distributor":
      lines.push(line("distributor", order.itemName, "distributor", order.amount, interval, order.currency));
      break;
    default:
      lines.push({
        ...line(`other.${order.kind}`, order.itemName, order.kind, order.amount, interval, order.currency),
        lookupKey: null,
      });
  }
  if (order.setupFee > 0) {
    // A one-time Price in a subscription session is billed once, on the first invoice.
    const item = order.kind === "distributor" ? "distributor.setup" : `${order.kind}.${order.itemId}.setup`;
    lines.push(line(item, `${order.itemName} setup fee`, "setup", order.setupFee, null, order.currency));
  }
  return lines;
}

/**
 * Every catalogue Price `npm run stripe:prices` makes sure exists: billing plans, scaling tiers,
 * member plans, the distributor program and the quick-pick packages (without the funnel's
 * multipliers) at the amounts of `plans` (the current ones, read from the database, or the list
 * prices), and add-ons. Apps' prices (hundreds of apps, four options each) are found or created at
 * their first sale.
 */
export function catalogueLines(
  plans: PlanCatalogue,
  addons: readonly { id: string; name: string; monthlyPrice: number }[] = ADDONS,
): CatalogueLine[] {
  return [
    ...plans.billingPlans.map((p) => planLine("plan", p.type, `${p.name} Plan`, p.monthlyPrice)),
    ...plans.scalingTiers.map((t, i) => planLine("scaling", String(i), scalingTierName(t), t.monthlyPrice)),
    ...plans.trialPlans.filter((p) => p.price > 0).map((p) => planLine("member", p.id, `${p.name} Member Plan`, p.price)),
    ...addons.map((a) => line(`addon.${a.id}`, a.name, "addon", a.monthlyPrice, "month")),
    line("distributor", "AI Distributor Program", "distributor", plans.distributor.monthlyFee, "month"),
    line("distributor.setup", "AI Distributor Program setup fee", "setup", plans.distributor.setupFee, null),
    ...plans.packages.flatMap((p) => [
      line(`package.${p.id}.once`, p.name, "package", p.price, null),
      line(`package.${p.id}.monthly`, p.name, "package", p.monthlyPrice, "month"),
    ]),
  ];
}
