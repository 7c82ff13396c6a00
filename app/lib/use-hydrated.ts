import { useEffect, useSyncExternalStore, type RefObject } from "react";

const subscribe = () => () => {};

/**
 * False on the server and during hydration, true afterwards. Lets a component render its
 * no-JavaScript form first (matching the server HTML) and switch to the interactive one after.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}

/** A left click without modifier keys: the only click a link handler should take over. */
export function isPlainClick(event: { button: number; metaKey: boolean; ctrlKey: boolean; shiftKey: boolean; altKey: boolean }) {
  return event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey;
}

/**
 * What was typed into a field before hydration, read into state once hydrated. The page works
 * before its JavaScript, so a visitor may type first; React keeps that text on the page but its
 * state starts from the server's value. Such a field must be uncontrolled (`defaultValue`): React
 * sets a controlled field back to its state on the next render, and a required field emptied that
 * way stops its form from being submitted at all.
 */
export function useTypedBeforeHydration(field: RefObject<HTMLInputElement | null>, onValue: (value: string) => void) {
  useEffect(() => {
    if (field.current) onValue(field.current.value);
    // Once, after hydration: later typing reaches state through onChange.
    // oxlint-disable-next-line react-hooks/exhaustive-deps
  }, []);
}
