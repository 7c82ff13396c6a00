import { useEffect, useState } from "react";

export interface Notice {
  /** Distinct per notice, so the same text can be shown twice. */
  id: number;
  title: string;
  description?: string;
}

type Sonner = typeof import("sonner");

/**
 * sonner's toaster, loaded with the first notice instead of with the page: its module injects CSS
 * and its mount reads computed styles, work that the first paint and hydration should not pay for.
 * Destructive styling: white on the theme's red (AA contrast) instead of sonner's rich colours.
 */
export function LazyToaster({ notice }: { notice: Notice | null }) {
  const [sonner, setSonner] = useState<Sonner | null>(null);

  useEffect(() => {
    if (notice && !sonner) void import("sonner").then(setSonner);
  }, [notice, sonner]);

  // Runs after the Toaster (a child) has subscribed to the toast store in its own effect.
  useEffect(() => {
    if (notice && sonner) sonner.toast.error(notice.title, notice.description ? { description: notice.description } : undefined);
  }, [notice, sonner]);

  if (!sonner) return null;
  return (
    <sonner.Toaster
      position="top-center"
      toastOptions={{
        classNames: { error: "border-destructive! bg-destructive! text-white! [&_[data-description]]:text-white!" },
      }}
    />
  );
}
