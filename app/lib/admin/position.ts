/**
 * Catalogue order: apps and add-ons each hold a position 1..n, unique and without gaps
 * (docs/decisions/0080-catalogue-order-and-add-on-creation.md). These are the rules a move
 * follows; the transaction that applies them is app/server/admin/catalogue-order.server.ts.
 */

export type PositionCheck = { ok: true; position: number } | { ok: false; message: string };

/**
 * The position the operator asked for, checked against how many rows there are: a whole number
 * from 1 to `count`. The message is the field's, shown beside it.
 */
export function checkPosition(raw: unknown, count: number): PositionCheck {
  const range = `from 1 to ${count.toLocaleString("en-US")}`;
  if (typeof raw !== "string" || raw.trim() === "") return { ok: false, message: `Enter a position ${range}.` };
  const text = raw.trim();
  if (!/^\d{1,9}$/.test(text)) return { ok: false, message: `The position is a whole number ${range}.` };
  const position = Number(text);
  if (position < 1 || position > count) return { ok: false, message: `The position is ${range}.` };
  return { ok: true, position };
}

/**
 * The rows a move from `from` to `to` shifts, and by how much: moving down (to a larger number)
 * pulls the rows in between up by one; moving up pushes them down. Null when nothing moves.
 */
export function shiftOf(from: number, to: number): { first: number; last: number; by: 1 | -1 } | null {
  if (from === to) return null;
  return from < to ? { first: from + 1, last: to, by: -1 } : { first: to, last: from - 1, by: 1 };
}

/** The confirmation the page shows after a move. */
export function movedMessage(from: number, to: number, count: number): string {
  const of = count.toLocaleString("en-US");
  return from === to ? `Already at position ${to} of ${of}; nothing changed.` : `Moved from position ${from} to ${to} of ${of}.`;
}

/** A list in a new order, as a move gives it (for tests and previews): the item at `from` (1-based) goes to `to`. */
export function moved<T>(list: readonly T[], from: number, to: number): T[] {
  const next = [...list];
  const [item] = next.splice(from - 1, 1);
  if (item === undefined) return next;
  next.splice(to - 1, 0, item);
  return next;
}

/** The order form's summary when a move is refused (the reason is beside the field). */
export const NOT_MOVED = "Not moved: check the position.";

/** What the operator typed in the position field, kept short, to show it again beside its message. */
export function typedPosition(raw: unknown): string {
  return typeof raw === "string" ? raw.slice(0, 20) : "";
}
