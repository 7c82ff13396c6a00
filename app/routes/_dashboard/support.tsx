import { useEffect, useRef } from "react";
import { Headphones, Inbox } from "lucide-react";
import { data, Form, useActionData } from "react-router";
import { toast } from "sonner";
import {
  EmptyState,
  errorProps,
  FieldError,
  FormError,
  PageHeader,
  SubmitButton,
  useFocusAfterResult,
} from "~/components/dashboard/pages/common";
import { Badge } from "~/components/ui/badge";
import { Card, CardContent, CardDescription, CardHeader } from "~/components/ui/card";
import { Input, NativeSelect, Textarea } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { requireUser } from "~/server/auth/session.server";
import { db } from "~/server/db/client.server";
import { errorDetail, log } from "~/server/log.server";
import { serviceAccessRefusal } from "~/server/trial/trial.server";
import { fieldErrors } from "~/server/profile/profile.server";
import { TICKET_CATEGORIES } from "~/catalogue/dashboard";
import { createTicket, listTickets, ticketInput } from "~/server/support/tickets.server";
import { takeRequestAttempt } from "~/server/http/request-limit.server";
import { RATE_LIMITS, tooManyRequestsMessage } from "~/server/limits/rate-limits.server";
import { LocalDate } from "~/components/dashboard/billing/LocalDate";
import type { Route } from "./+types/support";

export const meta: Route.MetaFunction = () => [{ title: "Support | AI Dashboard" }, { name: "robots", content: "noindex" }];

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const tickets = await listTickets(db(), user.id);
  return {
    tickets: tickets.map((t) => ({
      ...t,
      createdAt: t.createdAt.toISOString(),
      answers: t.answers.map((a) => ({ ...a, createdAt: a.createdAt.toISOString() })),
    })),
  };
}

export async function action({ request }: Route.ActionArgs) {
  const user = await requireUser(request);
  const form = await request.formData();
  const values = {
    subject: String(form.get("subject") ?? ""),
    category: String(form.get("category") ?? ""),
    message: String(form.get("message") ?? ""),
  };
  const failed = (errors: Record<string, string>, status: number, headers?: Record<string, string>) =>
    data({ ok: false as const, errors, values }, { status, headers });
  try {
    // The trial gate (spec section 4): without an active trial or subscription, no ticket.
    const refusal = await serviceAccessRefusal(db(), user.id);
    if (refusal) return failed({ form: refusal }, 403);
    const parsed = ticketInput.safeParse(values);
    if (!parsed.success) return failed(fieldErrors(parsed.error), 400);
    // Counted once the ticket would be stored: correcting a form's mistakes costs nothing.
    const allowed = await takeRequestAttempt(request, RATE_LIMITS.supportTicket, user.id);
    if (!allowed.allowed) {
      const wait = allowed.retryAfterSeconds;
      return failed({ form: tooManyRequestsMessage(wait) }, 429, { "Retry-After": String(wait) });
    }
    const ticket = await createTicket(db(), user.id, parsed.data);
    return data({ ok: true as const, ticketId: ticket.id });
  } catch (error) {
    // The form keeps what was typed; the error page would have lost it.
    log.error("support ticket failed", { userId: user.id, error: errorDetail(error) });
    return failed({ form: SOMETHING_WENT_WRONG }, 500);
  }
}

/** The spec's words for a failure (section 8, trial start). */
const SOMETHING_WENT_WRONG = "Something went wrong. Please try again.";

