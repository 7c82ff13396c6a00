import { useEffect, useMemo, useRef } from "react";
import { PackageOpen, Search } from "lucide-react";
import { Form, Link, useActionData, useSubmit } from "react-router";
import { toast } from "sonner";
import { z } from "zod";
import { AddonCard } from "~/components/dashboard/billing/AddonCard";
import { CartPanel } from "~/components/dashboard/billing/CartPanel";
import { CartProvider, useCart } from "~/components/dashboard/billing/cart";
import {
  BILLING_ERRORS,
  formFailureText,
  later,
  useCheckout,
  useCheckoutReturn,
  useRevalidateOnFocus,
} from "~/components/dashboard/billing/checkout";
import { LoadFailed } from "~/components/dashboard/billing/LoadFailed";
import { EmptyState, PageHeader } from "~/components/dashboard/pages/common";
import { Button, buttonVariants } from "~/components/ui/button";
import { Input, NativeSelect } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { filterAddons, type AddonListing } from "~/catalogue/addons";
import { ADDON_CATEGORIES } from "~/catalogue/plans";
import { checkoutFromForm } from "~/server/billing/form-checkout.server";
import { requireUser } from "~/server/auth/session.server";
import { listActiveAddons } from "~/server/catalogue/addons.server";
import { trialStatusOfRequest } from "~/server/trial/request-trial-status.server";
import { db } from "~/server/db/client.server";
import { log, errorMessage } from "~/server/log.server";
import type { Route } from "./+types/addons";

export const meta: Route.MetaFunction = () => [
  { title: "Add-Ons Marketplace | AI Dashboard" },
  { name: "robots", content: "noindex" },
];

const query = z.object({
  q: z.string().trim().max(100).catch(""),
  category: z.enum(["All", ...ADDON_CATEGORIES]).catch("All"),
});

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const url = new URL(request.url);
  const filters = query.parse({ q: url.searchParams.get("q") ?? "", category: url.searchParams.get("category") ?? "All" });
  try {
    // The add-ons owned are the entitlements the layout's gate read for this request.
    const [addons, owned] = await Promise.all([
      listActiveAddons(db()),
      trialStatusOfRequest(request, user.id).then((s) => s.entitlements.addons.map((a) => a.addonId)),
    ]);
    return { filters, addons, owned, loadError: false };
  } catch (error) {
    log.error("add-ons load failed", { userId: user.id, error: errorMessage(error) });
    return { filters, addons: [] as AddonListing[], owned: [] as string[], loadError: true };
  }
}

/**
 * 'Subscribe' and 'Checkout N add-ons' before hydration or without JavaScript (ADR 0016): the add-on
 * ids only (repeated `addonIds` fields), priced on the server like POST /api/checkout, then a
 * redirect to the checkout in this tab. A failure renders this page with the text under the button.
 */
export async function action({ request, url }: Route.ActionArgs) {
  await requireUser(request, () => Promise.resolve("addons" as const));
  const form = await request.formData();
  // A file in place of an id is passed on as "", for the schema to refuse.
  const addonIds = form.getAll("addonIds").map((v) => (typeof v === "string" ? v.trim() : ""));
  return checkoutFromForm(
    request,
    { kind: "addons", addonIds },
    { signInNext: url.pathname + url.search, signInReason: "addons", context: { addonIds: addonIds.join(",") } },
  );
}

export default function AddonsPage({ loaderData }: Route.ComponentProps) {
  return (
    <CartProvider>
      <Marketplace {...loaderData} />
    </CartProvider>
  );
}

