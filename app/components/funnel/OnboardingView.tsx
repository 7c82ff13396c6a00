import { ArrowLeft, ArrowRight, Check } from "lucide-react";
import { useRef } from "react";
import { Link, useNavigate } from "react-router";
import { MANAGEMENT_PLANS, ONBOARDING_PACKAGES } from "~/catalogue/plans";
import { Badge } from "~/components/ui/badge";
import { Button, buttonVariants } from "~/components/ui/button";
import { ChoiceCard } from "./ChoiceCard";
import { MemberDiscountNote, type MemberTierData } from "./MemberDiscountNote";

export interface OnboardingData {
  packageId: string | null;
  planName: string | null;
  tierId: string | null;
  tier: MemberTierData | null;
}

/**
 * The onboarding presentation of /packages: 4 one-time packages and 4 monthly management plans as
 * radio cards in a GET form, so the selection lives in the URL (?package=&plan=) with or without
 * JavaScript.
 */
export function OnboardingView({ data }: { data: OnboardingData }) {
  const navigate = useNavigate();
  const formRef = useRef<HTMLFormElement>(null);
  const selectedPackage = ONBOARDING_PACKAGES.find((p) => p.id === data.packageId);
  const selectedPlan = MANAGEMENT_PLANS.find((p) => p.name === data.planName);

  const remember = () => {
    if (!formRef.current) return;
    const params = new URLSearchParams();
    for (const [k, v] of new FormData(formRef.current)) if (typeof v === "string") params.append(k, v);
    void navigate(`/packages?${params.toString()}`, { replace: true, preventScrollReset: true });
  };

  return (
    <div className="mx-auto max-w-7xl px-4 py-10 sm:px-6 sm:py-14">
      <header className="mx-auto max-w-3xl text-center">
        <h1 className="text-3xl font-bold tracking-tight sm:text-5xl">Choose Your Launch Package</h1>
        <p className="mt-4 text-lg text-muted-foreground">
          Pick a one-time setup package to build your AI assistants, and a monthly plan to keep them managed and improving.
        </p>
      </header>

      {data.tier && (
        <div className="mx-auto mt-6 max-w-3xl">
          <MemberDiscountNote tier={data.tier} buyHref={`/packages?tier=${data.tier.id}`} />
        </div>
      )}

      <form ref={formRef} method="get" action="/packages" className="mt-10">
        <input type="hidden" name="flow" value="onboarding" />
        {data.tierId && <input type="hidden" name="tier" value={data.tierId} />}

        <fieldset>
          <legend className="w-full">
            <h2 className="text-2xl font-bold">One-time setup packages</h2>
          </legend>
          <div className="mt-5 grid gap-5 sm:grid-cols-2 lg:grid-cols-4">
            {ONBOARDING_PACKAGES.map((p) => (
              <ChoiceCard
                key={p.id}
                id={`package-${p.id}`}
                name="package"
                value={p.id}
                title={p.name}
                defaultChecked={p.id === data.packageId}
                describedBy={`package-${p.id}-price`}
                onChange={remember}
              >
                {p.popular && (
                  <Badge className="pointer-events-none absolute -top-3 left-5" variant="default">
                    Most Popular
                  </Badge>
                )}
                <p id={`package-${p.id}-price`} className="mt-2 text-3xl font-extrabold tracking-tight">
                  {p.priceText}
                  <span className="sr-only"> one-time</span>
                </p>
                <p className="mt-2 text-sm text-muted-foreground">{p.description}</p>
                <ul className="mt-4 space-y-2 text-sm">
                  {p.features.map((f) => (
                    <li key={f} className="flex gap-2">
                      <Check className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden />
                      {f}
                    </li>
                  ))}
                </ul>
              </ChoiceCard>
            ))}
          </div>
        </fieldset>

        <fieldset className="mt-12">
          <legend className="w-full">
            <h2 className="text-2xl font-bold">Monthly management plans</h2>
          </legend>
          <div className="mt-5 grid gap-5 sm:grid-cols-2 lg:grid-cols-4">
            {MANAGEMENT_PLANS.map((p) => {
              const slug = p.name.replace(/[^a-z0-9]+/gi, "").toLowerCase();
              return (
                <ChoiceCard
                  key={p.name}
                  id={`plan-${slug}`}
                  name="plan"
                  value={p.name}
                  title={p.name}
                  defaultChecked={p.name === data.planName}
                  describedBy={`plan-${slug}-price`}
                  onChange={remember}
                >
                  <p id={`plan-${slug}-price`} className="mt-2 text-3xl font-extrabold tracking-tight">
                    {p.monthlyPriceText}
                  </p>
                  <ul className="mt-4 space-y-2 text-sm">
                    {p.features.map((f) => (
                      <li key={f} className="flex gap-2">
                        <Check className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden />
                        {f}
                      </li>
                    ))}
                  </ul>
                </ChoiceCard>
              );
            })}
          </div>
        </fieldset>

        <noscript>
          <div className="mt-6">
            <Button type="submit" variant="secondary">
              Update selection
            </Button>
          </div>
        </noscript>

        <div className="mt-10 flex flex-col gap-5 rounded-2xl border bg-muted/60 p-5 md:flex-row md:items-center md:justify-between">
          <output className="block text-sm">
            {selectedPackage || selectedPlan ? (
              <>
                <span className="text-muted-foreground">Your selection: </span>
                <strong>{selectedPackage ? `${selectedPackage.name} (${selectedPackage.priceText})` : "no package yet"}</strong>
                {" + "}
                <strong>{selectedPlan ? `${selectedPlan.name} (${selectedPlan.monthlyPriceText})` : "no plan yet"}</strong>
              </>
            ) : (
              <span className="text-muted-foreground">Select a package and a plan. You can change them later.</span>
            )}
          </output>
          <div className="flex flex-col-reverse gap-3 sm:flex-row">
            <Link to="/questionnaire" className={buttonVariants({ variant: "outline", size: "lg" })}>
              <ArrowLeft aria-hidden />
              Back to Questions
            </Link>
            <Link to="/dashboard" className={buttonVariants({ size: "lg" })}>
              Start 7-Day Free Trial
              <ArrowRight aria-hidden />
            </Link>
          </div>
        </div>
      </form>
    </div>
  );
}
