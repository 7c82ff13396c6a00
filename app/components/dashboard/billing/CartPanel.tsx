import { CheckCircle2, Info, Loader2, ShoppingCart, Trash2, X } from "lucide-react";
// Add-on prices may have cents (the console takes them): shown as charged, "$39.50", never rounded.
import { formatDollars } from "~/catalogue/pricing";
import { Button } from "~/components/ui/button";
import { ADDON_CART_MINIMUM } from "~/catalogue/addons";
import { cn } from "~/lib/utils";
import { useCart } from "./cart";
import { checkoutClick } from "./checkout";
import { CheckoutFormError } from "./CheckoutFormError";

const plural = (n: number) => `${n} add-on${n === 1 ? "" : "s"}`;

/** The cart: items, total per month, the 3-add-on minimum and checkout of the whole cart. */
export function CartPanel({
  onCheckout,
  processing,
  error,
}: {
  onCheckout: () => void;
  processing: boolean;
  /** The cart's failed no-JavaScript checkout (the page's action answer). */
  error?: string | null;
}) {
  const cart = useCart();
  const count = cart.items.length;

  return (
    <section aria-labelledby="cart-heading" className="rounded-xl border bg-card p-4 shadow-sm" data-testid="cart">
      <div className="flex items-center justify-between gap-2">
        <h2 id="cart-heading" className="flex items-center gap-2 whitespace-nowrap text-lg font-semibold">
          <ShoppingCart className="size-5" aria-hidden="true" />
          Your cart
          <span className="rounded-full bg-muted px-2 text-sm font-medium" data-testid="cart-count">
            {count}
            <span className="sr-only"> {count === 1 ? "item" : "items"}</span>
          </span>
        </h2>
        {count > 0 ? (
          <Button type="button" variant="ghost" size="sm" className="px-2" onClick={cart.clearCart}>
            <Trash2 aria-hidden="true" />
            Clear cart
          </Button>
        ) : null}
      </div>

      {count === 0 ? (
        <p className="mt-3 text-sm text-muted-foreground">
          Your cart is empty. Add at least {ADDON_CART_MINIMUM} add-ons to check out together, or subscribe to one directly from
          its card.
        </p>
      ) : (
        <ul className="mt-3 grid gap-2" aria-label="Add-ons in your cart">
          {cart.items.map((item) => (
            <li key={item.id} className="flex items-center justify-between gap-2 rounded-md bg-muted/50 py-1 pl-3 pr-1 text-sm">
              <span className="min-w-0 flex-1 truncate font-medium">{item.name}</span>
              <span className="shrink-0 tabular-nums text-muted-foreground">{formatDollars(item.price)}/mo</span>
              <Button
                type="button"
                variant="ghost"
                size="icon"
                className="size-8 shrink-0"
                aria-label={`Remove ${item.name} from cart`}
                onClick={() => cart.removeItem(item.id)}
              >
                <X aria-hidden="true" />
              </Button>
            </li>
          ))}
        </ul>
      )}

      <div className="mt-4 flex items-baseline justify-between border-t pt-3">
        <span className="text-sm text-muted-foreground">Total</span>
        <span className="text-xl font-bold tabular-nums" data-testid="cart-total">
          {formatDollars(cart.total)}
          <span className="text-sm font-normal text-muted-foreground">/month</span>
        </span>
      </div>

      <p
        id="cart-minimum"
        aria-live="polite"
        className={cn(
          "mt-3 flex items-start gap-2 rounded-md px-3 py-2 text-sm",
          cart.minimumMet ? "bg-emerald-50 text-emerald-900" : "bg-amber-50 text-amber-900",
        )}
        data-testid="cart-minimum"
      >
        {cart.minimumMet ? (
          <CheckCircle2 className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
        ) : (
          <Info className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
        )}
        {cart.minimumMet
          ? `Minimum of ${ADDON_CART_MINIMUM} add-ons met`
          : `Add ${cart.remaining} more add-on${cart.remaining === 1 ? "" : "s"} to meet the minimum of ${ADDON_CART_MINIMUM}`}
      </p>

      {/* Posts the cart's ids (repeated fields) when clicked before the page's JavaScript takes over (ADR 0016). */}
      <form method="post" className="mt-3 grid gap-2">
        {cart.items
          .filter((item) => item.type === "addon")
          .map((item) => (
            <input key={item.id} type="hidden" name="addonIds" value={item.id} />
          ))}
        <Button
          type="submit"
          className="w-full"
          disabled={!cart.minimumMet || processing}
          aria-describedby="cart-minimum"
          aria-busy={processing || undefined}
          onClick={checkoutClick(onCheckout)}
        >
          {processing ? <Loader2 className="animate-spin" aria-hidden="true" /> : null}
          {processing ? "Processing..." : `Checkout ${plural(count)}`}
        </Button>
        <CheckoutFormError message={error ?? null} />
      </form>
    </section>
  );
}
