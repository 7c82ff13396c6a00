import { describe, expect, it } from "vitest";
import { mulberry32 } from "~/lib/random";
import { allApps } from "./apps";
import {
  allReviews,
  earlierTimeAgo,
  initialReviews,
  initials,
  refreshReviews,
  REVIEW_POOL_SIZE,
  reviewPool,
  REVIEWS_SHOWN,
} from "./reviews";

const apps = allApps();
const app = apps[0]!;

describe("reviewPool", () => {
  it("is deterministic per app id and differs between apps", () => {
    expect(reviewPool(app)).toEqual(reviewPool({ ...app }));
    expect(reviewPool(apps[1]!).map((r) => r.name)).not.toEqual(reviewPool(app).map((r) => r.name));
  });

  it("has distinct, verified 5-star reviewers with filled-in texts", () => {
    for (const a of [app, apps[100]!, apps[180]!]) {
      const pool = reviewPool(a);
      expect(pool).toHaveLength(REVIEW_POOL_SIZE);
      expect(new Set(pool.map((r) => r.name)).size).toBe(REVIEW_POOL_SIZE);
      expect(new Set(pool.map((r) => r.id)).size).toBe(REVIEW_POOL_SIZE);
      for (const r of pool) {
        expect(r.rating).toBe(5);
        expect(r.verified).toBe(true);
        expect(r.helpful).toBeGreaterThanOrEqual(3);
        expect(r.helpful).toBeLessThanOrEqual(48);
        expect(r.review).not.toMatch(/[{}]/);
        expect(r.company).toMatch(/^\S.+\S$/);
        expect(r.timeAgo).toMatch(/ago$/);
      }
    }
  });
});

describe("initialReviews", () => {
  it("shows the first entries of the pool, newest first with distinct labels", () => {
    const shown = initialReviews(app);
    expect(shown).toEqual(reviewPool(app).slice(0, REVIEWS_SHOWN));
    expect(new Set(shown.map((r) => r.timeAgo)).size).toBe(REVIEWS_SHOWN);
  });
});

describe("refreshReviews", () => {
  it("swaps three shown entries for others from the pool; the first is 'Just now', the others 1-60 minutes ago", () => {
    const pool = reviewPool(app);
    const shown = initialReviews(app);
    for (let seed = 1; seed <= 50; seed++) {
      const next = refreshReviews(shown, pool, mulberry32(seed));
      expect(next).toHaveLength(shown.length);
      expect(new Set(next.map((r) => r.id)).size).toBe(shown.length);
      const before = new Set(shown.map((r) => r.id));
      const incoming = next.filter((r) => !before.has(r.id));
      expect(incoming).toHaveLength(3);
      expect(next.slice(0, 3)).toEqual(incoming);
      expect(next[0]!.timeAgo).toBe("Just now");
      for (const r of next.slice(1, 3)) {
        const m = /^(\d+) minutes? ago$/.exec(r.timeAgo);
        expect(r.timeAgo).toMatch(/^(\d+) minutes? ago$/);
        expect(Number(m![1])).toBeGreaterThanOrEqual(1);
        expect(Number(m![1])).toBeLessThanOrEqual(60);
      }
      // The three that stay keep their order and labels.
      expect(next.slice(3)).toEqual(shown.filter((r) => next.some((n) => n.id === r.id)));
    }
  });

  it("uses the whole 1-60 minute range", () => {
    const pool = reviewPool(app);
    const random = mulberry32(99);
    const minutes = new Set<number>();
    for (let i = 0; i < 400; i++)
      for (const r of refreshReviews(initialReviews(app), pool, random).slice(1, 3)) minutes.add(Number.parseInt(r.timeAgo, 10));
    expect(Math.min(...minutes)).toBe(1);
    expect(Math.max(...minutes)).toBe(60);
  });

  it("returns the list unchanged when the pool has nothing else to offer", () => {
    const shown = initialReviews(app);
    expect(refreshReviews(shown, shown)).toBe(shown);
  });
});

describe("initials", () => {
  it("takes the first letters of the first two words", () => {
    expect(initials("Sarah Johnson")).toBe("SJ");
    expect(initials("tomás  de la Cruz")).toBe("TD");
    expect(initials("Mei")).toBe("M");
  });
});

describe("reviewPool size", () => {
  it("gives the same first entries whatever the size (the card preview is the dialog's first review)", () => {
    expect(reviewPool(app, 1)).toEqual(reviewPool(app).slice(0, 1));
    expect(reviewPool(apps[77]!, 3)).toEqual(reviewPool(apps[77]!).slice(0, 3));
  });
});

/** Hours in a "3 weeks ago"-style label. */
const age = (label: string) => {
  const [n, unit] = label.split(" ");
  const size = {
    hour: 1,
    hours: 1,
    day: 24,
    days: 24,
    week: 168,
    weeks: 168,
    month: 720,
    months: 720,
    year: 8760,
    years: 8760,
  };
  return Number(n) * size[unit as keyof typeof size];
};

describe("allReviews", () => {
  it("holds exactly as many distinct reviews as the app's count says, the first ones those shown first", () => {
    for (const a of apps) {
      const all = allReviews(a);
      expect(all).toHaveLength(a.reviews);
      expect(new Set(all.map((r) => r.name)).size).toBe(a.reviews);
      expect(all.slice(0, REVIEWS_SHOWN)).toEqual(initialReviews(a));
    }
  });

  it("has none for an app with no reviews (a new one an operator added)", () => {
    expect(allReviews({ ...apps[0]!, reviews: 0 })).toEqual([]);
  });

  it("reads newest first: the later a review in the list, the older its label", () => {
    const most = apps.reduce((a, b) => (b.reviews > a.reviews ? b : a));
    const ages = allReviews(most).map((r) => age(r.timeAgo));
    for (let i = 1; i < ages.length; i++) expect(ages[i]).toBeGreaterThanOrEqual(ages[i - 1]!);
    expect(earlierTimeAgo(REVIEWS_SHOWN)).toBe("2 months ago");
    expect(earlierTimeAgo(REVIEWS_SHOWN + 40)).toBe("1 year ago");
    expect(earlierTimeAgo(REVIEWS_SHOWN + 100)).toBe("2 years ago");
  });
});
