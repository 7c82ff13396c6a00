import { useEffect } from "react";
import { useActionData, useNavigation } from "react-router";
import { AlertTriangle } from "lucide-react";
import { toast } from "sonner";
import {
  BILLING_ERRORS,
  formFailureText,
  later,
  useCheckout,
  useCheckoutReturn,
  useRevalidateOnFocus,
} from "~/components/dashboard/billing/checkout";
import { ScalingPlans, type ScalingCurrent } from "~/components/dashboard/billing/ScalingPlans";
import { PageHeader } from "~/components/dashboard/pages/common";
import { useRootData } from "~/root";
import { checkoutFromForm, formText } from "~/server/billing/form-checkout.server";
import { requireUser } from "~/server/auth/session.server";
import { log, errorMessage } from "~/server/log.server";
import { db } from "~/server/db/client.server";
import { offersPlanChange } from "~/server/billing/quote-plan-change.server";
import { currentPlanPricesOfRequest } from "~/server/catalogue/current-plan-prices.server";
import type { ScalingTier } from "~/catalogue/plans";
import { subscriptionSummaryOfRequest } from "~/server/trial/request-trial-status.server";
import type { Route } from "./+types/scaling";

export const meta: Route.MetaFunction = () => [{ title: "Scaling Plans | AI Dashboard" }, { name: "robots", content: "noindex" }];

const NO_PLAN: ScalingCurrent = {
  active: false,
  planName: "Free Trial",
  planType: null,
  reachLimit: null,
  monthlyPrice: null,
  currentPeriodEnd: null,
};

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  try {
    const [s, changesPlan, plans] = await Promise.all([
      subscriptionSummaryOfRequest(request, user.id),
      offersPlanChange(db(), user.id),
      currentPlanPricesOfRequest(request),
    ]);
    const current: ScalingCurrent = {
      active: s.active,
      planName: s.planName,
      planType: s.planType,
      reachLimit: s.reachLimit,
      monthlyPrice: s.monthlyPrice,
      currentPeriodEnd: s.currentPeriodEnd,
    };
    // At the prices they sell at now: the checkout charges what the tier shows.
    return { current, changesPlan, tiers: plans.scalingTiers, loadError: false };
  } catch (error) {
    log.error("scaling page load failed", { userId: user.id, error: errorMessage(error) });
    // No prices it could not read: the page says it failed instead of showing tiers at guessed prices.
    return { current: NO_PLAN, changesPlan: false, tiers: [] as ScalingTier[], loadError: true };
  }
}

/**
 * A tier's button before hydration or without JavaScript (ADR 0016): the tier index only, priced on
 * the server like POST /api/checkout, then a redirect to the checkout in this tab. A failure renders
 * this page with the text under that tier's button.
 */
export async function action({ request, url }: Route.ActionArgs) {
  await requireUser(request, () => Promise.resolve("upgrade" as const));
  const form = await request.formData();
  const tierIndex = formText(form, "tierIndex") ?? "";
  return checkoutFromForm(
    request,
    // Not a number: passed on as it came, for the schema to refuse.
    { kind: "scaling", tierIndex: /^\d{1,3}$/.test(tierIndex) ? Number(tierIndex) : tierIndex },
    { signInNext: url.pathname, signInReason: "upgrade", context: { tierIndex } },
  );
}

export default function ScalingPage({ loaderData }: Route.ComponentProps) {
  const { current, changesPlan, tiers, loadError } = loaderData;
  const navigation = useNavigation();
  const changingTier = navigation.state !== "idle" ? navigation.formData?.get("tierIndex") : null;
  const { env } = useRootData();
  const { pending, run } = useCheckout("scaling", "upgrade");
  const failure = useActionData<typeof action>();
  useRevalidateOnFocus();
  useCheckoutReturn({
    success: "Scaling plan updated",
    successDescription: "Your new contact, SMS and email limits are active.",
    canceled: "Upgrade canceled. You have not been charged.",
  });

  useEffect(() => {
    if (loadError) later(() => toast.error(BILLING_ERRORS.load));
  }, [loadError]);

  return (
    <div className="mx-auto max-w-6xl">
      <PageHeader title="Scaling Plans" description="Grow your contacts, SMS and email volume as your business grows." />
      {loadError ? (
        <p
          role="alert"
          className="mb-6 flex items-center gap-2 rounded-lg border border-destructive/40 bg-destructive/5 p-4 font-medium text-destructive"
        >
          <AlertTriangle className="size-5" aria-hidden="true" />
          {BILLING_ERRORS.load}
        </p>
      ) : null}
      {tiers.length > 0 ? (
        <ScalingPlans
          tiers={tiers}
          current={current}
          bookDemoUrl={env.BOOK_DEMO_URL}
          pending={pending === null ? null : Number(pending)}
          failure={
            pending === null && failure?.context?.tierIndex
              ? { tierIndex: Number(failure.context.tierIndex), text: formFailureText(failure, "scaling") }
              : null
          }
          onUpgrade={(tierIndex) => void run(String(tierIndex), { kind: "scaling", tierIndex })}
          changesPlan={changesPlan}
          changing={typeof changingTier === "string" ? Number(changingTier) : null}
        />
      ) : null}
    </div>
  );
}
