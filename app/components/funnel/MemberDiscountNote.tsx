import { BadgePercent } from "lucide-react";
import { Link } from "react-router";
import { formatDollars } from "~/catalogue/pricing";

export interface MemberTierData {
  /** 'growth' or 'pro'. */
  id: string;
  name: string;
  /** Monthly cents after the member discount. */
  price: number;
  /** Monthly cents before it. */
  originalPrice: number;
  /** e.g. 30 */
  discountPercent: number;
  features: string[];
}

/** Shown when the dashboard's trial overlay sends an upgrade here (selectedTier + memberDiscount 0.3). */
export function MemberDiscountNote({ tier, buyHref }: { tier: MemberTierData; buyHref?: string }) {
  return (
    <div role="note" className="flex items-start gap-3 rounded-xl border border-emerald-300 bg-emerald-50 p-4 text-emerald-950">
      <BadgePercent className="mt-0.5 size-5 shrink-0 text-emerald-700" aria-hidden />
      <p className="text-sm">
        <strong>Upgrading to {tier.name}:</strong> your {tier.discountPercent}% member discount applies,{" "}
        <strong>{formatDollars(tier.price)}/month</strong> instead of{" "}
        <s>
          <span className="sr-only">was </span>
          {formatDollars(tier.originalPrice)}/month
        </s>
        .{" "}
        {buyHref && (
          <Link to={buyHref} className="font-semibold underline underline-offset-4">
            Buy the {tier.name} Member Plan
          </Link>
        )}
      </p>
    </div>
  );
}
