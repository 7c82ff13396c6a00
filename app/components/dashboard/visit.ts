import { useEffect, useRef } from "react";
import { useLocation } from "react-router";
import { writeBrowserTimeZone } from "~/lib/time-zone";

/**
 * Reports each dashboard page the customer opens, once (POST /api/dashboard/visit; ADR 0027): on the
 * first render of a document load, and on every move to another dashboard page. Search-parameter
 * changes on the same page, revalidations and prefetches are not visits.
 */
export function useDashboardVisit() {
  const { pathname } = useLocation();
  const reported = useRef<string | null>(null);
  useEffect(() => {
    // React's development StrictMode runs effects twice: still one visit.
    if (reported.current === pathname) return;
    reported.current = pathname;
    // The visit carries the browser's zone (its cookie), which an account without one keeps: this
    // effect runs before the root's, which writes the cookie on other pages.
    writeBrowserTimeZone();
    // A lost report loses one count of the analytics chart, nothing the customer relies on.
    void fetch("/api/dashboard/visit", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ path: pathname.replace(/\/+$/, "") || "/dashboard" }),
      keepalive: true,
    }).catch(() => {});
  }, [pathname]);
}
