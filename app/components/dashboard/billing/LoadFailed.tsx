import { AlertTriangle, RefreshCw } from "lucide-react";
import { useRevalidator } from "react-router";
import { Button } from "~/components/ui/button";

/** A page's data could not be read: the spec's message and a way to read it again. */
export function LoadFailed({ message }: { message: string }) {
  const { revalidate } = useRevalidator();
  return (
    <div role="alert" className="flex flex-col items-start gap-3 rounded-xl border border-destructive/40 bg-destructive/5 p-6">
      <p className="flex items-center gap-2 font-semibold text-destructive">
        <AlertTriangle className="size-5" aria-hidden="true" />
        {message}
      </p>
      <Button type="button" variant="outline" onClick={() => void revalidate()}>
        <RefreshCw aria-hidden="true" />
        Try again
      </Button>
    </div>
  );
}
