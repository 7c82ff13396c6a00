import { expect, test } from "@playwright/test";
import { siteOrigin, uniqueEmail } from "./support/auth";
import { expectNoAxeViolations } from "./support/axe";
import { CUSTOMER_PASSWORD, payWith, signedInContext, startDashboardTrial } from "./support/customer";
import { createVerifiedAccount } from "./support/loopback";
import { operatorContext } from "./support/operator";
import { gotoHydrated } from "./support/page";
import { screenshotAt } from "./support/screenshots";

/**
 * The operator console: an operator finds a customer by email, opens their order, refunds it and
 * sees the audit entry; exports a filtered table as CSV; answers a support ticket, which the
 * customer then reads on their support page.
 */
test("an operator finds a customer by email, opens their order, refunds it and sees the audit entry", async ({ browser }) => {
  const { context: buyerContext, email } = await signedInContext(browser, "console");
  const buyer = await buyerContext.newPage();
  const checkout = await buyerContext.request.post("/api/checkout", {
    headers: { Origin: siteOrigin() },
    data: { kind: "plan", planType: "basic" },
  });
  expect(checkout.status(), await checkout.text()).toBe(200);
  await gotoHydrated(buyer, ((await checkout.json()) as { url: string }).url);
  await payWith(buyer, "4242 4242 4242 4242");
  await expect(buyer).toHaveURL(/\/dashboard\/billing/);

  const opsContext = await operatorContext(browser);
  const ops = await opsContext.newPage();
  await gotoHydrated(ops, "/admin");
  await ops.getByRole("navigation", { name: "Console sections" }).getByRole("link", { name: "Customers" }).click();
  await expect(ops).toHaveURL(/\/admin\/customers$/);
  const search = ops.getByRole("search", { name: "Search and filter customers" });
  await search.getByLabel("Search").fill(email.toUpperCase());
  await search.getByRole("button", { name: "Apply" }).click();
  await expect(ops).toHaveURL(
    new RegExp(`/admin/customers\\?q=${encodeURIComponent(email.toUpperCase()).replace(/[.+]/g, "\\$&")}$`),
  );
  const table = ops.getByRole("table", { name: "Customers" });
  await expect(table.locator("tbody tr")).toHaveCount(1);
  await expect(ops.getByText("1–1 of 1")).toBeVisible();
  await table.getByRole("link", { name: email }).click();

  await expect(ops.getByRole("heading", { level: 1, name: email })).toBeVisible();
  const orders = ops.getByRole("region", { name: "Orders" });
  await orders.getByRole("link").first().click();
  await expect(ops).toHaveURL(/\/admin\/orders\/[\w-]+$/);

  const refund = ops.locator("#refund");
  await refund.getByRole("button", { name: /^Refund / }).click();
  const form = refund.getByRole("form", { name: /^Refund / });
  await form.getByLabel("Amount (USD)").fill("5");
  await form.getByLabel("Reason").selectOption("requested_by_customer");
  await form.getByLabel(/^Note/).fill("Console test");
  await form.getByRole("button", { name: "Review refund" }).click();
  await refund.getByRole("button", { name: "Confirm refund of $5.00" }).click();
  await expect(refund.getByRole("status")).toHaveText("$5.00 refunded.");

  // The order's own history, then the audit log, filtered to refunds.
  const audit = ops.getByRole("region", { name: "Operator actions" });
  await expect(audit.getByTestId("audit-entry")).toHaveCount(1);
  await expect(audit.getByTestId("audit-entry")).toContainText("order.refund by");
  const orderUrl = new URL(ops.url()).pathname;
  await ops.getByRole("navigation", { name: "Console sections" }).getByRole("link", { name: "Audit log" }).click();
  const filters = ops.getByRole("search", { name: "Search and filter audit log" });
  await filters.getByLabel("Action").selectOption("order.refund");
  await filters.getByRole("button", { name: "Apply" }).click();
  await expect(ops).toHaveURL(/\/admin\/audit\?action=order\.refund$/);
  const entry = ops.getByRole("table", { name: "Audit log" }).locator("tbody tr", { has: ops.locator(`a[href="${orderUrl}"]`) });
  await expect(entry).toHaveCount(1);
  await entry.getByText("Before / after").click();
  await expect(entry.getByText('"amount": 500')).toBeVisible();

  // The back button returns to the unfiltered log.
  await ops.goBack();
  await expect(ops).toHaveURL(/\/admin\/audit$/);
  await opsContext.close();
  await buyerContext.close();
});

