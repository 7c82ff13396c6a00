import type * as React from "react";

/**
 * Class strings for the marketing pages that sit on the home page's JavaScript budget. They
 * deliberately avoid `cn` (tailwind-merge) and `buttonVariants` (class-variance-authority): those
 * two libraries alone would cost more than the whole home page. Compose without conflicting classes.
 */

/** Joins class names, skipping falsy ones. No conflict resolution: do not pass two of the same kind. */
export function cx(...classes: Array<string | false | null | undefined>): string {
  return classes.filter(Boolean).join(" ");
}

const button =
  "inline-flex items-center justify-center gap-2 rounded-md text-center font-semibold transition-colors focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2 [&_svg]:size-4 [&_svg]:shrink-0";

export const BUTTON = {
  /** Large size: add one colour below. */
  lg: `${button} min-h-11 px-6 py-2 text-base`,
  sm: `${button} min-h-9 px-3 py-1.5 text-sm`,
  primary: "bg-primary text-primary-foreground hover:bg-primary/90",
  outline: "border border-input bg-background text-foreground hover:bg-muted",
  /** Amber on the dark navy sections. */
  amber: "bg-amber-400 text-ink hover:bg-amber-300",
  /** Outlined white on the dark navy sections. */
  onDark: "border border-white/40 text-white hover:bg-white/10",
} as const;

/** Opens a page section: small eyebrow, heading, lead paragraph. Shared by the marketing pages. */
export function SectionHeading({
  eyebrow,
  title,
  lead,
  id,
  dark = false,
  className,
}: {
  eyebrow?: string;
  title: React.ReactNode;
  lead?: React.ReactNode;
  id?: string;
  dark?: boolean;
  className?: string;
}) {
  return (
    <div className={cx("mx-auto max-w-3xl text-center", className)}>
      {eyebrow ? (
        <p className={cx("text-sm font-semibold uppercase tracking-wider", dark ? "text-amber-300" : "text-primary")}>
          {eyebrow}
        </p>
      ) : null}
      <h2
        id={id}
        className={cx("mt-2 text-3xl font-bold tracking-tight text-balance sm:text-4xl", dark ? "text-white" : "text-foreground")}
      >
        {title}
      </h2>
      {lead ? <p className={cx("mt-4 text-lg text-pretty", dark ? "text-slate-300" : "text-muted-foreground")}>{lead}</p> : null}
    </div>
  );
}

/** A link that opens an external page (the demo scheduler) in a new tab, and says so to screen readers. */
export function ExternalLink({ href, className, children }: { href: string; className?: string; children: React.ReactNode }) {
  return (
    <a href={href} target="_blank" rel="noopener noreferrer" className={className}>
      {children}
      <span className="sr-only"> (opens in a new tab)</span>
    </a>
  );
}
