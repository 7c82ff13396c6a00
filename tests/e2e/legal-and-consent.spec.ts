import { expect, test, type Page } from "@playwright/test";
import { MARKETING_CONSENT_TEXT } from "../../app/catalogue/callback";
import { expectNoAxeViolations } from "./support/axe";
import { uniqueEmail } from "./support/auth";
import { signedInContext } from "./support/customer";
import { operatorContext } from "./support/operator";
import { gotoHydrated } from "./support/page";
import { screenshot } from "./support/screenshots";

/**
 * The privacy policy and the terms of service, reached as a visitor reaches them (the footer, the
 * line beside each form that collects personal data), and the callback form's marketing consent
 * followed from the visitor's tick to the operator's leads table.
 */

const DOCUMENTS = [
  { link: "Privacy Policy", path: "/privacy", heading: "Privacy Policy", section: "Your rights" },
  { link: "Terms of Service", path: "/terms", heading: "Terms of Service", section: "Cancellation and refunds" },
] as const;

for (const doc of DOCUMENTS) {
  test(`the footer leads to the ${doc.heading}, a readable page on a desktop and on a phone`, async ({ page }) => {
    await gotoHydrated(page, "/");
    await page.getByRole("contentinfo").getByRole("navigation", { name: "Legal" }).getByRole("link", { name: doc.link }).click();
    await expect(page).toHaveURL(doc.path);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(doc.heading);
    await expect(page.getByText(/^Last updated: /)).toBeVisible();
    // The contents list leads to its section.
    await page
      .getByRole("navigation", { name: "Contents" })
      .getByRole("link", { name: new RegExp(doc.section) })
      .click();
    await expect(page.getByRole("heading", { level: 2, name: new RegExp(doc.section) })).toBeInViewport();
    await expectNoAxeViolations(page);
    await screenshot(page, `legal${doc.path.replace("/", "-")}-1280`);

    await page.setViewportSize({ width: 375, height: 812 });
    await page.goto(doc.path);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await screenshot(page, `legal${doc.path.replace("/", "-")}-375`);
  });
}

/** Both documents are linked beside the form, each opening in a new tab so the form keeps its values. */
async function expectLegalLinks(
  page: Page,
  scope: ReturnType<Page["locator"]>,
  documents: readonly (typeof DOCUMENTS)[number][] = DOCUMENTS,
) {
  for (const doc of documents) {
    const link = scope.getByRole("link", { name: `${doc.link} (opens in a new tab)` });
    await expect(link).toHaveAttribute("href", doc.path);
    await expect(link).toHaveAttribute("target", "_blank");
  }
}

test("every form that collects personal data links the privacy policy (and the terms where it makes an agreement)", async ({
  page,
  browser,
}) => {
  await gotoHydrated(page, "/auth?tab=signup");
  const signUp = page.locator("form", { has: page.getByRole("button", { name: "Create Account" }) });
  await expect(signUp).toContainText("By creating an account you agree to our Terms of Service");
  await expectLegalLinks(page, signUp);

  await gotoHydrated(page, "/affiliate-signup");
  const affiliate = page.locator("form", { has: page.getByRole("button", { name: "Join the Affiliate Program" }) });
  await expect(affiliate).toContainText("By joining the affiliate program you agree to our Terms of Service");
  await expectLegalLinks(page, affiliate);

  // The distributor checkout form is a signed-in customer's.
  const { context } = await signedInContext(browser, "legal-distributor");
  const customerPage = await context.newPage();
  await gotoHydrated(customerPage, "/distributors");
  const distributor = customerPage.locator("#join form");
  await expect(distributor).toContainText("By continuing to payment you agree to our Terms of Service");
  await expectLegalLinks(customerPage, distributor);
  await context.close();

  await gotoHydrated(page, "/live-training");
  const callback = page.getByRole("form", { name: "Schedule AI Consultation" });
  await expectLegalLinks(page, callback, [DOCUMENTS[0]]);

  // The link opens the policy beside the form, whose typed values stay.
  await callback.getByRole("textbox", { name: "First Name" }).fill("Ana");
  const [policy] = await Promise.all([
    page.context().waitForEvent("page"),
    callback.getByRole("link", { name: "Privacy Policy (opens in a new tab)" }).click(),
  ]);
  await expect(policy.getByRole("heading", { level: 1 })).toHaveText("Privacy Policy");
  await expect(callback.getByRole("textbox", { name: "First Name" })).toHaveValue("Ana");
});

