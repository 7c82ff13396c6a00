import { describe, expect, it } from "vitest";
import { SCALING_TIERS } from "~/catalogue/plans";
import { tierRelation, type TierSubscription } from "./tiers";

const labels = (current: TierSubscription) => SCALING_TIERS.map((t) => tierRelation(t.contacts, current));

describe("tierRelation (the scaling page's Current plan / Upgrade / Downgrade)", () => {
  it("a scaling subscription: its own tier is current, lower tiers downgrades, higher ones upgrades", () => {
    expect(labels({ active: true, planType: "scaling", reachLimit: 100_000 })).toEqual([
      "downgrade",
      "downgrade",
      "current",
      "upgrade",
      "upgrade",
    ]);
    expect(labels({ active: true, planType: "scaling", reachLimit: 10_000 })).toEqual([
      "current",
      "upgrade",
      "upgrade",
      "upgrade",
      "upgrade",
    ]);
    expect(labels({ active: true, planType: "scaling", reachLimit: 1_000_000 })[4]).toBe("current");
  });

  it("a billing plan: tiers below its contacts are downgrades (buying one replaces the plan); the same contacts is included, neither", () => {
    expect(labels({ active: true, planType: "basic", reachLimit: 10_000 })).toEqual([
      "included",
      "upgrade",
      "upgrade",
      "upgrade",
      "upgrade",
    ]);
    expect(labels({ active: true, planType: "pro", reachLimit: 100_000 })).toEqual([
      "downgrade",
      "downgrade",
      "included",
      "upgrade",
      "upgrade",
    ]);
  });

  it("only more contacts is an upgrade and only fewer a downgrade, for any plan", () => {
    for (const planType of ["basic", "pro", "scaling"])
      for (const reachLimit of [10_000, 50_000, 100_000, 500_000, 1_000_000])
        for (const tier of SCALING_TIERS) {
          const want =
            tier.contacts > reachLimit
              ? "upgrade"
              : tier.contacts < reachLimit
                ? "downgrade"
                : planType === "scaling"
                  ? "current"
                  : "included";
          expect(tierRelation(tier.contacts, { active: true, planType, reachLimit }), `${planType} ${reachLimit}`).toBe(want);
        }
  });

  it("an unlimited plan (Enterprise): every tier is a downgrade", () => {
    expect(labels({ active: true, planType: "enterprise", reachLimit: null })).toEqual(Array(5).fill("downgrade"));
    // A scaling row without contacts (never written so) is no tier either.
    expect(labels({ active: true, planType: "scaling", reachLimit: null })).toEqual(Array(5).fill("upgrade"));
  });

  it("no active subscription: every tier is an upgrade, whatever an old row said", () => {
    expect(labels({ active: false, planType: null, reachLimit: null })).toEqual(Array(5).fill("upgrade"));
    expect(labels({ active: false, planType: "scaling", reachLimit: 50_000 })).toEqual(Array(5).fill("upgrade"));
  });

  it("a scaling row whose contacts match no current tier: none is current, the rest compare by contacts", () => {
    expect(labels({ active: true, planType: "scaling", reachLimit: 75_000 })).toEqual([
      "downgrade",
      "downgrade",
      "upgrade",
      "upgrade",
      "upgrade",
    ]);
  });
});
