import { BadgePercent } from "lucide-react";
import { formatDollars } from "~/catalogue/pricing";

export interface MemberTierData {
  name: string;
  /** Monthly cents after the member discount. */
  price: number;
  /** Monthly cents before it. */
  originalPrice: number;
  /** e.g. 30 */
  discountPercent: number;
}

/** Shown when the dashboard's trial overlay sends an upgrade here (selectedTier + memberDiscount 0.3). */
export function MemberDiscountNote({ tier }: { tier: MemberTierData }) {
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
        .
      </p>
    </div>
  );
}
