import type * as React from "react";
import { Link, useNavigate } from "react-router";

/**
 * "Back" that returns to the previous page like the browser's back button when there is one in
 * this tab (React Router numbers its history entries), and otherwise, or without JavaScript,
 * follows `fallback`.
 */
export function BackLink({ fallback, className, children }: { fallback: string; className?: string; children: React.ReactNode }) {
  const navigate = useNavigate();
  return (
    <Link
      to={fallback}
      className={className}
      onClick={(e) => {
        if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
        const idx = (window.history.state as { idx?: number } | null)?.idx ?? 0;
        if (idx > 0) {
          e.preventDefault();
          void navigate(-1);
        }
      }}
    >
      {children}
    </Link>
  );
}
