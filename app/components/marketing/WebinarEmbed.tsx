import { CalendarClock } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { useHydrated } from "~/lib/use-hydrated";
import { acceptWebinarMessage } from "~/lib/webinar-messages";

export const WEBINAR_FRAME_ID = "webinar-frame";
const INITIAL_HEIGHT = 640;
const FRAME_TITLE = "Webinar registration form";
const FRAME_CLASS = "block w-full rounded-xl border bg-white";
// The registration form needs its own scripts, forms and (for calendar links) popups; nothing else.
const FRAME_SANDBOX = "allow-scripts allow-forms allow-same-origin allow-popups allow-popups-to-escape-sandbox";

/**
 * The third-party webinar registration form in an iframe (spec: /live-training; DESIGN section 4,
 * 'Embeds'). Messages resize or hide the frame only when they come from the configured origin AND
 * from this frame's window (see acceptWebinarMessage).
 *
 * With JavaScript the frame is created after hydration, once the message listener is in place, so
 * a resize sent on load is never missed; without JavaScript a <noscript> copy of the frame shows.
 * A fixed initial height reserves the space in both cases.
 */
export function WebinarEmbed({ src, origin }: { src: string | null; origin: string | null }) {
  const frame = useRef<HTMLIFrameElement>(null);
  const mounted = useHydrated();
  const [height, setHeight] = useState(INITIAL_HEIGHT);
  const [hidden, setHidden] = useState(false);

  useEffect(() => {
    const onMessage = (event: MessageEvent) => {
      const msg = acceptWebinarMessage(event, { origin, source: frame.current?.contentWindow ?? null });
      if (!msg) return;
      if (msg.type === "hide") setHidden(true);
      else setHeight(msg.height);
    };
    window.addEventListener("message", onMessage);
    return () => window.removeEventListener("message", onMessage);
  }, [origin]);

  if (!src || hidden) {
    return (
      <div className="flex flex-col items-center gap-3 rounded-xl border border-dashed border-indigo-300 bg-secondary px-6 py-12 text-center">
        <CalendarClock className="size-10 text-primary" aria-hidden />
        <p className="text-lg font-semibold text-secondary-foreground">
          {hidden ? "Webinar registration is closed for now" : "Webinar registration opens soon"}
        </p>
        <p className="max-w-md text-sm text-muted-foreground">
          New session dates are announced here. Want help sooner? Request a personal consultation below and an AI specialist will
          walk you through it.
        </p>
        <a href="#consultation" className="text-sm font-semibold text-primary underline underline-offset-4">
          Request a consultation
        </a>
      </div>
    );
  }

  return (
    <div style={{ minHeight: mounted ? undefined : INITIAL_HEIGHT }}>
      {mounted ? (
        <iframe
          ref={frame}
          id={WEBINAR_FRAME_ID}
          src={src}
          title={FRAME_TITLE}
          sandbox={FRAME_SANDBOX}
          referrerPolicy="strict-origin-when-cross-origin"
          className={FRAME_CLASS}
          style={{ height }}
        />
      ) : (
        <noscript>
          <iframe
            src={src}
            title={FRAME_TITLE}
            sandbox={FRAME_SANDBOX}
            referrerPolicy="strict-origin-when-cross-origin"
            className={FRAME_CLASS}
            style={{ height: INITIAL_HEIGHT }}
          />
        </noscript>
      )}
    </div>
  );
}
