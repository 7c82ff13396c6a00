import { Check, Copy } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { Button } from "~/components/ui/button";

/** The referral link with a copy button; the result is announced politely to screen readers. */
export function CopyLink({ link }: { link: string }) {
  const [status, setStatus] = useState<"idle" | "copied" | "failed">("idle");
  const input = useRef<HTMLInputElement>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const copy = async () => {
    clearTimeout(timer.current);
    try {
      await navigator.clipboard.writeText(link);
      setStatus("copied");
    } catch {
      // No clipboard permission (or an insecure context): select the text for a manual copy.
      input.current?.select();
      setStatus("failed");
    }
    timer.current = setTimeout(() => setStatus("idle"), 4000);
  };

  return (
    <div>
      <div className="flex flex-col gap-2 sm:flex-row">
        <label htmlFor="referral-link" className="sr-only">
          Your referral link
        </label>
        <input
          ref={input}
          id="referral-link"
          readOnly
          value={link}
          onFocus={(e) => e.currentTarget.select()}
          className="h-11 w-full min-w-0 rounded-md border border-input bg-background px-3 font-mono text-sm sm:flex-1"
        />
        <Button type="button" size="lg" onClick={() => void copy()} className="sm:w-36">
          {status === "copied" ? <Check aria-hidden /> : <Copy aria-hidden />}
          {status === "copied" ? "Copied" : "Copy link"}
        </Button>
      </div>
      <output aria-live="polite" className="mt-2 block min-h-5 text-sm text-muted-foreground">
        {status === "copied"
          ? "Referral link copied to the clipboard."
          : status === "failed"
            ? "Press Ctrl+C (or ⌘C) to copy the selected link."
            : ""}
      </output>
    </div>
  );
}
