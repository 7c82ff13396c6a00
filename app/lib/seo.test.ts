import { describe, expect, it } from "vitest";
import { seo } from "./seo";

const matches = [{ id: "root", loaderData: { siteUrl: "https://example.com" } }];

describe("seo", () => {
  it("builds title, description, canonical and Open Graph tags from the configured site URL", () => {
    const tags = seo(matches, { title: "Apps", description: "All the apps", path: "/apps" });
    expect(tags).toContainEqual({ title: "Apps | AI Automation Apps" });
    expect(tags).toContainEqual({ name: "description", content: "All the apps" });
    expect(tags).toContainEqual({ tagName: "link", rel: "canonical", href: "https://example.com/apps" });
    expect(tags).toContainEqual({ property: "og:url", content: "https://example.com/apps" });
    expect(tags).not.toContainEqual({ name: "robots", content: "noindex" });
  });
  it("marks pages noindex on request, without a canonical link", () => {
    const tags = seo(matches, { title: "x", description: "y", path: "/p", noindex: true });
    expect(tags).toContainEqual({ name: "robots", content: "noindex" });
    expect(tags.some((t) => "rel" in t && t.rel === "canonical")).toBe(false);
    expect(tags).toContainEqual({ property: "og:url", content: "https://example.com/p" });
  });
  it("gives a noindex page without a path of its own (404) neither a canonical link nor og:url", () => {
    const tags = seo(matches, { title: "Page not found", description: "y", noindex: true });
    expect(tags).toContainEqual({ name: "robots", content: "noindex" });
    expect(tags.some((t) => "rel" in t && t.rel === "canonical")).toBe(false);
    expect(tags.some((t) => "property" in t && t.property === "og:url")).toBe(false);
    expect(JSON.stringify(tags)).not.toContain("/404");
  });
  it("gives every page an absolute og:image and the large Twitter card", () => {
    const tags = seo(matches, { title: "Apps", description: "All the apps", path: "/apps" });
    expect(tags).toContainEqual({ property: "og:image", content: "https://example.com/og/site.png" });
    expect(tags).toContainEqual({ property: "og:image:width", content: "1200" });
    expect(tags).toContainEqual({ property: "og:image:height", content: "630" });
    expect(tags).toContainEqual({ name: "twitter:card", content: "summary_large_image" });
    const app = seo(matches, { title: "A", description: "b", path: "/apps/a", image: "apps" });
    expect(app).toContainEqual({ property: "og:image", content: "https://example.com/og/apps.png" });
  });
});
