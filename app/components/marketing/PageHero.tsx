import type * as React from "react";
import { cx } from "./Section";

/**
 * Dark page hero that slides under the fixed nav and ticker (the layout pads <main> by 6rem), so
 * no white strip shows when the ticker hides.
 */
export function PageHero({
  eyebrow,
  title,
  lead,
  children,
  className,
}: {
  eyebrow?: React.ReactNode;
  title: React.ReactNode;
  lead?: React.ReactNode;
  children?: React.ReactNode;
  className?: string;
}) {
  return (
    <section className={cx("relative -mt-24 overflow-hidden bg-ink pt-24 text-white", className)}>
      <div
        aria-hidden
        className="pointer-events-none absolute inset-0 bg-[radial-gradient(60rem_30rem_at_50%_-10%,rgba(99,102,241,0.35),transparent_70%)]"
      />
      <div className="relative mx-auto max-w-5xl px-4 py-16 text-center sm:px-6 sm:py-20">
        {eyebrow ? (
          <p className="inline-flex items-center gap-2 rounded-full border border-white/15 bg-white/5 px-3 py-1 text-sm font-medium text-indigo-100">
            {eyebrow}
          </p>
        ) : null}
        <h1 className="mt-5 text-4xl font-extrabold tracking-tight text-balance sm:text-5xl">{title}</h1>
        {lead ? <p className="mx-auto mt-5 max-w-2xl text-lg text-pretty text-slate-300">{lead}</p> : null}
        {children}
      </div>
    </section>
  );
}