test("a filtered table downloads as CSV with every matching row", async ({ browser }) => {
  // Customers of this test's own, so that accounts other tests make meanwhile do not match the filter.
  const tag = `csv${Date.now().toString(36)}${process.pid}`;
  const emails = [uniqueEmail(tag), uniqueEmail(tag)].sort();
  for (const email of emails) await createVerifiedAccount(email, CUSTOMER_PASSWORD, siteOrigin());
  const opsContext = await operatorContext(browser);
  const ops = await opsContext.newPage();
  await gotoHydrated(ops, `/admin/customers?q=${tag}&verified=yes&sort=email&dir=asc`);
  const header = ops.getByRole("columnheader", { name: /Email/ });
  await expect(header).toHaveAttribute("aria-sort", "ascending");
  await expect(ops.locator("#customers-range")).toHaveText(/of 2$/);
  const [download] = await Promise.all([ops.waitForEvent("download"), ops.getByRole("link", { name: /^Export CSV/ }).click()]);
  expect(download.suggestedFilename()).toMatch(/^customers-\d{4}-\d{2}-\d{2}\.csv$/);
  const text = await (await download.createReadStream()).toArray().then((chunks) => Buffer.concat(chunks).toString("utf8"));
  const lines = text.trimEnd().split("\r\n");
  expect(lines[0]).toMatch(/^id,email,name,company,email_verified,/);
  expect(lines.slice(1).map((l) => l.split(",")[1])).toEqual(emails);
  expect(lines.slice(1).every((l) => l.split(",")[4] === "true")).toBe(true);

  // At phone width the table scrolls inside its own box; the page itself does not overflow.
  await ops.setViewportSize({ width: 390, height: 844 });
  await expect.poll(() => ops.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await opsContext.close();
});

test("an operator answers a ticket; the customer reads the answer on their support page", async ({ browser }) => {
  const { context: customerContext, email } = await signedInContext(browser, "ticket");
  await startDashboardTrial(customerContext);
  const customer = await customerContext.newPage();
  await gotoHydrated(customer, "/dashboard/support");
  const subject = `Export question ${Date.now()}`;
  await customer.getByLabel("Subject").fill(subject);
  await customer.getByLabel("Category").selectOption("Technical");
  await customer.getByLabel("Message").fill("How do I export my contacts to a spreadsheet?");
  await customer.getByRole("button", { name: "Submit ticket" }).click();
  await expect(customer.getByText("Ticket submitted. It is listed below.")).toBeVisible();

  const opsContext = await operatorContext(browser);
  const ops = await opsContext.newPage();
  await gotoHydrated(ops, `/admin/tickets?status=open&q=${encodeURIComponent(subject)}`);
  await ops.getByRole("link", { name: new RegExp(subject) }).click();
  await ops.getByLabel(/^Your answer/).fill("Open Automation, then Export: it downloads a CSV.");
  await ops.getByRole("button", { name: "Send answer" }).click();
  await expect(ops.getByRole("status")).toHaveText(/^Answer sent\./);
  await expect(ops.getByRole("list", { name: "Answers" }).getByRole("listitem")).toHaveCount(1);

  await gotoHydrated(customer, "/dashboard/support");
  const ticket = customer.getByRole("listitem").filter({ hasText: subject });
  await expect(ticket.getByText("Answered", { exact: true })).toBeVisible();
  await expect(ticket.getByRole("region", { name: "Answer from support" })).toContainText("Open Automation, then Export");
  const mails = await customerContext.request.get(`/dev/mailbox.json?to=${encodeURIComponent(email)}`);
  expect(JSON.stringify(await mails.json())).toContain(`Re: ${subject}`);
  await opsContext.close();
  await customerContext.close();
});

// Each page alone: the flows above stay inside their time on two busy cores.
for (const path of ["/admin/audit", "/admin/tickets", "/admin/emails"])
  test(`${path} and its first record pass axe`, async ({ browser }) => {
    const opsContext = await operatorContext(browser);
    const ops = await opsContext.newPage();
    await gotoHydrated(ops, path);
    if (path === "/admin/emails") {
      // The end-to-end server has no SMTP_URL: the table says why nothing is sent, and where to read it.
      const note = ops.getByRole("note");
      await expect(note).toContainText("No mail server is set up, so no email leaves this server.");
      await expect(note.getByRole("link", { name: "dev mailbox" })).toHaveAttribute("href", "/dev/mailbox");
      await screenshotAt(ops, "admin-emails-no-smtp", [1280, 390], { fullPage: false });
    }
    await expectNoAxeViolations(ops);
    const first = ops.locator("tbody tr").first().getByRole("link").first();
    if ((await first.count()) > 0) {
      await first.click();
      await expect(ops.getByRole("heading", { level: 1 })).toBeVisible();
      await expectNoAxeViolations(ops);
    }
    await opsContext.close();
  });
