import { cn } from "~/lib/utils";

/** A no-JavaScript checkout's failure (the page's action answer), under the button that was pressed. */
export function CheckoutFormError({ message, className }: { message: string | null; className?: string }) {
  if (!message) return null;
  return (
    <p role="alert" className={cn("text-sm font-medium text-destructive", className)} data-testid="checkout-error">
      {message}
    </p>
  );
}