test("marketing consent: unticked by default, stored with its words and time, shown to the operator; the callback is taken either way", async ({
  page,
  browser,
}) => {
  const withConsent = uniqueEmail("consent-yes");
  const without = uniqueEmail("consent-no");

  async function requestCallback(email: string, tick: boolean) {
    await gotoHydrated(page, "/live-training");
    const form = page.getByRole("form", { name: "Schedule AI Consultation" });
    const consent = form.getByRole("checkbox", { name: MARKETING_CONSENT_TEXT });
    await expect(consent).not.toBeChecked();
    await form.getByRole("textbox", { name: "First Name" }).fill(tick ? "Yasmin" : "Noah");
    await form.getByRole("textbox", { name: "Email", exact: true }).fill(email);
    await form.getByRole("textbox", { name: "Phone" }).fill("+1 555 0142");
    if (tick) await consent.check();
    await form.getByRole("button", { name: "Request Callback" }).click();
    await expect(form.getByRole("status")).toContainText("Callback Requested!");
    // The cleared form starts unticked again.
    await expect(consent).not.toBeChecked();
  }
  await requestCallback(withConsent, true);
  await screenshot(page, "callback-consent", { fullPage: false });
  await requestCallback(without, false);

  const ops = await operatorContext(browser);
  const admin = await ops.newPage();
  // The console's Leads table, searched by email, then the lead's own page with its consent.
  const consentOf = async (email: string) => {
    await gotoHydrated(admin, `/admin/leads?q=${encodeURIComponent(email)}`);
    await admin.locator("tr[data-row-id]", { hasText: email }).getByRole("link", { name: email }).click();
    await expect(admin).toHaveURL(/\/admin\/leads\/[\w-]+$/);
    return admin.locator("#consent");
  };
  const yes = await consentOf(withConsent);
  await expect(yes).toContainText("Yes");
  // The time it was given, in the viewer's zone, and the words agreed to.
  await expect(yes.locator("time")).toHaveAttribute("datetime", /^\d{4}-\d{2}-\d{2}T/);
  await expect(yes).toContainText(MARKETING_CONSENT_TEXT);
  await expect(await consentOf(without)).toContainText("No: the lead is called back but not added to the mailing list.");
  await screenshot(admin, "admin-leads-consent", { fullPage: false });
  await ops.close();
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("a ticked box is kept when the post is refused, and sent with the corrected form", async ({ page, browser }) => {
    const email = uniqueEmail("consent-nojs");
    await page.goto("/live-training");
    let form = page.getByRole("form", { name: "Schedule AI Consultation" });
    await form.getByRole("textbox", { name: "First Name" }).fill("Ines");
    await form.getByRole("textbox", { name: "Email", exact: true }).fill(email);
    await form.getByRole("textbox", { name: "Phone" }).fill("call me");
    await form.getByRole("checkbox", { name: MARKETING_CONSENT_TEXT }).check();
    await form.getByRole("button", { name: "Request Callback" }).click();
    form = page.getByRole("form", { name: "Schedule AI Consultation" });
    await expect(form.getByRole("alert")).toHaveText("Please enter a valid phone number");
    await expect(form.getByRole("checkbox", { name: MARKETING_CONSENT_TEXT })).toBeChecked();

    await form.getByRole("textbox", { name: "Phone" }).fill("+1 555 0143");
    await form.getByRole("button", { name: "Request Callback" }).click();
    await expect(page.getByRole("status")).toContainText("Callback Requested!");

    const ops = await operatorContext(browser);
    const admin = await ops.newPage();
    await admin.goto(`/admin/leads?q=${encodeURIComponent(email)}`);
    await admin.locator("tr[data-row-id]", { hasText: email }).getByRole("link", { name: email }).click();
    await expect(admin.locator("#consent")).toContainText("Yes");
    await ops.close();
  });
});
