import { createContext, use, useCallback, useMemo, useSyncExternalStore, type ReactNode } from "react";
import { ADDON_CART_MINIMUM } from "~/catalogue/addons";

/** Spec section 3 'Cart item'. Prices in cents (monthly for subscriptions). */
export interface CartItem {
  id: string;
  type: "plan" | "addon";
  name: string;
  price: number;
  isSubscription: boolean;
  originalItem?: { category?: string };
}

export interface CartState {
  items: CartItem[];
  /** Adds the item; an item already in the cart is updated (price, subscription flag), never duplicated. */
  addItem(item: CartItem): void;
  removeItem(id: string): void;
  clearCart(): void;
  /** Keeps only items `keep` accepts (drops add-ons bought meanwhile or no longer sold). */
  prune(keep: (item: CartItem) => boolean): void;
  has(id: string): boolean;
  /** Cents per month. */
  total: number;
  addonCount: number;
  /** Spec section 4: the add-on minimum is met at 3 or more add-ons. */
  minimumMet: boolean;
  /** Add-ons still needed to meet the minimum (0 when met). */
  remaining: number;
}

/** Pure cart rule: add or update in place. */
function upsertItem(items: readonly CartItem[], item: CartItem): CartItem[] {
  const i = items.findIndex((x) => x.id === item.id && x.type === item.type);
  if (i < 0) return [...items, item];
  const next = [...items];
  next[i] = {
    ...next[i]!,
    name: item.name,
    price: item.price,
    isSubscription: item.isSubscription,
    originalItem: item.originalItem,
  };
  return next;
}

const CartContext = createContext<CartState | null>(null);

const isItem = (v: unknown): v is CartItem =>
  typeof v === "object" &&
  v !== null &&
  typeof (v as CartItem).id === "string" &&
  ((v as CartItem).type === "addon" || (v as CartItem).type === "plan") &&
  typeof (v as CartItem).name === "string" &&
  typeof (v as CartItem).price === "number" &&
  typeof (v as CartItem).isSubscription === "boolean";

/** A cart saved in sessionStorage under one key, shared by every component reading it. */
interface CartStore {
  read(): CartItem[];
  write(next: CartItem[]): void;
  subscribe(listener: () => void): () => void;
}

const EMPTY: CartItem[] = [];
const stores = new Map<string, CartStore>();

function cartStore(key: string): CartStore {
  const existing = stores.get(key);
  if (existing) return existing;
  let items: CartItem[] | null = null;
  const listeners = new Set<() => void>();
  const store: CartStore = {
    read() {
      if (items === null) {
        try {
          const saved: unknown = JSON.parse(window.sessionStorage.getItem(key) ?? "[]");
          items = Array.isArray(saved) ? saved.filter(isItem).slice(0, 20) : [];
        } catch {
          items = [];
        }
      }
      return items;
    },
    write(next) {
      if (next === items) return;
      items = next;
      try {
        window.sessionStorage.setItem(key, JSON.stringify(next));
      } catch {
        // Storage full or disabled: the cart still works for this page view.
      }
      for (const listener of listeners) listener();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  stores.set(key, store);
  return store;
}

/**
 * The add-on cart. Kept for the tab's session (sessionStorage) so a reload keeps it; the server
 * renders it empty and the saved cart appears after hydration. Prices shown are the catalogue's;
 * the server prices the checkout from the ids alone.
 */
export function CartProvider({ children, storageKey = "addon-cart" }: { children: ReactNode; storageKey?: string }) {
  const store = useMemo(() => (typeof window === "undefined" ? null : cartStore(storageKey)), [storageKey]);
  const items = useSyncExternalStore(
    useCallback((listener: () => void) => store?.subscribe(listener) ?? (() => {}), [store]),
    () => store?.read() ?? EMPTY,
    () => EMPTY,
  );

  const update = useCallback((change: (prev: CartItem[]) => CartItem[]) => store?.write(change(store.read())), [store]);
  const addItem = useCallback((item: CartItem) => update((prev) => upsertItem(prev, item)), [update]);
  const removeItem = useCallback((id: string) => update((prev) => prev.filter((x) => x.id !== id)), [update]);
  const clearCart = useCallback(() => update(() => EMPTY), [update]);
  const prune = useCallback(
    (keep: (item: CartItem) => boolean) =>
      update((prev) => {
        const next = prev.filter(keep);
        return next.length === prev.length ? prev : next;
      }),
    [update],
  );

  const value = useMemo<CartState>(() => {
    const addonCount = items.filter((x) => x.type === "addon").length;
    return {
      items,
      addItem,
      removeItem,
      clearCart,
      prune,
      has: (id) => items.some((x) => x.id === id),
      total: items.reduce((sum, x) => sum + x.price, 0),
      addonCount,
      minimumMet: addonCount >= ADDON_CART_MINIMUM,
      remaining: Math.max(0, ADDON_CART_MINIMUM - addonCount),
    };
  }, [items, addItem, removeItem, clearCart, prune]);

  return <CartContext value={value}>{children}</CartContext>;
}

export function useCart(): CartState {
  const cart = use(CartContext);
  if (!cart) throw new Error("useCart must be used within a CartProvider");
  return cart;
}
