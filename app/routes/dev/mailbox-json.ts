import { data } from "react-router";
import { devMailboxEnabled, isLoopbackClient, mailboxRows } from "~/server/mail/mail.server";
import type { Route } from "./+types/mailbox-json";

/** The dev mailbox as JSON (`?to=<email>` filters), for scripts and end-to-end tests. */
export async function loader({ request }: Route.LoaderArgs) {
  if (!devMailboxEnabled() || !isLoopbackClient(request)) throw data("Not Found", { status: 404 });
  const rows = await mailboxRows(new URL(request.url).searchParams.get("to"));
  return Response.json(rows, { headers: { "Cache-Control": "no-store" } });
}
