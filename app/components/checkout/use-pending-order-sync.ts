import { useEffect, useRef } from "react";
import { useRevalidator } from "react-router";
import { syncSubscription } from "~/lib/billing-sync";

/**
 * A return page (/payment-success, /distributor-success) showing its order as still pending: the
 * buyer is often back before the payment provider's webhook. Ask the server once to re-read the
 * checkout from the provider (POST /api/billing/sync, which fulfils it with the webhook's checks),
 * and re-read the page when the order's state moved on.
 */
export function usePendingOrderSync(sessionId: string | null, pending: boolean) {
  const { revalidate } = useRevalidator();
  const asked = useRef(false);
  useEffect(() => {
    if (!pending || !sessionId || asked.current) return;
    asked.current = true;
    void syncSubscription(sessionId).then((sync) => {
      if (sync.ok && sync.orderStatus !== null && sync.orderStatus !== "pending") void revalidate();
    });
  }, [pending, sessionId, revalidate]);
}
