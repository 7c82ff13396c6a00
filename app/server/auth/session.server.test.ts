import { describe, expect, it, vi } from "vitest";
import { getUser, pagePath, safeNext } from "./session.server";

const getSession = vi.fn<(input: { headers: Headers }) => Promise<unknown>>();
vi.mock("./auth.server", () => ({ auth: () => ({ api: { getSession } }) }));

describe("getUser", () => {
  it("reads the session once per Request, again for another Request, and forgets a failed read", async () => {
    getSession.mockResolvedValue({ user: { id: "u1", email: "a@example.com", name: "A", emailVerified: true } });
    const request = new Request("http://localhost/dashboard", { headers: { cookie: "better-auth.session_token=t" } });
    const [a, b] = await Promise.all([getUser(request), getUser(request)]);
    expect(await getUser(request)).toBe(a);
    expect(b).toBe(a);
    expect(a).toMatchObject({ id: "u1", email: "a@example.com", firstName: null });
    expect(getSession).toHaveBeenCalledTimes(1);

    getSession.mockResolvedValueOnce(null);
    expect(await getUser(new Request("http://localhost/dashboard", { headers: request.headers }))).toBeNull();
    expect(getSession).toHaveBeenCalledTimes(2);

    const failing = new Request("http://localhost/dashboard");
    getSession.mockRejectedValueOnce(new Error("database down"));
    await expect(getUser(failing)).rejects.toThrow("database down");
    expect(await getUser(failing)).toMatchObject({ id: "u1" });
    expect(getSession).toHaveBeenCalledTimes(4);
  });
});

describe("safeNext", () => {
  it("keeps same-site paths", () => {
    expect(safeNext("/dashboard/billing?x=1")).toBe("/dashboard/billing?x=1");
  });
  it("refuses anything that could leave the site", () => {
    for (const bad of [
      "https://evil.example",
      "//evil.example",
      "/\\evil.example",
      "evil",
      "",
      null,
      undefined,
      "/a\\b",
      // Browsers drop tabs and newlines: these become //evil.example.
      "/\t/evil.example",
      "/\n/evil.example",
      "/\r\n/evil.example",
      "/ok\u0000",
    ]) {
      expect(safeNext(bad)).toBe("/dashboard");
    }
  });
});

describe("pagePath", () => {
  it("maps React Router data requests back to their page", () => {
    expect(pagePath("http://x/dashboard/billing.data")).toBe("/dashboard/billing");
    expect(pagePath("http://x/dashboard/onboarding.data?_routes=routes%2F_dashboard%2Fonboarding")).toBe("/dashboard/onboarding");
    expect(pagePath("http://x/dashboard/addons.data?q=crm&_routes=a")).toBe("/dashboard/addons?q=crm");
    expect(pagePath("http://x/_root.data")).toBe("/");
    expect(pagePath("http://x/_.data")).toBe("/");
    expect(pagePath("http://x/dashboard/_.data?_routes=routes%2F_dashboard%2Foverview")).toBe("/dashboard");
    expect(pagePath("http://x/dashboard?plan=pro")).toBe("/dashboard?plan=pro");
  });
});
