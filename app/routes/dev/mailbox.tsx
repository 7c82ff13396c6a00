import { data } from "react-router";
import { devMailboxEnabled, isLoopbackClient, mailboxRows } from "~/server/mail/mail.server";
import type { Route } from "./+types/mailbox";

/**
 * Local dev mailbox: every email the server "sent" while no SMTP server is configured. Only on a
 * non-public install (see devMailboxEnabled); elsewhere it is a 404. /dev/mailbox.json answers JSON.
 * An email's HTML part is shown in a sandboxed frame (`srcdoc`, no scripts, no same origin), so it
 * looks as a mail client shows it and can reach nothing of the site's.
 */
export async function loader({ request }: Route.LoaderArgs) {
  if (!devMailboxEnabled() || !isLoopbackClient(request)) throw data("Not Found", { status: 404 });
  const to = new URL(request.url).searchParams.get("to");
  return { mails: await mailboxRows(to) };
}

export const meta: Route.MetaFunction = () => [{ title: "Dev mailbox" }, { name: "robots", content: "noindex" }];

const linkify = (text: string) =>
  text.split(/(https?:\/\/\S+)/g).map((part, i) =>
    /^https?:\/\//.test(part) ? (
      <a key={i} href={part} className="break-all font-semibold text-primary underline">
        {part}
      </a>
    ) : (
      <span key={i}>{part}</span>
    ),
  );

export default function Mailbox({ loaderData }: Route.ComponentProps) {
  return (
    <main className="mx-auto max-w-3xl p-4 sm:p-6">
      <h1 className="text-2xl font-bold">Dev mailbox</h1>
      <p className="mt-1 text-sm text-muted-foreground">
        Emails kept locally because no SMTP server is configured (SMTP_URL). Newest first.
      </p>
      {loaderData.mails.length === 0 ? (
        <p className="mt-8 rounded-lg border p-6 text-center text-muted-foreground">No emails yet.</p>
      ) : (
        <ul className="mt-6 space-y-4">
          {loaderData.mails.map((m) => (
            <li key={m.id} className="rounded-lg border p-4">
              <p className="break-words text-sm text-muted-foreground">
                To <strong className="text-foreground">{m.to}</strong> · {new Date(m.createdAt).toUTCString()}
                {m.kind ? <> · {m.kind}</> : null}
              </p>
              <h2 className="mt-1 font-semibold">{m.subject}</h2>
              {m.error ? (
                <p role="alert" className="mt-2 text-sm text-destructive">
                  {m.error}
                </p>
              ) : null}
              {m.html ? (
                <details className="mt-3" open={m.id === loaderData.mails[0]?.id}>
                  <summary className="cursor-pointer text-sm font-medium">HTML part</summary>
                  <iframe
                    title={`HTML part of “${m.subject}”`}
                    srcDoc={m.html}
                    sandbox=""
                    loading="lazy"
                    className="mt-2 h-[32rem] w-full rounded-md border bg-white"
                  />
                </details>
              ) : null}
              {m.html ? (
                <details className="mt-3">
                  <summary className="cursor-pointer text-sm font-medium">Text part</summary>
                  <p className="mt-2 whitespace-pre-wrap break-words text-sm">{linkify(m.text)}</p>
                </details>
              ) : (
                <p className="mt-2 whitespace-pre-wrap break-words text-sm">{linkify(m.text)}</p>
              )}
            </li>
          ))}
        </ul>
      )}
    </main>
  );
}
