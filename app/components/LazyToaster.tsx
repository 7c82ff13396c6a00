import { useEffect, useState } from "react";
import { TOASTER_PROPS } from "./toast-style";

export interface Notice {
  /** Distinct per notice, so the same text can be shown twice in a row. */
  id: number;
  /** Destructive by default. */
  kind?: "success" | "error";
  title: string;
  description?: string;
}

type Sonner = typeof import("sonner");

/**
 * sonner's toaster, loaded with the first notice instead of with the page: its module injects CSS
 * and its mount reads computed styles, work that the first paint and hydration should not pay for.
 * Error toasts are white on the theme's red, success toasts white on green (AA contrast).
 */
export function LazyToaster({ notice }: { notice: Notice | null }) {
  const [sonner, setSonner] = useState<Sonner | null>(null);

  useEffect(() => {
    if (notice && !sonner) void import("sonner").then(setSonner);
  }, [notice, sonner]);

  // Runs after the Toaster (a child) has subscribed to the toast store in its own effect.
  useEffect(() => {
    if (!notice || !sonner) return;
    const options = notice.description ? { description: notice.description } : undefined;
    if (notice.kind === "success") sonner.toast.success(notice.title, options);
    else sonner.toast.error(notice.title, options);
  }, [notice, sonner]);

  if (!sonner) return null;
  return <sonner.Toaster {...TOASTER_PROPS} />;
}
