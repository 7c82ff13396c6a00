/**
 * Tells when the pointer and keyboard focus enter and leave an element (focus moving between its
 * own children is not leaving). Returns the function that stops listening. Moving content (the
 * ticker, the review carousel) holds still while someone is reading or operating it (WCAG 2.2.2).
 */
export function watchInside(el: HTMLElement, onChange: (what: "pointer" | "focus", inside: boolean) => void): () => void {
  const enter = () => onChange("pointer", true);
  const leave = () => onChange("pointer", false);
  const focusIn = () => onChange("focus", true);
  const focusOut = (e: FocusEvent) => {
    if (!el.contains(e.relatedTarget as Node | null)) onChange("focus", false);
  };
  el.addEventListener("pointerenter", enter);
  el.addEventListener("pointerleave", leave);
  el.addEventListener("focusin", focusIn);
  el.addEventListener("focusout", focusOut);
  return () => {
    el.removeEventListener("pointerenter", enter);
    el.removeEventListener("pointerleave", leave);
    el.removeEventListener("focusin", focusIn);
    el.removeEventListener("focusout", focusOut);
  };
}
