import { ArrowLeft, Printer } from "lucide-react";
import { data, Link } from "react-router";
import { COMPANY } from "~/catalogue/company";
import { LocalDate } from "~/components/dashboard/billing/LocalDate";
import { money } from "~/components/dashboard/billing/money";
import { Button } from "~/components/ui/button";
import { useHydrated } from "~/lib/use-hydrated";
import { requireUser } from "~/server/auth/session.server";
import { getReceipt, type Receipt } from "~/server/billing/receipts.server";
import { db } from "~/server/db/client.server";
import { customerTimeZone } from "~/server/profile/time-zone.server";
import { TimeZoneContext } from "~/lib/time-zone-context";
import { env } from "~/server/env.server";
import type { Route } from "./+types/receipt";

/**
 * A payment's receipt (docs/decisions/0051-local-manage-billing.md): every payment the account made,
 * from its payment event and order. The account's own only: another account's payment id, or one
 * that is no payment, is the site's 404. A page of its own, outside the dashboard's sidebar, so it
 * prints as a receipt (the print styles hide the page's own links and buttons).
 */
export const meta: Route.MetaFunction = ({ loaderData: loaded }) => [
  { title: loaded ? `Receipt ${loaded.receipt.number} | AI Dashboard` : "Receipt | AI Dashboard" },
  { name: "robots", content: "noindex" },
];

/** An account's pages are kept by no browser or proxy cache. */
export const headers: Route.HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

export async function loader({ request, params }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const id = /^\d{1,15}$/.test(params.paymentId) ? Number(params.paymentId) : NaN;
  const [receipt, timeZone] = await Promise.all([getReceipt(db(), user.id, id), customerTimeZone(db(), user.id, request)]);
  if (!receipt) throw data(null, { status: 404 });
  const site = env().PUBLIC_SITE_URL;
  return {
    receipt,
    timeZone,
    customer: { name: user.name, email: user.email, companyName: user.companyName },
    company: { ...COMPANY, website: site, support: `${site}${COMPANY.supportPath}` },
  };
}

function paymentMethodText(method: Receipt["paymentMethod"]): string {
  if (method.kind === "test_card") return `Test card ending ${method.last4}`;
  if (method.kind === "stripe") return "Card, through Stripe";
  return "Test checkout";
}

