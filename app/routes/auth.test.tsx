import { renderToString } from "react-dom/server";
import { createMemoryRouter, RouterProvider } from "react-router";
import { describe, expect, it } from "vitest";
import AuthPage from "./auth";

type Props = Parameters<typeof AuthPage>[0];

function render(url: string, googleEnabled: boolean): string {
  const props = { loaderData: { googleEnabled }, actionData: undefined } as unknown as Props;
  const router = createMemoryRouter([{ path: "/auth", element: <AuthPage {...props} /> }], { initialEntries: [url] });
  return renderToString(<RouterProvider router={router} />);
}

describe("the Google button on /auth", () => {
  it("is offered on both tabs when Google sign-in is configured", () => {
    for (const url of ["/auth?tab=signin", "/auth?tab=signup"]) {
      const html = render(url, true);
      expect(html).toContain("Continue with Google");
      expect(html).toContain("Or continue with");
      expect(html).toContain('name="intent" value="google"');
    }
  });

  it("is not shown at all without it, nor the divider that introduces it", () => {
    for (const url of ["/auth?tab=signin", "/auth?tab=signup"]) {
      const html = render(url, false);
      expect(html).not.toContain("Google");
      expect(html).not.toContain("Or continue with");
      // The form itself is still there.
      expect(html).toMatch(/Sign In|Create Account/);
    }
  });
});
