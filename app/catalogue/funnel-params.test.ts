import { describe, expect, it } from "vitest";
import { canonicalIndustry, goalsHref, industryLabel, packagesHref, parseGoalsQuery, parsePackagesQuery } from "./funnel-params";

describe("funnel query parameters", () => {
  it("accepts only catalogue industry names, in the catalogue's spelling", () => {
    expect(canonicalIndustry("health & wellness")).toBe("Health & Wellness");
    expect(canonicalIndustry(" Dental Clinics ")).toBe("Dental Clinics");
    expect(canonicalIndustry("general")).toBe("general");
    expect(canonicalIndustry("Click here to win $1,000,000")).toBeUndefined();
    expect(canonicalIndustry("")).toBeUndefined();
    expect(canonicalIndustry(null)).toBeUndefined();
    expect(industryLabel("general")).toBe("General Business");
    expect(industryLabel("Insurance")).toBe("Insurance");
  });

  it("reads /goals: industry defaults to general, select only with the button", () => {
    const q = parseGoalsQuery(new URLSearchParams("industry=nope&goal=add_ai&timeline=rush"));
    expect(q).toMatchObject({ industry: "general", select: false });
    expect(q.goal?.id).toBe("add_ai");
    expect(q.timeline?.id).toBe("rush");
    const bad = parseGoalsQuery(new URLSearchParams("goal=x&timeline=y&select=1"));
    expect(bad).toMatchObject({ goal: undefined, timeline: undefined, select: true });
  });

  it("reads /packages and ignores unknown values", () => {
    const q = parsePackagesQuery(
      new URLSearchParams("industry=Insurance&goal=redesign&timeline=1week&mode=monthly&tier=pro&multiplier=0.01"),
    );
    expect(q).toMatchObject({ flow: "quick-pick", industry: "Insurance", mode: "monthly", tier: "pro" });
    expect(q.goal?.id).toBe("redesign");
    expect(q.timeline?.id).toBe("1week");
    expect(q).not.toHaveProperty("multiplier");

    const o = parsePackagesQuery(new URLSearchParams("flow=onboarding&package=growth&plan=Agency%2B&mode=weekly&tier=starter"));
    expect(o).toMatchObject({ flow: "onboarding", mode: "one-time", tier: undefined });
    expect(o.onboardingPackage?.name).toBe("Growth Builder");
    expect(o.managementPlan?.name).toBe("Agency+");
    expect(parsePackagesQuery(new URLSearchParams("flow=other&package=x&plan=y"))).toMatchObject({
      flow: "quick-pick",
      onboardingPackage: undefined,
      managementPlan: undefined,
    });
  });

  it("builds the funnel links with ids only", () => {
    expect(packagesHref({ industry: "Health & Wellness", goal: "add_ai", timeline: "standard" })).toBe(
      "/packages?industry=Health+%26+Wellness&goal=add_ai&timeline=standard",
    );
    expect(goalsHref({ industry: "general" })).toBe("/goals?industry=general");
    expect(goalsHref({ industry: "Insurance", goal: "new_app", timeline: "rush" })).toBe(
      "/goals?industry=Insurance&goal=new_app&timeline=rush",
    );
  });
});
