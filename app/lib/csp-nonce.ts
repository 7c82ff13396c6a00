import { createContext as createRouterContext } from "react-router";
import { createContext } from "react";

/**
 * The per-request CSP nonce. The Express pipeline makes it (server/app.ts) and puts it in the
 * router context; entry.server.tsx passes it to React's streaming scripts and, through this React
 * context, to <Scripts>/<ScrollRestoration> in root.tsx. In the browser it is empty, as browsers
 * hide nonce attributes from scripts anyway.
 */
export const cspNonceRouterContext = createRouterContext<string | undefined>(undefined);
export const CspNonceContext = createContext<string | undefined>(undefined);
