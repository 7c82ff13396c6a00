import { Loader2, RotateCcw } from "lucide-react";
import { Form, useNavigation } from "react-router";
import { Button } from "~/components/ui/button";
import { ActionAnswer } from "~/components/admin/ActionAnswer";

/**
 * The "Retry delivery" button of a record whose delivery failed or is stuck (a lead, an email),
 * posting `intent`, and the answer of the last post, read out when it appears.
 */
export function RetryDelivery({
  intent,
  retryable,
  answer,
}: {
  intent: string;
  retryable: boolean;
  answer: { ok: boolean; message: string } | undefined;
}) {
  const busy = useNavigation().state === "submitting";
  return (
    <>
      {retryable ? (
        <Form method="post" className="mt-4">
          <input type="hidden" name="intent" value={intent} />
          <Button type="submit" size="sm" variant="outline" disabled={busy}>
            {busy ? <Loader2 className="animate-spin" aria-hidden /> : <RotateCcw aria-hidden />}
            Retry delivery
          </Button>
        </Form>
      ) : null}
      {answer ? (
        <ActionAnswer ok={answer.ok} className="mt-3">
          {answer.message}
        </ActionAnswer>
      ) : null}
    </>
  );
}
