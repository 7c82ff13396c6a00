import { useEffect, useState } from "react";

export interface AuthNotice {
  /** Distinct per notice, so the same text can be shown twice in a row. */
  id: number;
  kind: "success" | "error";
  title: string;
  description?: string;
}

type Sonner = typeof import("sonner");

/**
 * sonner's toaster for /auth, loaded with the first notice instead of with the page (the same
 * pattern as LazyToaster): the sign-in page's first paint and hydration do not pay for it.
 * Error toasts are white on the theme's red (AA contrast); success toasts keep sonner's defaults.
 */
export function AuthToaster({ notice }: { notice: AuthNotice | null }) {
  const [sonner, setSonner] = useState<Sonner | null>(null);

  useEffect(() => {
    if (notice && !sonner) void import("sonner").then(setSonner);
  }, [notice, sonner]);

  // Runs after the Toaster (a child) has subscribed to the toast store in its own effect.
  useEffect(() => {
    if (!notice || !sonner) return;
    const options = notice.description ? { description: notice.description } : undefined;
    if (notice.kind === "error") sonner.toast.error(notice.title, options);
    else sonner.toast.success(notice.title, options);
  }, [notice, sonner]);

  if (!sonner) return null;
  return (
    <sonner.Toaster
      position="top-center"
      toastOptions={{
        classNames: {
          error: "border-destructive! bg-destructive! text-white! [&_[data-description]]:text-white!",
          success: "border-emerald-700! bg-emerald-700! text-white! [&_[data-description]]:text-white!",
        },
      }}
    />
  );
}
