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
  it("marks pages noindex on request", () => {
    expect(seo(matches, { title: "x", description: "y", path: "/p", noindex: true })).toContainEqual({
      name: "robots",
      content: "noindex",
    });
  });
});
