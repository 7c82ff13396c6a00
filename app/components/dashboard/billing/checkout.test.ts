import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { BILLING_ERRORS, REFRESHED, returnToast, sendToSignIn, syncSubscription } from "./checkout";

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

describe("returnToast (the one toast of ?success=true)", () => {
  const messages = {
    success: "Payment successful",
    successDescription: "Your new plan is active.",
    canceled: "Checkout canceled.",
  };

  it("says the payment succeeded only when the sync answered and the order is paid", () => {
    expect(returnToast({ ok: true, orderStatus: "paid" }, messages)).toEqual({
      tone: "success",
      title: "Payment successful",
      description: "Your new plan is active.",
    });
  });

  it("a failed sync, an open of ?success=true without an order, or an unpaid order is no success", () => {
    // The sync failed (network, 5xx, another user's session id): the spec's refresh failure.
    expect(returnToast({ ok: false, orderStatus: null }, messages)).toEqual({ tone: "error", title: BILLING_ERRORS.refresh });
    // No session id: the status was re-read, no payment is known.
    expect(returnToast({ ok: true, orderStatus: null }, messages)).toEqual({ tone: "info", title: REFRESHED });
    expect(returnToast({ ok: true, orderStatus: "pending" }, messages)).toMatchObject({
      tone: "info",
      title: "We're confirming your payment",
    });
    for (const status of ["declined", "canceled", "failed", "something-new"]) {
      const toast = returnToast({ ok: true, orderStatus: status }, messages);
      expect([status, toast.tone]).not.toEqual([status, "success"]);
      expect([status, toast.title]).not.toEqual([status, messages.success]);
    }
    expect(returnToast({ ok: true, orderStatus: "canceled" }, messages)).toMatchObject({
      tone: "error",
      title: "Order canceled",
    });
  });
});
