import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { sendToSignIn, syncSubscription } from "./checkout";

const assign = vi.fn<(url: string) => void>();

/** A fetch that answers once with `res`, remembering what it was asked. */
function answer(res: Response | Error) {
  const fetch = vi.fn<(url: string, init?: RequestInit) => Promise<Response>>(() =>
    res instanceof Error ? Promise.reject(res) : Promise.resolve(res),
  );
  vi.stubGlobal("fetch", fetch);
  return fetch;
}

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });

describe("syncSubscription (Refresh status and the checkout return)", () => {
  beforeEach(() => {
    assign.mockReset();
    vi.stubGlobal("window", { location: { pathname: "/dashboard/billing", assign } });
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it("is a success only with the endpoint's summary, and reports the order's status", async () => {
    const fetch = answer(json({ subscription: { active: true }, order: { status: "paid", kind: "plan" } }));
    expect(await syncSubscription("cs_test_1")).toEqual({ ok: true, signedOut: false, orderStatus: "paid" });
    expect(fetch).toHaveBeenCalledWith("/api/billing/sync", expect.objectContaining({ method: "POST" }));
    expect(JSON.parse(String(fetch.mock.calls[0]![1]!.body))).toEqual({
      sessionId: "cs_test_1",
    });
    answer(json({ subscription: { active: false }, order: null }));
    expect(await syncSubscription()).toEqual({ ok: true, signedOut: false, orderStatus: null });
    expect(assign).not.toHaveBeenCalled();
  });

  it("a 401 (the session ended) sends the customer to sign in and back, and is no success", async () => {
    answer(json({ error: "Authentication required" }, 401));
    expect(await syncSubscription()).toEqual({ ok: false, signedOut: true, orderStatus: null });
    expect(assign).toHaveBeenCalledWith("/auth?next=%2Fdashboard%2Fbilling");
  });

  it("a page reached through a redirect, an error status, a non-JSON body or no network is a failure", async () => {
    const page = new Response("<!doctype html><title>Sign in</title>", { status: 200, headers: { "Content-Type": "text/html" } });
    answer(page);
    expect(await syncSubscription()).toEqual({ ok: false, signedOut: false, orderStatus: null });

    const followed = json({ subscription: {} });
    Object.defineProperty(followed, "redirected", { value: true });
    answer(followed);
    expect((await syncSubscription()).ok).toBe(false);

    answer(json({ error: "Order not found" }, 404));
    expect((await syncSubscription("cs_test_other")).ok).toBe(false);
    answer(new TypeError("Failed to fetch"));
    expect(await syncSubscription()).toEqual({ ok: false, signedOut: false, orderStatus: null });
    expect(assign).not.toHaveBeenCalled();
  });
});

describe("sendToSignIn", () => {
  beforeEach(() => {
    assign.mockReset();
    vi.stubGlobal("window", { location: { pathname: "/dashboard/addons", assign } });
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it("comes back to this page, with the reason code /auth explains when one is given", () => {
    sendToSignIn();
    expect(assign).toHaveBeenLastCalledWith("/auth?next=%2Fdashboard%2Faddons");
    sendToSignIn("addons");
    expect(assign).toHaveBeenLastCalledWith("/auth?next=%2Fdashboard%2Faddons&reason=addons");
  });
});
