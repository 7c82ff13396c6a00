import { useEffect } from "react";
import { useSearchParams } from "react-router";
import { toast, Toaster } from "sonner";
import { TOASTER_PROPS } from "~/components/toast-style";
import { toastMessage } from "./nav";

export interface ErrorNotice {
  /** Distinct per notice so the same message can show twice. */
  id: string;
  title: string;
  description: string;
}

/**
 * The dashboard's toaster. Maps `?toast=` keys set by redirects to success toasts, then removes the
 * parameter (replace, so Back does not replay it). Effects run child-first, so the Toaster below
 * has subscribed to the toast store before these effects fire.
 */
export function DashboardToasts({ error }: { error: ErrorNotice | null }) {
  const [params, setParams] = useSearchParams();
  const key = params.get("toast");

  useEffect(() => {
    if (key === null) return;
    const message = toastMessage(key);
    if (message) toast.success(message);
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        next.delete("toast");
        return next;
      },
      { replace: true, preventScrollReset: true },
    );
  }, [key, setParams]);

  useEffect(() => {
    if (error) toast.error(error.title, { description: error.description });
  }, [error]);

  return <Toaster {...TOASTER_PROPS} />;
}
