import { renderToString } from "react-dom/server";
import { createStaticHandler, createStaticRouter, data, Outlet, StaticRouterProvider } from "react-router";
import { describe, expect, it } from "vitest";
import routes from "~/routes";
import DashboardPages, { ErrorBoundary } from "./pages";

/** A page under the real pathless route, inside a stand-in for the dashboard layout. */
async function render(loader: () => unknown) {
  const tree = [
    {
      id: "layout",
      path: "/dashboard",
      element: (
        <div>
          <nav aria-label="Sidebar">Sign Out</nav>
          <Outlet />
        </div>
      ),
      children: [
        {
          id: "pages",
          Component: DashboardPages,
          ErrorBoundary,
          children: [{ id: "support", path: "support", loader, element: <p>Support page</p> }],
        },
      ],
    },
  ];
  const handler = createStaticHandler(tree);
  const context = await handler.query(new Request("http://site.test/dashboard/support?tab=1"));
  if (context instanceof Response) throw new Error("unexpected redirect");
  const html = renderToString(
    <StaticRouterProvider router={createStaticRouter(handler.dataRoutes, context)} context={context} />,
  );
  // Without the test router's hydration script: in the product, React Router sends a server error's
  // message to no browser ("Unexpected Server Error").
  return html.replace(/<script>[\s\S]*?<\/script>/g, "");
}

describe("dashboard pages' error boundary", () => {
  it("shows a failing page's error inside the dashboard, without the error's text or stack", async () => {
    const html = await render(() => {
      throw new Error("connection to the database lost at db.server.ts:12");
    });
    expect(html).toContain('aria-label="Sidebar"');
    expect(html).toContain("This page could not be loaded");
    expect(html).toContain('href="/dashboard/support?tab=1"');
    expect(html).not.toContain("database lost");
    expect(html).not.toContain("Support page");
  });

  it("says the server is busy for a 503", async () => {
    const html = await render(() => {
      throw data("busy", { status: 503 });
    });
    expect(html).toContain("The server is busy");
  });

  it("holds every dashboard page: the layout's only child is the pathless route", () => {
    const dashboard = routes.find((r) => r.path === "dashboard");
    expect(dashboard?.children?.map((c) => c.file)).toEqual(["routes/_dashboard/pages.tsx"]);
    expect(dashboard?.children?.[0]?.children?.length).toBeGreaterThanOrEqual(11);
  });
});
