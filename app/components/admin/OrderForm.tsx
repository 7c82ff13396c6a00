import { ArrowDown, ArrowUp, Loader2, MoveVertical } from "lucide-react";
import { Form, useNavigation } from "react-router";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { ActionAnswer } from "~/components/admin/ActionAnswer";

/** The action's answer to a move, as the page received it. */
export interface OrderAnswer {
  ok: boolean;
  message: string;
  /** Why the position typed was refused. */
  positionError?: string | undefined;
  /** What the operator typed, shown again beside its message. */
  position?: string | undefined;
}

/**
 * Where an app or add-on stands in its public order, and the ways to move it
 * (docs/decisions/0080-catalogue-order-and-add-on-creation.md): one step up or down, or straight to
 * a position. Each is a plain form posting intent=move with the position wanted, so it works with
 * the keyboard and without JavaScript; the server checks the number and answers beside the field.
 */
export function OrderForm({
  position,
  of,
  listedOn,
  hint,
  answer,
}: {
  position: number;
  of: number;
  /** Where the order shows, e.g. "/apps". */
  listedOn: string;
  hint: string;
  answer?: OrderAnswer | undefined;
}) {
  const navigation = useNavigation();
  const moving = navigation.state === "submitting" && navigation.formData?.get("intent") === "move";
  const step = (to: number, label: string, icon: React.ReactNode, disabled: boolean) => (
    <Form method="post">
      <input type="hidden" name="intent" value="move" />
      <input type="hidden" name="position" value={to} />
      <Button type="submit" variant="outline" disabled={disabled || moving}>
        {icon}
        {label}
      </Button>
    </Form>
  );
  const error = answer && !answer.ok ? answer.positionError : undefined;
  return (
    <div className="space-y-4">
      <p className="text-sm">
        Position{" "}
        <strong data-testid="order-position">
          {position} of {of}
        </strong>{" "}
        on {listedOn} (1 is first). {hint}
      </p>
      <div className="flex flex-wrap items-start gap-x-6 gap-y-3">
        {/* Level with the field's input, below its label, when they share a row. */}
        <div className="flex flex-wrap gap-3 sm:mt-[1.625rem]">
          {step(position - 1, "Move up", <ArrowUp aria-hidden />, position <= 1)}
          {step(position + 1, "Move down", <ArrowDown aria-hidden />, position >= of)}
        </div>
        {/* A fresh field after each move: it shows where the row is now. */}
        <Form method="post" key={position} className="space-y-1.5" aria-label="Move to a position" noValidate>
          <input type="hidden" name="intent" value="move" />
          <Label htmlFor="order-position">Move to position</Label>
          <div className="flex gap-3">
            <Input
              id="order-position"
              name="position"
              className="w-28"
              inputMode="numeric"
              autoComplete="off"
              defaultValue={answer && !answer.ok ? answer.position : String(position)}
              required
              {...(error ? { "aria-invalid": true, "aria-describedby": "order-position-error" } : {})}
            />
            <Button type="submit" disabled={moving}>
              {moving ? <Loader2 className="animate-spin" aria-hidden /> : <MoveVertical aria-hidden />}
              Move
            </Button>
          </div>
          {error ? (
            <p id="order-position-error" className="text-sm font-medium text-destructive">
              {error}
            </p>
          ) : null}
        </Form>
      </div>
      {answer ? <ActionAnswer ok={answer.ok}>{answer.message}</ActionAnswer> : null}
    </div>
  );
}
