import { auth } from "~/server/auth/auth.server";
import type { Route } from "./+types/auth";

/** Better Auth's handler for /api/auth/* (sign-in, sign-up, OAuth callbacks, verification, reset…). */
export function loader({ request }: Route.LoaderArgs) {
  return auth().handler(request);
}

export function action({ request }: Route.ActionArgs) {
  return auth().handler(request);
}
