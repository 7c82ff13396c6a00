import type { ReactNode } from "react";

/**
 * The console's answer to an action, under its form: a status read out politely when it worked, an
 * alert when it did not.
 */
export function ActionAnswer({
  ok,
  id,
  className = "",
  children,
}: {
  ok: boolean;
  id?: string;
  /** Spacing from the form above (a margin class). */
  className?: string;
  children: ReactNode;
}) {
  return (
    <p
      id={id}
      role={ok ? "status" : "alert"}
      className={`${className ? `${className} ` : ""}text-sm font-medium ${ok ? "text-emerald-800" : "text-destructive"}`}
    >
      {children}
    </p>
  );
}
