import { describe, expect, it, vi } from "vitest";
import type { SignInReason } from "~/lib/auth-messages";
import { getUser, pagePath, requireUser, safeNext } from "./session.server";

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
    // An encoded slash in the query or fragment is only data.
    expect(safeNext("/dashboard/billing?back=%2Fapps")).toBe("/dashboard/billing?back=%2Fapps");
    expect(safeNext("/apps#%2Fsection")).toBe("/apps#%2Fsection");
  });
  it("keeps the pages a trial or buy button sends a signed-out visitor from, with their choices", () => {
    const packages = "/packages?industry=healthcare&goal=save-time&timeline=rush&mode=monthly";
    expect(safeNext(packages)).toBe(packages);
    const apps = "/apps?q=crm&industry=Healthcare+%26+Life+Sciences&tab=express&view=list";
    expect(safeNext(apps)).toBe(apps);
    expect(safeNext("/distributors")).toBe("/distributors");
  });
  it("falls back to what the caller names", () => {
    expect(safeNext("https://evil.example", "")).toBe("");
    expect(safeNext("javascript:alert(1)", "/apps")).toBe("/apps");
    expect(safeNext("/packages?tier=pro", "")).toBe("/packages?tier=pro");
  });
  it("refuses an encoded slash or backslash in the path, which Better Auth refuses as a callback URL", () => {
    for (const bad of [
      "/dashboard%2Fbilling",
      "/dashboard%2fbilling",
      "/dashboard%5Cbilling",
      "/dashboard%5cbilling",
      "/%2F%2Fevil.example",
      "/%2fevil.example?x=1",
      "/dashboard\u0085",
    ]) {
      expect(safeNext(bad)).toBe("/dashboard");
    }
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

/** The Location of the redirect requireUser throws for a signed-out request. */
async function signInRedirect(promise: Promise<unknown>): Promise<string | null> {
  const thrown = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(thrown).toBeInstanceOf(Response);
  return (thrown as Response).headers.get("Location");
}

const startTrialPost = () =>
  new Request("http://x/dashboard.data", { method: "POST", body: new URLSearchParams({ intent: "start-trial" }) });

type Reason = (request: Request) => Promise<SignInReason | null>;

describe("requireUser", () => {
  it("sends a signed-out request to /auth, with a reason only when the callback gives one", async () => {
    getSession.mockResolvedValue(null);
    expect(await signInRedirect(requireUser(startTrialPost()))).toBe("/auth?next=%2Fdashboard");
    const reason = vi.fn<Reason>(async (request) =>
      (await request.formData()).get("intent") === "start-trial" ? "dashboard-trial" : null,
    );
    expect(await signInRedirect(requireUser(startTrialPost(), reason))).toBe("/auth?next=%2Fdashboard&reason=dashboard-trial");
    // A body that cannot be read still ends in the plain sign-in redirect.
    const unreadable = new Request("http://x/dashboard.data", {
      method: "POST",
      body: "x",
      headers: { "Content-Type": "text/plain" },
    });
    expect(await signInRedirect(requireUser(unreadable, reason))).toBe("/auth?next=%2Fdashboard");
  });

  it("never asks for a reason (nor reads the body) when signed in", async () => {
    getSession.mockResolvedValue({ user: { id: "u1", email: "a@example.com", name: "A", emailVerified: true } });
    const reason = vi.fn<Reason>(async () => "addons");
    expect(await requireUser(startTrialPost(), reason)).toMatchObject({ id: "u1" });
    expect(reason).not.toHaveBeenCalled();
  });
});
