import { renderToString } from "react-dom/server";
import { createStaticHandler, createStaticRouter, data, Outlet, StaticRouterProvider } from "react-router";
import { describe, expect, it } from "vitest";
import MarketingLayout, { ErrorBoundary } from "./layout";

/** A public page under the real marketing layout, below a stand-in root with the root's loader data. */
async function render(loader: () => unknown) {
  const tree = [
    {
      id: "root",
      path: "/",
      loader: () => ({ siteUrl: "http://site.test", env: { BOOK_DEMO_URL: "https://demo.test/book" }, year: 2030 }),
      element: <Outlet />,
      children: [
        {
          id: "marketing",
          Component: MarketingLayout,
          ErrorBoundary,
          children: [{ id: "apps", path: "apps", loader, element: <p>Apps page</p> }],
        },
      ],
    },
  ];
  const handler = createStaticHandler(tree);
  const context = await handler.query(new Request("http://site.test/apps?q=crm&show=24"));
  if (context instanceof Response) throw new Error("unexpected redirect");
  const html = renderToString(
    <StaticRouterProvider router={createStaticRouter(handler.dataRoutes, context)} context={context} />,
  );
  // Without the test router's hydration script (it carries the error for the browser's router).
  return html.replace(/<script>[\s\S]*?<\/script>/g, "");
}

describe("marketing layout's error boundary", () => {
  it("keeps the header and footer, and offers Try again and home, without the error's text", async () => {
    const html = await render(() => {
      throw new Error("connection to the database lost at apps.server.ts:12");
    });
    expect(html).toContain('aria-label="Main"');
    expect(html).toContain("<footer");
    expect(html).toContain("This page could not be loaded");
    expect(html).toContain('href="/apps?q=crm&amp;show=24"');
    expect(html).toContain(">Try again<");
    expect(html).toContain('href="/"');
    expect(html).not.toContain("database lost");
    expect(html).not.toContain("apps.server.ts");
    expect(html).not.toContain("Apps page");
  });

  it("says the server is busy for a 503", async () => {
    const html = await render(() => {
      throw data("The server is busy. Please try again in a few seconds.", { status: 503 });
    });
    expect(html).toContain("The server is busy");
    expect(html).toContain('aria-label="Main"');
  });

  it("renders the page itself when nothing failed", async () => {
    const html = await render(() => null);
    expect(html).toContain("Apps page");
    expect(html).not.toContain("Try again");
  });
});
