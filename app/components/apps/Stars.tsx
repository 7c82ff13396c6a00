import { cn } from "~/lib/utils";

const STAR = "M10 1.5l2.6 5.4 5.9.8-4.3 4.1 1 5.8L10 14.8l-5.2 2.8 1-5.8L1.5 7.7l5.9-.8z";

/**
 * Five filled stars in one small SVG (the rating is always 5.0). One element instead of five icons
 * per card keeps the 181-card page light. Decorative: the number next to it carries the meaning.
 */
export function Stars({ className }: { className?: string }) {
  return (
    <svg viewBox="0 0 100 20" className={cn("h-4 w-20 fill-amber-400", className)} aria-hidden focusable="false">
      {[0, 20, 40, 60, 80].map((x) => (
        <path key={x} d={STAR} transform={`translate(${x} 0)`} />
      ))}
    </svg>
  );
}

/** One filled star for the cards' '5.0 (n reviews)' line. */
export function Star({ className }: { className?: string }) {
  return (
    <svg viewBox="0 0 20 20" className={cn("size-4 fill-amber-400", className)} aria-hidden focusable="false">
      <path d={STAR} />
    </svg>
  );
}
