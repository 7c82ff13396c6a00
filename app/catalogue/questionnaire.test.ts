import { describe, expect, it } from "vitest";
import { MANAGEMENT_PLANS, ONBOARDING_PACKAGES } from "./plans";
import {
  ASSISTANT_COUNTS,
  countAnswered,
  findManagementPlan,
  findOnboardingPackage,
  parseAnswers,
  type QuestionnaireAnswers,
  recommend,
  recommendationHref,
} from "./questionnaire";

const answers = (a: Partial<QuestionnaireAnswers>): QuestionnaireAnswers => ({ automate: [], channels: [], ...a });

describe("parseAnswers", () => {
  it("reads every question from the query string", () => {
    const params = new URLSearchParams(
      "size=medium&automate=support&automate=leads&channels=sms&assistants=2-3&budget=1k-3k&timeline=asap",
    );
    expect(parseAnswers(params)).toEqual({
      size: "medium",
      automate: ["leads", "support"],
      channels: ["sms"],
      assistants: "2-3",
      budget: "1k-3k",
      timeline: "asap",
    });
  });

  it("ignores unknown values and keys, and de-duplicates multiple choices", () => {
    const params = new URLSearchParams("size=huge&automate=leads&automate=leads&automate=hacking&channels=fax&assistants=99&x=1");
    expect(parseAnswers(params)).toEqual({
      size: undefined,
      automate: ["leads"],
      channels: [],
      assistants: undefined,
      budget: undefined,
      timeline: undefined,
    });
  });

  it("is empty for an empty query", () => {
    const a = parseAnswers(new URLSearchParams());
    expect(countAnswered(a)).toBe(0);
  });

  it("counts answered questions (a multiple choice counts once)", () => {
    expect(countAnswered(answers({ size: "solo", automate: ["leads", "sales"], channels: ["sms"] }))).toBe(3);
  });
});

describe("recommend", () => {
  it("recommends the smallest package and plan when nothing asks for more", () => {
    expect(recommend(answers({}))).toMatchObject({ packageId: "starter", planName: "Essential" });
    expect(recommend(answers({ size: "solo", assistants: "1", automate: ["booking"], channels: ["website"] }))).toMatchObject({
      packageId: "starter",
      planName: "Essential",
    });
  });

  it("sizes the package and the plan by the number of assistants", () => {
    const expected = {
      "1": ["starter", "Essential"],
      "2-3": ["pro", "Growth"],
      "4-5": ["growth", "Scale"],
      "6-10": ["enterprise", "Agency+"],
      "10+": ["enterprise", "Agency+"],
    } as const;
    for (const c of ASSISTANT_COUNTS) {
      const r = recommend(answers({ assistants: c.id }));
      expect([r.packageId, r.planName]).toEqual(expected[c.id]);
    }
  });

  it("raises the package for a broad project (jobs or channels) and for larger teams", () => {
    expect(recommend(answers({ automate: ["leads", "booking"] })).packageId).toBe("pro");
    expect(recommend(answers({ channels: ["website", "sms", "email", "social"] })).packageId).toBe("growth");
    expect(recommend(answers({ size: "medium" })).packageId).toBe("pro");
    expect(recommend(answers({ size: "large" })).packageId).toBe("growth");
    // The largest need wins.
    expect(recommend(answers({ size: "large", assistants: "6-10" })).packageId).toBe("enterprise");
  });

  it("without an assistants answer the plan follows the package", () => {
    expect(recommend(answers({ size: "large" })).planName).toBe("Scale");
    expect(recommend(answers({ automate: ["leads", "booking"] })).planName).toBe("Growth");
  });

  it("caps the package at the budget but never raises it because of the budget", () => {
    const big = answers({ assistants: "6-10", budget: "1k-3k" });
    expect(recommend(big).packageId).toBe("pro");
    expect(recommend(big).reasons).toContain("We kept within your budget: you can upgrade at any time.");
    // The plan still looks after the bots asked for.
    expect(recommend(big).planName).toBe("Agency+");
    expect(recommend(answers({ assistants: "1", budget: "10k-plus" })).packageId).toBe("starter");
    expect(recommend(answers({ assistants: "4-5", budget: "under-1k" })).packageId).toBe("starter");
    expect(recommend(answers({ assistants: "4-5", budget: "3k-10k" })).packageId).toBe("growth");
  });

  it("'Just exploring' without a budget caps at Pro Starter", () => {
    expect(recommend(answers({ assistants: "6-10", timeline: "exploring" })).packageId).toBe("pro");
    expect(recommend(answers({ assistants: "6-10", timeline: "exploring", budget: "10k-plus" })).packageId).toBe("enterprise");
    expect(recommend(answers({ assistants: "1", timeline: "exploring" })).packageId).toBe("starter");
  });

  it("explains itself", () => {
    const r = recommend(
      answers({ assistants: "2-3", automate: ["leads", "sales", "support"], channels: ["sms"], timeline: "asap" }),
    );
    expect(r.reasons).toEqual([
      "You want 2-3 AI assistants.",
      "You listed 3 tasks to automate across 1 channel.",
      "You want to launch fast: mention it on your onboarding call and we will prioritise your build.",
    ]);
  });

  it("always names a package and plan that exist in the catalogue", () => {
    for (const size of [undefined, "solo", "small", "medium", "large"] as const)
      for (const assistants of [undefined, ...ASSISTANT_COUNTS.map((c) => c.id)])
        for (const budget of [undefined, "under-1k", "1k-3k", "3k-10k", "10k-plus"] as const) {
          const r = recommend(answers({ size, assistants, budget }));
          expect(findOnboardingPackage(r.packageId)).toBeDefined();
          expect(findManagementPlan(r.planName)).toBeDefined();
        }
  });
});

describe("recommendationHref", () => {
  it("links to the onboarding presentation of /packages with the selection", () => {
    expect(recommendationHref({ packageId: "pro", planName: "Growth" })).toBe(
      "/packages?flow=onboarding&package=pro&plan=Growth",
    );
    const href = recommendationHref({ packageId: "enterprise", planName: "Agency+" });
    expect(href).toBe("/packages?flow=onboarding&package=enterprise&plan=Agency%2B");
    expect(new URL(href, "http://x").searchParams.get("plan")).toBe("Agency+");
  });

  it("finds packages and plans by id and name", () => {
    expect(findOnboardingPackage("growth")).toBe(ONBOARDING_PACKAGES[2]);
    expect(findManagementPlan("Agency+")).toBe(MANAGEMENT_PLANS[3]);
    expect(findOnboardingPackage("nope")).toBeUndefined();
    expect(findManagementPlan(null)).toBeUndefined();
  });
});