function Marketplace({ filters, addons, owned, loadError }: Route.ComponentProps["loaderData"]) {
  const cart = useCart();
  const submit = useSubmit();
  const formRef = useRef<HTMLFormElement>(null);
  const { pending, run } = useCheckout("addons", "addons");
  // A failed no-JavaScript checkout: its text goes under the card's Subscribe (one id) or the cart's button.
  const failure = useActionData<typeof action>();
  const failedIds = pending === null && failure ? failure.context?.addonIds : undefined;
  const failureText = failure ? formFailureText(failure, "addons") : null;
  useRevalidateOnFocus();
  useCheckoutReturn({
    success: "Add-ons activated",
    successDescription: "Your new add-ons are ready to use.",
    canceled: "Checkout canceled. You have not been charged.",
  });

  const ownedSet = useMemo(() => new Set(owned), [owned]);
  const shown = useMemo(() => filterAddons(addons, filters), [addons, filters]);
  const groups = useMemo(() => {
    const byCategory = new Map<string, AddonListing[]>();
    for (const a of shown) byCategory.set(a.category, [...(byCategory.get(a.category) ?? []), a]);
    return [...byCategory];
  }, [shown]);
  const filtered = filters.q !== "" || filters.category !== "All";

  // Add-ons bought (here or in another tab) or withdrawn leave the cart.
  // (The store is pruned, not this render's snapshot: right after hydration that is still empty.)
  const { prune } = cart;
  useEffect(() => {
    if (loadError) return;
    const sold = new Set(addons.map((a) => a.id));
    prune((item) => item.type !== "addon" || (sold.has(item.id) && !ownedSet.has(item.id)));
  }, [addons, ownedSet, loadError, prune]);

  useEffect(() => {
    if (loadError) later(() => toast.error(BILLING_ERRORS.addons));
  }, [loadError]);

  const checkoutCart = () => {
    const addonIds = cart.items.filter((x) => x.type === "addon").map((x) => x.id);
    void run("cart", { kind: "addons", addonIds });
  };

  return (
    <div className="mx-auto max-w-7xl">
      <PageHeader title="Add-Ons Marketplace" description="Extend your automations with ready-made add-ons." />
      <search aria-label="Add-ons">
        <Form method="get" ref={formRef} className="mb-6 grid gap-3 sm:grid-cols-[1fr_14rem_auto] sm:items-end">
          <div className="grid gap-2">
            <Label htmlFor="addon-search">Search add-ons</Label>
            <div className="relative">
              <Search className="absolute left-3 top-1/2 size-4 -translate-y-1/2 text-muted-foreground" aria-hidden="true" />
              <Input
                id="addon-search"
                name="q"
                type="search"
                defaultValue={filters.q}
                key={filters.q}
                placeholder="Search by name or feature"
                className="pl-9"
                maxLength={100}
              />
            </div>
          </div>
          <div className="grid gap-2">
            <Label htmlFor="addon-category">Category</Label>
            <NativeSelect
              id="addon-category"
              name="category"
              defaultValue={filters.category}
              key={filters.category}
              onChange={(e) => submit(e.currentTarget.form, { replace: true, preventScrollReset: true })}
            >
              {["All", ...ADDON_CATEGORIES].map((c) => (
                <option key={c} value={c}>
                  {c === "All" ? "All categories" : c}
                </option>
              ))}
            </NativeSelect>
          </div>
          <Button type="submit" variant="outline">
            Apply
          </Button>
        </Form>
      </search>

      <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_20rem] lg:items-start">
        <div className="lg:sticky lg:top-20 lg:order-last">
          <CartPanel
            onCheckout={checkoutCart}
            processing={pending === "cart"}
            error={failedIds?.includes(",") ? failureText : null}
          />
          {owned.length > 0 ? (
            <p className="mt-3 text-sm text-muted-foreground" data-testid="owned-count">
              You own {owned.length} add-on{owned.length === 1 ? "" : "s"}.
            </p>
          ) : null}
        </div>

        <div className="min-w-0">
          <p className="mb-4 text-sm text-muted-foreground" aria-live="polite" data-testid="addon-results">
            {loadError ? "" : `Showing ${shown.length} of ${addons.length} add-ons${filtered ? " matching your filters" : ""}.`}{" "}
            {filtered && !loadError ? (
              <Link to="/dashboard/addons" className="font-medium text-primary underline-offset-4 hover:underline">
                Clear filters
              </Link>
            ) : null}
          </p>

          {loadError ? (
            <LoadFailed message={BILLING_ERRORS.addons} />
          ) : shown.length === 0 ? (
            <EmptyState icon={<PackageOpen />} title={addons.length === 0 ? "No add-ons available yet" : "No add-ons match"}>
              <p className="max-w-md text-sm text-muted-foreground">
                {addons.length === 0
                  ? "The add-on library is empty right now. Check back soon."
                  : "Try another search word or category."}
              </p>
              {filtered ? (
                <Link to="/dashboard/addons" className={buttonVariants({ variant: "outline" })}>
                  Show all add-ons
                </Link>
              ) : null}
            </EmptyState>
          ) : (
            <div className="grid gap-8">
              {groups.map(([category, list]) => (
                <section key={category} aria-labelledby={`category-${category}`}>
                  <h2 id={`category-${category}`} className="mb-3 text-lg font-semibold">
                    {category}
                  </h2>
                  <ul className="grid gap-4 sm:grid-cols-2 2xl:grid-cols-3">
                    {list.map((addon) => (
                      <li key={addon.id}>
                        <AddonCard
                          addon={addon}
                          owned={ownedSet.has(addon.id)}
                          processing={pending === addon.id}
                          disabled={pending !== null}
                          error={failedIds === addon.id ? failureText : null}
                          onSubscribe={() => void run(addon.id, { kind: "addons", addonIds: [addon.id] })}
                        />
                      </li>
                    ))}
                  </ul>
                </section>
              ))}
            </div>
          )}
        </div>
      </div>
    </div>
  );
}
