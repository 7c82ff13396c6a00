import { and, eq, inArray, sql } from "drizzle-orm";
import { contactsAlreadyIncludedMessage, planIncludesContacts } from "~/catalogue/plans";
import {
  quoteAddons,
  quoteApp,
  quoteBillingPlan,
  quoteDistributor,
  quoteMemberPlan,
  quotePackage,
  quoteScalingTier,
  scalingTierName,
} from "~/catalogue/pricing";
import type { CheckoutRequest } from "~/lib/checkout-request";
import { getApp } from "../catalogue/apps.server";
import { currentAddonPrice } from "../catalogue/current-price.server";
import { currentPlanPrices } from "../catalogue/current-plan-prices.server";
import type { Db } from "../db/client.server";
import { addonLibrary } from "../db/schema";
import { CheckoutError, DISTRIBUTOR_ALREADY_OWNED } from "./checkout-error.server";
import { packagesRetryPath, withSession } from "./checkout-paths.server";
import { holdsMemberPlan, memberPlanItemName } from "./member-plans.server";
import { hadTrial } from "~/catalogue/entitlements";
import { type Entitlements, getEntitlements } from "./entitlements.server";

/** Everything an order row needs besides its owner, ids and provider. */
export interface OrderDraft {
  kind: CheckoutRequest["kind"];
  itemId: string;
  itemName: string;
  pricingTab: string | null;
  amount: number;
  isSubscription: boolean;
  trialDays: number;
  setupFee: number;
  details: Record<string, unknown>;
  successPath: string;
  cancelPath: string;
}

/**
 * Prices one request from the catalogue at its current prices (an app's, an add-on's and a plan's
 * are read from the database at this moment; the order row copies the amount, so a later change
 * never touches it). Unknown, inactive or already owned items are refused. What
 * the account holds is read once (getEntitlements) and answers every ownership question, and the
 * one-free-trial-per-item rule: cancelling during the trial and buying again would otherwise give
 * the item away, three days at a time.
 */
export async function quoteOrder(db: Db, userId: string, req: CheckoutRequest): Promise<OrderDraft> {
  const held = await getEntitlements(db, userId);
  const draft = await quote(db, userId, held, req);
  return draft.isSubscription && draft.trialDays > 0 && hadTrial(held, draft.kind, draft.itemId)
    ? { ...draft, trialDays: 0 }
    : draft;
}