function Receipt({ loaderData }: Route.ComponentProps) {
  const { receipt, customer, company } = loaderData;
  const hydrated = useHydrated();
  const currency = receipt.currency.toUpperCase();

  return (
    <main className="min-h-screen bg-muted px-4 py-8 sm:py-12 print:min-h-0 print:bg-white print:p-0">
      <div className="mx-auto max-w-2xl">
        <div className="mb-4 flex items-center justify-between gap-3 print:hidden">
          <Link
            to="/dashboard/billing"
            className="inline-flex items-center gap-1 text-sm font-medium text-muted-foreground hover:text-foreground"
          >
            <ArrowLeft className="size-4" aria-hidden="true" />
            Back to Subscription &amp; Billing
          </Link>
          {hydrated ? (
            <Button type="button" variant="outline" onClick={() => window.print()}>
              <Printer aria-hidden="true" />
              Print
            </Button>
          ) : null}
        </div>
        <article
          className="rounded-2xl border bg-card p-6 shadow-sm sm:p-8 print:rounded-none print:border-0 print:p-0 print:shadow-none"
          aria-labelledby="receipt-title"
          data-testid="receipt"
        >
          <header className="flex flex-wrap items-start justify-between gap-4 border-b pb-6">
            <div>
              <h1 id="receipt-title" className="text-2xl font-bold tracking-tight">
                Receipt
              </h1>
              <p className="mt-1 text-sm text-muted-foreground" data-testid="receipt-number">
                {receipt.number}
              </p>
            </div>
            <address className="text-right text-sm not-italic" data-testid="receipt-company">
              <span className="block font-semibold">{company.name}</span>
              <span className="block">{company.website}</span>
              <span className="block">Support: {company.support}</span>
            </address>
          </header>

          <dl className="grid grid-cols-[auto_1fr] gap-x-6 gap-y-2 border-b py-6 text-sm sm:grid-cols-[auto_1fr_auto_1fr]">
            <dt className="text-muted-foreground">Date paid</dt>
            <dd>
              <LocalDate iso={receipt.paidAt} withTime testId="receipt-paid-at" />
            </dd>
            <dt className="text-muted-foreground">Payment method</dt>
            <dd data-testid="receipt-payment-method">{paymentMethodText(receipt.paymentMethod)}</dd>
            {receipt.order ? (
              <>
                <dt className="text-muted-foreground">Order</dt>
                <dd className="break-all" data-testid="receipt-order">
                  {receipt.order.id}
                </dd>
                <dt className="text-muted-foreground">Ordered</dt>
                <dd>
                  <LocalDate iso={receipt.order.createdAt} />
                </dd>
              </>
            ) : null}
            <dt className="text-muted-foreground">Billed to</dt>
            <dd className="sm:col-span-3" data-testid="receipt-customer">
              {[...new Set([customer.name, customer.companyName, customer.email].filter(Boolean))].join(", ")}
            </dd>
          </dl>

          <table className="mt-6 w-full text-left text-sm" data-testid="receipt-lines">
            <caption className="sr-only">What this payment paid for</caption>
            <thead className="border-b text-muted-foreground">
              <tr>
                <th scope="col" className="py-2 font-medium">
                  Item
                </th>
                <th scope="col" className="py-2 font-medium">
                  Option
                </th>
                <th scope="col" className="py-2 text-right font-medium">
                  Amount
                </th>
              </tr>
            </thead>
            <tbody>
              {receipt.lines.map((line, i) => (
                <tr key={i} className="border-b last:border-0">
                  <td className="py-2 pr-3 font-medium">{line.item}</td>
                  <td className="py-2 pr-3 text-muted-foreground">{line.option}</td>
                  <td className="whitespace-nowrap py-2 text-right tabular-nums">{money(line.amount)}</td>
                </tr>
              ))}
            </tbody>
            <tfoot className="border-t-2">
              <tr>
                <th scope="row" colSpan={2} className="pt-3 font-semibold">
                  Total paid ({currency})
                </th>
                <td className="pt-3 text-right font-semibold tabular-nums" data-testid="receipt-total">
                  {money(receipt.amount)}
                </td>
              </tr>
              {receipt.refunded > 0 ? (
                <>
                  <tr>
                    <th scope="row" colSpan={2} className="pt-1 font-normal text-muted-foreground">
                      Refunded
                    </th>
                    <td className="pt-1 text-right tabular-nums" data-testid="receipt-refunded">
                      {money(-receipt.refunded)}
                    </td>
                  </tr>
                  <tr>
                    <th scope="row" colSpan={2} className="pt-1 font-semibold">
                      Net ({currency})
                    </th>
                    <td className="pt-1 text-right font-semibold tabular-nums" data-testid="receipt-net">
                      {money(receipt.net)}
                    </td>
                  </tr>
                </>
              ) : null}
            </tfoot>
          </table>
          {receipt.refunds.length > 0 ? (
            <ul className="mt-4 grid gap-1 text-sm text-muted-foreground" aria-label="Refunds">
              {receipt.refunds.map((r, i) => (
                <li key={i}>
                  Refund of {money(r.amount)} on <LocalDate iso={r.refundedAt} />
                </li>
              ))}
            </ul>
          ) : null}
          <p className="mt-8 text-xs text-muted-foreground">
            Thank you for your business. Keep this receipt for your records. Questions about a payment: {company.support}
          </p>
        </article>
      </div>
    </main>
  );
}

/** Times on this page are in the customer's zone, as on the dashboard. */
export default function ReceiptPage(props: Route.ComponentProps) {
  return (
    <TimeZoneContext value={props.loaderData.timeZone}>
      <Receipt {...props} />
    </TimeZoneContext>
  );
}
