import { Loader2, UserMinus, UserPlus } from "lucide-react";
import { useEffect, useRef } from "react";
import { Form, useNavigation } from "react-router";
import { Field, FormAlert, FormStatus } from "~/components/auth/Field";
import { Button } from "~/components/ui/button";
import type { AdminOperator } from "~/server/admin/operators.server";

const th = "whitespace-nowrap py-2 pr-4 text-left font-medium";
const td = "py-2 pr-4 align-top";

export interface OperatorActionResult {
  ok: boolean;
  message: string;
  intent?: "grant-operator" | "revoke-operator";
  /** A refused grant's address, put back in the field (a page reloaded without JavaScript too). */
  email?: string;
}

function access(o: AdminOperator): string {
  const listed = !o.listed
    ? null
    : o.userId === null
      ? "OPERATOR_EMAILS (no account yet)"
      : o.emailVerified
        ? "OPERATOR_EMAILS"
        : "OPERATOR_EMAILS (email not verified)";
  return [o.granted ? "Granted" : null, listed].filter(Boolean).join(", ");
}

function RevokeButton({ operator }: { operator: AdminOperator }) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && navigation.formData?.get("userId") === operator.userId;
  return (
    <Form method="post">
      <input type="hidden" name="intent" value="revoke-operator" />
      <input type="hidden" name="userId" value={operator.userId ?? ""} />
      <Button
        type="submit"
        size="sm"
        variant="outline"
        disabled={busy}
        aria-label={`Revoke the operator role of ${operator.email}`}
      >
        {busy ? <Loader2 className="animate-spin" aria-hidden /> : <UserMinus aria-hidden />}
        Revoke
      </Button>
    </Form>
  );
}

/**
 * /admin → Operators: who may open /admin, and granting the role to an existing account by email
 * while the server runs (a PGlite folder cannot be opened by the CLI beside it). Addresses from
 * OPERATOR_EMAILS are configuration: listed, never revoked here; nobody revokes their own role.
 */
export function OperatorsSection({
  operators,
  me,
  result,
}: {
  operators: AdminOperator[];
  me: string;
  result?: OperatorActionResult;
}) {
  const navigation = useNavigation();
  const granting = navigation.state === "submitting" && navigation.formData?.get("intent") === "grant-operator";
  const grant = result?.intent === "grant-operator" ? result : undefined;
  const revoke = result?.intent === "revoke-operator" ? result : undefined;
  const form = useRef<HTMLFormElement>(null);
  // A granted address is cleared from the field; a refused one stays there to be corrected.
  useEffect(() => {
    if (grant?.ok) form.current?.reset();
  }, [grant]);

  return (
    <section
      id="operators"
      aria-labelledby="operators-heading"
      className="scroll-mt-4 rounded-xl border bg-card p-4 shadow-sm sm:p-6"
    >
      <h2 id="operators-heading" className="mb-4 text-xl font-semibold">
        Operators <span className="text-base font-normal text-muted-foreground">({operators.length})</span>
      </h2>
      {revoke ? (
        <div className="mb-4">{revoke.ok ? <FormStatus message={revoke.message} /> : <FormAlert message={revoke.message} />}</div>
      ) : null}
      {operators.length === 0 ? (
        <p className="text-sm text-muted-foreground">Nobody yet.</p>
      ) : (
        // Relative: the header's sr-only text is absolutely placed and would otherwise widen the page.
        <div className="relative overflow-x-auto">
          <table className="w-full min-w-[36rem] text-sm">
            <thead>
              <tr className="border-b">
                <th scope="col" className={th}>
                  Email
                </th>
                <th scope="col" className={th}>
                  Name
                </th>
                <th scope="col" className={th}>
                  Access
                </th>
                <th scope="col" className={th}>
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {operators.map((o) => (
                <tr key={o.email} className="border-b last:border-0">
                  <td className={`${td} break-all`}>{o.email}</td>
                  <td className={td}>{o.name ?? "—"}</td>
                  <td className={td}>{access(o)}</td>
                  <td className={td}>
                    {o.userId === me ? (
                      <span className="text-muted-foreground">You</span>
                    ) : o.granted ? (
                      <RevokeButton operator={o} />
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Form ref={form} method="post" className="mt-6 max-w-xl space-y-3" aria-labelledby="grant-operator-heading">
        <h3 id="grant-operator-heading" className="font-semibold">
          Grant the operator role
        </h3>
        <input type="hidden" name="intent" value="grant-operator" />
        <Field
          id="grant-operator-email"
          name="email"
          type="email"
          label="Email of an existing account"
          autoComplete="off"
          required
          maxLength={254}
          defaultValue={grant && !grant.ok ? grant.email : undefined}
          error={grant && !grant.ok ? grant.message : undefined}
        />
        {grant?.ok ? <FormStatus message={grant.message} /> : null}
        <Button type="submit" disabled={granting}>
          {granting ? <Loader2 className="animate-spin" aria-hidden /> : <UserPlus aria-hidden />}
          Grant operator role
        </Button>
      </Form>
    </section>
  );
}
