import { expect, test } from "@playwright/test";
import { expectNoAxeViolations } from "./support/axe";
import { signUpVerified } from "./support/auth";
import { gotoHydrated } from "./support/page";
import { screenshot } from "./support/screenshots";

/**
 * The dev mailbox shows a templated email's HTML part in a sandboxed frame and its text part, and
 * /dev/mailbox.json keeps the fields the other specs read (subject, text with the link first).
 */
test("the dev mailbox shows the verification and welcome emails, HTML and text", async ({ page }) => {
  const { email } = await signUpVerified(page, { firstName: "Grace" });
  const res = await page.request.get(`/dev/mailbox.json?to=${encodeURIComponent(email)}`);
  const mails = (await res.json()) as { subject: string; text: string; html: string | null; kind: string | null }[];
  const verify = mails.find((m) => m.kind === "verification")!;
  expect(verify.subject).toBe("Verify your email address");
  expect(verify.text.match(/https?:\/\/\S+/)?.[0]).toContain("/api/auth/verify-email");
  expect(verify.html).toContain("<!DOCTYPE html");
  // Following the link sent the welcome email, once.
  await expect
    .poll(async () => {
      const again = (await (await page.request.get(`/dev/mailbox.json?to=${encodeURIComponent(email)}`)).json()) as {
        kind: string;
      }[];
      return again.filter((m) => m.kind === "welcome").length;
    })
    .toBe(1);

  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await gotoHydrated(page, `/dev/mailbox?to=${encodeURIComponent(email)}`);
    const frame = page.locator("iframe").first();
    await expect(frame).toHaveAttribute("sandbox", "");
    await expect(page.frameLocator("iframe").first().getByText("Welcome, Grace!")).toBeVisible();
    await screenshot(page, `mailbox-${width}`, { fullPage: false });
  }
  await page.getByText("Text part").first().click();
  await expect(page.getByRole("link", { name: /\/dashboard$/ }).first()).toBeVisible();
  await expectNoAxeViolations(page);
});
