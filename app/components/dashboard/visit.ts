import { useEffect, useRef } from "react";
import { useLocation } from "react-router";
import { writeBrowserTimeZone } from "~/lib/time-zone";

/**
 * Reports each dashboard page the customer opens, once (POST /api/dashboard/visit; ADR 0027): on the
 * first render of a document load, and on every move to another dashboard page. Search-parameter
 * changes on the same page, revalidations and prefetches are not visits. The answer's free-preview
 * seconds (the server's clock, counted from the first visit) go to `onPreviewSeconds`, which must be
 * stable (useCallback): the page's path alone decides what is a visit.
 */
export function useDashboardVisit(onPreviewSeconds: (seconds: number) => void) {
  const { pathname } = useLocation();
  const reported = useRef<string | null>(null);
  useEffect(() => {
    // React's development StrictMode runs effects twice: still one visit.
    if (reported.current === pathname) return;
    reported.current = pathname;
    // The visit carries the browser's zone (its cookie), which an account without one keeps: this
    // effect runs before the root's, which writes the cookie on other pages.
    writeBrowserTimeZone();
    // A lost report loses one count of the analytics chart, nothing the customer relies on (the
    // preview then counts down from the page's own figure).
    void fetch("/api/dashboard/visit", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ path: pathname.replace(/\/+$/, "") || "/dashboard" }),
      keepalive: true,
    })
      .then((res) => (res.ok ? (res.json() as Promise<{ previewSeconds?: number | null }>) : null))
      .then((answer) => {
        if (typeof answer?.previewSeconds === "number") onPreviewSeconds(answer.previewSeconds);
      })
      .catch(() => {});
  }, [pathname, onPreviewSeconds]);
}
