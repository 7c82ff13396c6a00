import { randomBytes } from "node:crypto";

/** Path of the local provider's hosted checkout page for one session. */
export const localCheckoutUrl = (sessionId: string) => `/checkout/local/${sessionId}`;

/** An unguessable session id (192 random bits), in the shape payment providers use. */
export function newLocalSessionId(): string {
  return `cs_local_${randomBytes(24).toString("base64url")}`;
}