async function quote(db: Db, userId: string, held: Entitlements, req: CheckoutRequest): Promise<OrderDraft> {
  switch (req.kind) {
    case "app": {
      const app = await getApp(db, req.appId);
      if (!app) throw new CheckoutError("unknown_item", "Invalid app data");
      const q = quoteApp(app, req.tab);
      return {
        kind: "app",
        itemId: String(app.id),
        itemName: app.name,
        pricingTab: req.tab,
        amount: q.amount,
        isSubscription: q.isSubscription,
        trialDays: q.trialDays,
        setupFee: 0,
        details: { timeline: q.timeline, delivery: q.delivery },
        successPath: withSession("/payment-success"),
        cancelPath: "/apps?canceled=true",
      };
    }
    case "package": {
      // At the amounts it sells at now, which the packages page showed: the multipliers apply to them.
      const plan = (await currentPlanPrices(db)).packages.find((p) => p.id === req.planId);
      if (!plan) throw new CheckoutError("unknown_item", "Unknown package");
      const q = quotePackage(plan, { mode: req.mode, rush: req.rush, goal: req.goal, timeline: req.timeline });
      return {
        kind: "package",
        itemId: plan.id,
        itemName: plan.name,
        pricingTab: q.pricingType,
        amount: q.amount,
        isSubscription: q.isSubscription,
        trialDays: q.trialDays,
        setupFee: 0,
        details: {
          mode: req.mode,
          // The delivery sold: a Rush funnel timeline is rush whichever button was pressed.
          rush: q.rush,
          multiplier: q.multiplier,
          timeline: q.timeline,
          goal: req.goal ?? null,
          funnelTimeline: req.timeline ?? null,
          industry: req.industry ?? null,
        },
        successPath: withSession("/payment-success"),
        // Try Again goes back to the packages page as the buyer left it (paymentCancelRetryPath).
        cancelPath: `/payment-cancel?retry=${encodeURIComponent(
          packagesRetryPath({ industry: req.industry, goal: req.goal, timeline: req.timeline, mode: req.mode }),
        )}`,
      };
    }
    case "plan": {
      const plan = (await currentPlanPrices(db)).billingPlans.find((p) => p.type === req.planType);
      if (!plan) throw new CheckoutError("unknown_item", "Unknown plan");
      const q = quoteBillingPlan(plan);
      return {
        kind: "plan",
        itemId: plan.type,
        itemName: `${plan.name} Plan`,
        pricingTab: null,
        ...q,
        details: { planType: plan.type, contacts: plan.contacts },
        successPath: withSession("/dashboard/billing?success=true"),
        cancelPath: "/dashboard/billing?canceled=true",
      };
    }
    case "member": {
      const plan = (await currentPlanPrices(db)).trialPlans.find((p) => p.id === req.tier && p.price > 0);
      if (!plan) throw new CheckoutError("unknown_item", "Unknown plan");
      if (await holdsMemberPlan(db, userId, plan.id))
        throw new CheckoutError("already_owned", "Your account already has this plan", 409);
      const q = quoteMemberPlan(plan);
      return {
        kind: "member",
        itemId: plan.id,
        itemName: memberPlanItemName(plan),
        pricingTab: null,
        ...q,
        details: { tier: plan.id, originalPrice: plan.originalPrice },
        successPath: withSession("/dashboard/billing?success=true"),
        cancelPath: `/payment-cancel?retry=${encodeURIComponent(packagesRetryPath({ tier: plan.id }))}`,
      };
    }
    case "scaling": {
      const tier = (await currentPlanPrices(db)).scalingTiers[req.tierIndex];
      if (!tier) throw new CheckoutError("unknown_item", "Unknown tier");
      // The same contacts as the plan today is nothing to buy; the page shows the tier as included.
      if (planIncludesContacts({ active: true, reachLimit: (held.plan ?? held.scalingTier)?.reachLimit ?? null }, tier.contacts))
        throw new CheckoutError("included_in_plan", contactsAlreadyIncludedMessage(tier.contacts), 409);
      const q = quoteScalingTier(tier);
      return {
        kind: "scaling",
        itemId: String(req.tierIndex),
        itemName: scalingTierName(tier),
        pricingTab: null,
        ...q,
        details: { tierIndex: req.tierIndex, contacts: tier.contacts, sms: tier.sms, emails: tier.emails },
        successPath: withSession("/dashboard/scaling?success=true"),
        cancelPath: "/dashboard/scaling?canceled=true",
      };
    }
    case "addons": {
      const ids = [...new Set(req.addonIds)];
      if (ids.length !== req.addonIds.length) throw new CheckoutError("invalid_input", "Each add-on can be in the cart once");
      const price = currentAddonPrice(db);
      const rows = await db
        .select({ id: addonLibrary.id, name: addonLibrary.name, monthlyPrice: price.monthlyPrice })
        .from(addonLibrary)
        .leftJoinLateral(price.subquery, sql`true`)
        .where(and(inArray(addonLibrary.id, ids), eq(addonLibrary.isActive, true)));
      if (rows.length !== ids.length) throw new CheckoutError("unknown_item", "Unknown or unavailable add-on");
      if (held.addons.some((a) => ids.includes(a.addonId)))
        throw new CheckoutError("already_owned", "You already own one of these add-ons", 409);
      // Keep the buyer's order so the order name lists add-ons as they were picked.
      const byId = new Map(rows.map((r) => [r.id, r]));
      const picked = ids.map((id) => byId.get(id)!);
      const q = quoteAddons(picked);
      return {
        kind: "addons",
        itemId: ids.join(","),
        itemName: picked.length === 1 ? picked[0]!.name : `${picked.length} add-ons: ${picked.map((a) => a.name).join(", ")}`,
        pricingTab: null,
        ...q,
        details: { addons: picked.map((a) => ({ id: a.id, name: a.name, monthlyPrice: a.monthlyPrice })) },
        successPath: withSession("/dashboard/addons?success=true"),
        cancelPath: "/dashboard/addons?canceled=true",
      };
    }
    case "distributor": {
      // One membership per account (docs/decisions/0009): a second would be a second $997 setup fee
      // and a second monthly subscription for the same program.
      if (held.distributor !== null) throw new CheckoutError("already_owned", DISTRIBUTOR_ALREADY_OWNED, 409);
      const q = quoteDistributor((await currentPlanPrices(db)).distributor);
      return {
        kind: "distributor",
        itemId: "distributor",
        itemName: "AI Distributor Program",
        pricingTab: null,
        ...q,
        details: { email: req.email.toLowerCase(), fullName: req.fullName, businessName: req.businessName },
        successPath: withSession("/distributor-success"),
        cancelPath: "/distributors?canceled=true",
      };
    }
  }
}
