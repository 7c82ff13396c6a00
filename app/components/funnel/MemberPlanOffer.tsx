import { BadgePercent, Check, LoaderCircle } from "lucide-react";
import type * as React from "react";
import { Link } from "react-router";
import { formatDollars } from "~/catalogue/pricing";
import { buttonVariants } from "~/components/ui/button";
import type { MemberTierData } from "./MemberDiscountNote";

/** How the offer's buy button behaves: a sign-in link when signed out, else a POST form the click takes over. */
export type MemberCheckout =
  | { signedIn: false; authHref: string }
  | {
      signedIn: true;
      /** The account's plan already is this one: nothing to buy. */
      owned: boolean;
      processing: boolean;
      error: string | null;
      onStart: () => void;
    };

/**
 * The member plan the trial chooser's 'Upgrade to Growth/Pro' sends here to buy: its discounted
 * monthly price beside its name (the billing page sells another 'Pro', at $499/month), and the
 * button that buys it (docs/decisions/0044-member-plans-rush-and-setup-lines.md).
 */
export function MemberPlanOffer({ tier, checkout }: { tier: MemberTierData; checkout: MemberCheckout }) {
  const price = `${formatDollars(tier.price)}/month`;
  const label = `Buy ${tier.name} (${price})`;
  const errorId = `member-${tier.id}-error`;
  const click = (e: React.MouseEvent<HTMLButtonElement>) => {
    if (!checkout.signedIn) return;
    e.preventDefault();
    checkout.onStart();
  };
  return (
    <section
      aria-labelledby="member-offer-heading"
      className="rounded-2xl border-2 border-emerald-300 bg-emerald-50 p-6 text-emerald-950"
      data-testid="member-offer"
    >
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <p className="inline-flex items-center gap-2 text-sm font-semibold">
            <BadgePercent className="size-4 text-emerald-700" aria-hidden />
            Member plan, {tier.discountPercent}% member discount
          </p>
          <h2 id="member-offer-heading" className="mt-1 text-2xl font-bold">
            {tier.name} Member Plan <span className="text-lg font-semibold">({price})</span>
          </h2>
          <p className="mt-1 text-sm">
            <strong>{price}</strong> instead of <s>{formatDollars(tier.originalPrice)}/month</s>, billed monthly, cancel anytime.
          </p>
        </div>
        <div className="flex flex-col items-stretch gap-2">
          {!checkout.signedIn ? (
            <Link to={checkout.authHref} className={buttonVariants({ size: "lg" })}>
              {label}
            </Link>
          ) : checkout.owned ? (
            <p className="rounded-md bg-white px-4 py-2 text-sm font-semibold" data-testid="member-owned">
              Your current plan
            </p>
          ) : (
            <form method="post" aria-busy={checkout.processing}>
              <input type="hidden" name="tier" value={tier.id} />
              <button
                type="submit"
                className={buttonVariants({ size: "lg" })}
                disabled={checkout.processing}
                aria-describedby={checkout.error ? errorId : undefined}
                onClick={click}
              >
                {checkout.processing ? (
                  <span className="inline-flex items-center gap-2">
                    <LoaderCircle className="motion-safe:animate-spin" aria-hidden />
                    Processing...
                  </span>
                ) : (
                  label
                )}
              </button>
            </form>
          )}
        </div>
      </div>
      <ul className="mt-4 grid gap-2 text-sm sm:grid-cols-2">
        {tier.features.map((f) => (
          <li key={f} className="flex gap-2">
            <Check className="mt-0.5 size-4 shrink-0 text-emerald-700" aria-hidden />
            {f}
          </li>
        ))}
      </ul>
      {checkout.signedIn && checkout.error && (
        <p id={errorId} role="alert" className="mt-3 text-sm font-medium text-destructive" data-testid="member-checkout-error">
          {checkout.error}
        </p>
      )}
    </section>
  );
}
