import { Check, Loader2, X } from "lucide-react";
// Add-on prices may have cents (the console takes them): shown as charged, "$39.50", never rounded.
import { formatDollars } from "~/catalogue/pricing";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { cn } from "~/lib/utils";
import type { AddonListing } from "~/catalogue/addons";
import { useCart } from "./cart";
import { checkoutClick } from "./checkout";
import { CheckoutFormError } from "./CheckoutFormError";

/** Spec section 2: the first 3 features plus '+N more features'. */
const VISIBLE_FEATURES = 3;

export function AddonCard({
  addon,
  owned,
  processing,
  disabled,
  error,
  onSubscribe,
}: {
  addon: AddonListing;
  owned: boolean;
  /** This card's direct checkout is in flight. */
  processing: boolean;
  /** Another checkout is in flight. */
  disabled: boolean;
  /** This card's failed no-JavaScript checkout (the page's action answer). */
  error?: string | null;
  onSubscribe: () => void;
}) {
  const cart = useCart();
  const inCart = cart.has(addon.id);
  const headingId = `addon-${addon.id}`;
  const more = addon.features.length - VISIBLE_FEATURES;

  return (
    <article
      aria-labelledby={headingId}
      data-testid="addon-card"
      className={cn(
        "flex h-full flex-col rounded-xl border bg-card p-4 shadow-sm",
        inCart && "border-primary ring-2 ring-primary/20",
        owned && "bg-muted/40",
      )}
    >
      <div className="flex items-start justify-between gap-2">
        <h3 id={headingId} className="font-semibold leading-snug">
          {addon.name}
        </h3>
        {owned ? (
          <Badge variant="success">
            <Check className="size-3" aria-hidden="true" />
            Owned
          </Badge>
        ) : null}
      </div>
      <p className="mt-1 flex flex-wrap items-center gap-2">
        <Badge variant="secondary">{addon.category}</Badge>
        <span>
          <span className="text-lg font-bold" data-testid="addon-price">
            {formatDollars(addon.monthlyPrice)}
          </span>
          <span className="text-sm text-muted-foreground">/month</span>
        </span>
      </p>
      <p className="mt-2 text-sm text-muted-foreground">{addon.description}</p>
      <ul className="mt-3 grid flex-1 content-start gap-1 text-sm" aria-label={`${addon.name} features`}>
        {addon.features.slice(0, VISIBLE_FEATURES).map((f) => (
          <li key={f} className="flex items-start gap-2">
            <span className="icon-check mt-0.5 size-4 shrink-0 text-emerald-600" aria-hidden="true" />
            {f}
          </li>
        ))}
        {more > 0 ? (
          <li className="pl-6 text-muted-foreground">
            +{more} more {more === 1 ? "feature" : "features"}
          </li>
        ) : null}
      </ul>
      <div className="mt-4 flex flex-wrap gap-2">
        {owned ? (
          <Button type="button" variant="outline" className="flex-1" disabled aria-describedby={headingId}>
            <Check aria-hidden="true" />
            Owned
          </Button>
        ) : (
          <>
            {inCart ? (
              <Button
                type="button"
                variant="outline"
                className="flex-1"
                aria-describedby={headingId}
                onClick={() => cart.removeItem(addon.id)}
              >
                <X aria-hidden="true" />
                Remove from cart
              </Button>
            ) : (
              <Button
                type="button"
                variant="outline"
                className="flex-1"
                aria-describedby={headingId}
                onClick={() =>
                  cart.addItem({
                    id: addon.id,
                    type: "addon",
                    name: addon.name,
                    price: addon.monthlyPrice,
                    isSubscription: true,
                    originalItem: { category: addon.category },
                  })
                }
              >
                <span className="icon-plus size-4 shrink-0" aria-hidden="true" />
                Add to cart
              </Button>
            )}
            {/* A form for a click before hydration or without JavaScript (ADR 0016): the id only. */}
            <form method="post" className="flex flex-1">
              <input type="hidden" name="addonIds" value={addon.id} />
              <Button
                type="submit"
                className="flex-1"
                disabled={disabled || processing}
                aria-describedby={headingId}
                aria-busy={processing || undefined}
                onClick={checkoutClick(onSubscribe)}
              >
                {processing ? (
                  <Loader2 className="animate-spin" aria-hidden="true" />
                ) : (
                  <span className="icon-shopping-cart size-4 shrink-0" aria-hidden="true" />
                )}
                {processing ? "Processing..." : "Subscribe"}
              </Button>
            </form>
          </>
        )}
      </div>
      <CheckoutFormError message={owned ? null : (error ?? null)} className="mt-2" />
    </article>
  );
}
