import { describe, expect, it, vi } from "vitest";
import { carouselSlide, generateTestimonials, TESTIMONIALS } from "./testimonials";

describe("testimonials", () => {
  it("has 100 synthetic five-star testimonials with unique ids and complete fields", () => {
    expect(TESTIMONIALS).toHaveLength(100);
    expect(new Set(TESTIMONIALS.map((t) => t.id)).size).toBe(100);
    for (const t of TESTIMONIALS) {
      expect(t.rating).toBe(5);
      expect(t.name).toMatch(/^\S+ \S+$/);
      expect(t.role.length).toBeGreaterThan(0);
      expect(t.company.length).toBeGreaterThan(0);
      expect(t.quote.length).toBeGreaterThan(40);
      // Long quotes would make the fixed-height carousel card overflow.
      expect(t.quote.length).toBeLessThanOrEqual(140);
    }
  });

  it("is deterministic and never uses Math.random", () => {
    const spy = vi.spyOn(Math, "random");
    expect(generateTestimonials()).toEqual(TESTIMONIALS);
    expect(spy).not.toHaveBeenCalled();
    spy.mockRestore();
    expect(generateTestimonials(7)).not.toEqual(TESTIMONIALS);
  });
});

describe("carouselSlide", () => {
  it("numbers the first 8 slides 0-7 over the first 8 testimonials", () => {
    expect(Array.from({ length: 8 }, (_, n) => carouselSlide(n))).toEqual(
      Array.from({ length: 8 }, (_, i) => ({ slot: i, index: i })),
    );
  });

  it("wraps forward to slot 0 with the next 8 testimonials", () => {
    expect(carouselSlide(8)).toEqual({ slot: 0, index: 8 });
    expect(carouselSlide(15)).toEqual({ slot: 7, index: 15 });
  });

  it("wraps backward from the first slide to slot 7", () => {
    expect(carouselSlide(-1)).toEqual({ slot: 7, index: 99 });
    expect(carouselSlide(-8)).toEqual({ slot: 0, index: 92 });
  });

  it("shows every one of the 100 testimonials over a full rotation", () => {
    const seen = new Set(Array.from({ length: 200 }, (_, n) => carouselSlide(n).index));
    expect(seen.size).toBe(100);
    expect(carouselSlide(200)).toEqual(carouselSlide(0));
  });
});