export default function SupportPage({ loaderData }: Route.ComponentProps) {
  const { tickets } = loaderData;
  const result = useActionData<typeof action>();
  const errors: Record<string, string> = result && !result.ok ? result.errors : {};
  const values = result && !result.ok ? result.values : undefined;
  const formRef = useRef<HTMLFormElement>(null);
  useFocusAfterResult(formRef, result);

  useEffect(() => {
    if (result?.ok) toast.success("Ticket submitted", { description: "We'll reply by email." });
  }, [result]);

  return (
    <div className="mx-auto max-w-5xl">
      <PageHeader title="Support" description="Ask us anything about your account, billing or automations." />
      <div className="mb-6 flex items-start gap-3 rounded-xl border bg-muted/50 p-4">
        <Headphones className="mt-0.5 size-5 shrink-0 text-primary" aria-hidden="true" />
        <p className="text-sm">
          <strong>Contact 24/7 support.</strong> Our team answers tickets around the clock; Enterprise customers also have 24/7
          phone support through their account manager.
        </p>
      </div>
      <div className="grid gap-6 lg:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
        <Card className="self-start">
          <CardHeader>
            <h2 className="text-xl font-semibold leading-tight tracking-tight">New ticket</h2>
            <CardDescription>We reply to {"your account's"} email address.</CardDescription>
          </CardHeader>
          <CardContent>
            <Form
              ref={formRef}
              method="post"
              className="grid gap-4"
              noValidate
              key={result?.ok ? `sent-${result.ticketId}` : "form"}
            >
              <div className="grid gap-2">
                <Label htmlFor="subject">Subject</Label>
                <Input
                  id="subject"
                  name="subject"
                  defaultValue={values?.subject}
                  required
                  minLength={3}
                  maxLength={120}
                  {...errorProps("subject", errors.subject)}
                />
                <FieldError id="subject-error" message={errors.subject} />
              </div>
              <div className="grid gap-2">
                <Label htmlFor="category">Category</Label>
                <NativeSelect
                  id="category"
                  name="category"
                  defaultValue={values?.category || "Technical"}
                  {...errorProps("category", errors.category)}
                >
                  {TICKET_CATEGORIES.map((c) => (
                    <option key={c} value={c}>
                      {c}
                    </option>
                  ))}
                </NativeSelect>
                <FieldError id="category-error" message={errors.category} />
              </div>
              <div className="grid gap-2">
                <Label htmlFor="message">Message</Label>
                <Textarea
                  id="message"
                  name="message"
                  rows={6}
                  defaultValue={values?.message}
                  required
                  minLength={10}
                  maxLength={5000}
                  {...errorProps("message", errors.message)}
                />
                <FieldError id="message-error" message={errors.message} />
              </div>
              <FormError message={errors.form} />
              {result?.ok ? (
                <output className="block text-sm text-emerald-700">Ticket submitted. It is listed below.</output>
              ) : null}
              <div>
                <SubmitButton intent="create-ticket" pendingText="Submitting..." keepFocus>
                  Submit ticket
                </SubmitButton>
              </div>
            </Form>
          </CardContent>
        </Card>

        <section aria-labelledby="tickets-heading">
          <h2 id="tickets-heading" className="mb-3 text-xl font-semibold">
            Your tickets
          </h2>
          {tickets.length === 0 ? (
            <EmptyState icon={<Inbox />} title="No tickets yet">
              <p className="text-sm text-muted-foreground">When you open a ticket it appears here with its status.</p>
            </EmptyState>
          ) : (
            <ul className="grid gap-3" aria-label="Support tickets">
              {tickets.map((t) => (
                <li key={t.id} className="rounded-xl border bg-card p-4 shadow-sm">
                  <div className="flex flex-wrap items-center justify-between gap-2">
                    <h3 className="min-w-0 break-words font-semibold">{t.subject}</h3>
                    <Badge variant={t.status === "closed" ? "secondary" : "success"}>
                      {t.status === "open" ? "Open" : t.status === "answered" ? "Answered" : "Closed"}
                    </Badge>
                  </div>
                  <p className="mt-1 text-xs text-muted-foreground">
                    {t.category} · <LocalDate iso={t.createdAt} withTime />
                  </p>
                  <p className="mt-2 line-clamp-3 whitespace-pre-line break-words text-sm">{t.message}</p>
                  {t.answers.map((a) => (
                    <section
                      key={a.id}
                      aria-label="Answer from support"
                      className="mt-3 rounded-lg border-l-4 border-primary bg-muted/50 p-3"
                    >
                      <p className="text-xs font-medium text-muted-foreground">
                        Support answered · <LocalDate iso={a.createdAt} withTime />
                      </p>
                      <p className="mt-1 whitespace-pre-line break-words text-sm">{a.body}</p>
                    </section>
                  ))}
                </li>
              ))}
            </ul>
          )}
        </section>
      </div>
    </div>
  );
}
