import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { NavBarIsland } from "~/components/NavBar";
import { Island } from "./islands";

// The islands page renders the bar without a router; the browser hydrates it from the same props.
const render = (pathname: string) => renderToString(<NavBarIsland bookDemoUrl="https://demo.example/" pathname={pathname} />);

describe("NavBarIsland (plain links)", () => {
  it("marks the link of the current section, and of pages below it, as the current page", () => {
    for (const pathname of ["/apps", "/apps/crm"]) {
      const html = render(pathname);
      expect(html).toMatch(/<a href="\/apps" class="[^"]*underline[^"]*" aria-current="page">Solutions<\/a>/);
    }
  });

  it("marks nothing on the home page, and no link to a page that only shares a prefix", () => {
    expect(render("/")).not.toContain('aria-current="page"');
    expect(render("/appsx")).not.toContain('aria-current="page"');
  });

  it("renders plain anchors: no React Router attributes", () => {
    const html = render("/");
    expect(html).toContain('href="/how-it-works"');
    expect(html).not.toContain("data-discover");
  });
});

describe("Island", () => {
  it("wraps the widget in a display-contents element that names it and carries its props as JSON", () => {
    const html = renderToString(
      <Island name="nav" component={NavBarIsland} props={{ bookDemoUrl: 'https://x.example/?a="b"&c', pathname: "/" }} />,
    );
    const match = /^<div data-island="nav" data-props="([^"]*)" class="contents">/.exec(html);
    expect(match).not.toBeNull();
    const json = match![1]!.replaceAll("&quot;", '"').replaceAll("&amp;", "&");
    expect(JSON.parse(json)).toEqual({ bookDemoUrl: 'https://x.example/?a="b"&c', pathname: "/" });
  });
});
