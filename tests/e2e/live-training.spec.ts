import { expect, type Page, test } from "@playwright/test";
import { expectNoAxeViolations } from "./support/axe";
import { gotoHydrated } from "./support/page";

// tests/e2e/support/serve.js points WEBINAR_EMBED_URL at the next port on 127.0.0.1: another origin
// than the site (localhost:E2E_PORT). Nothing listens there; page.route serves the frames.
const PORT = Number(process.env.E2E_PORT ?? 3107);
const WEBINAR_ORIGIN = `http://127.0.0.1:${PORT + 1}`;
const EMBED_URL = `${WEBINAR_ORIGIN}/webinar/embed`;

const frameHtml = (script: string) => `<!doctype html>
<html lang="en">
  <head><meta charset="utf-8"><title>Webinar registration</title></head>
  <body>
    <section aria-label="Webinar registration">
      <h1>Register for the webinar</h1>
      <form><label for="e">Email</label> <input id="e" type="email"> <button type="submit">Register</button></form>
    </section>
    <script>${script}</script>
  </body>
</html>`;

/** The embed posts a resize to its parent as soon as it loads, like real webinar widgets do. */
async function serveWebinar(page: Page) {
  await page.route(`${WEBINAR_ORIGIN}/**`, (route) => {
    const url = new URL(route.request().url());
    const script =
      url.pathname === "/webinar/embed"
        ? `parent.postMessage({ type: "resize", height: 900 }, "*");`
        : // Another page of the same origin in another frame: right origin, wrong source.
          `parent.postMessage({ type: "resize", height: 300 }, "*"); parent.postMessage({ type: "hide" }, "*"); document.title = "sent";`;
    return route.fulfill({ status: 200, contentType: "text/html", body: frameHtml(script) });
  });
}

/** A promise and its resolve: Promise.withResolvers, which the project's ES2023 type library does not declare. */
function withResolvers() {
  let resolve: (() => void) | undefined;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve: () => resolve?.() };
}

/** Posts from the top window and waits a moment so a (wrongly) accepted message would have taken effect. */
async function postFromTop(page: Page, data: unknown) {
  await page.evaluate(
    (d) =>
      new Promise<void>((resolve) => {
        window.postMessage(d, "*");
        window.setTimeout(resolve, 150);
      }),
    data,
  );
}

test.describe("webinar embed", () => {
  test("resizes on the frame's message, ignores other windows and origins, hides on request", async ({ page }) => {
    await serveWebinar(page);
    await gotoHydrated(page, "/live-training");
    const frame = page.locator("iframe#webinar-frame");
    await expect(frame).toHaveAttribute("src", EMBED_URL);
    await expect(frame).toHaveAttribute("title", "Webinar registration form");
    await expect(frame).toHaveAttribute("sandbox", /allow-scripts/);
    await expect(frame).toHaveCSS("height", "900px");

    // Same data from the top window: wrong source and wrong origin.
    await postFromTop(page, { type: "resize", height: 300 });
    await postFromTop(page, { type: "hide" });
    await expect(frame).toHaveCSS("height", "900px");
    await expect(frame).toBeVisible();

    // A second frame on the webinar origin: right origin, but not our frame's window.
    await page.evaluate((src) => {
      const other = document.createElement("iframe");
      other.src = src;
      other.title = "Other frame";
      other.id = "other-frame";
      document.body.append(other);
    }, `${WEBINAR_ORIGIN}/webinar/other`);
    await expect.poll(() => page.frame({ url: /\/webinar\/other$/ })?.title()).toBe("sent");
    await page.waitForTimeout(150);
    await expect(frame).toHaveCSS("height", "900px");
    await expect(frame).toBeVisible();
    await page.evaluate(() => document.getElementById("other-frame")?.remove());

    // Malformed messages from the real frame are ignored; valid ones are clamped.
    const embed = page.frame({ url: EMBED_URL });
    if (!embed) throw new Error("embed frame not found");
    for (const data of [
      { type: "resize", height: "400" },
      { type: "resize", height: -1 },
      { type: "resize" },
      "hide",
      null,
      { type: "close" },
    ]) {
      await embed.evaluate((d) => parent.postMessage(d, "*"), data);
    }
    await page.waitForTimeout(150);
    await expect(frame).toHaveCSS("height", "900px");
    await embed.evaluate(() => parent.postMessage({ type: "resize", height: 50 }, "*"));
    await expect(frame).toHaveCSS("height", "200px");
    await embed.evaluate(() => parent.postMessage({ type: "resize", height: 1e6 }, "*"));
    await expect(frame).toHaveCSS("height", "2000px");

    await embed.evaluate(() => parent.postMessage({ type: "hide" }, "*"));
    await expect(frame).toBeHidden();
    await expect(page.getByText("Webinar registration is closed for now")).toBeVisible();
  });

  test("'Register for Free' takes the visitor to the registration form", async ({ page }) => {
    await serveWebinar(page);
    await gotoHydrated(page, "/live-training");
    const frame = page.locator("iframe#webinar-frame");
    await expect(frame).toHaveCSS("height", "900px");
    const register = page.locator("main").getByRole("link", { name: "Register for Free" });
    await expect(register).toHaveCount(3);
    await expect(register.first()).toHaveAttribute("href", "#register");
    await register.nth(1).click();
    await expect(frame).toBeFocused();
    await expect(frame).toBeInViewport();
  });
});

test("sessions, industries, links and axe", async ({ page }) => {
  await serveWebinar(page);
  await gotoHydrated(page, "/live-training");
  const main = page.locator("main");
  await expect(main.getByRole("heading", { level: 1 })).toHaveText("LIVE TRAINING");

  const tuesday = main.getByRole("article", { name: "AI Automation Fundamentals" });
  await expect(tuesday).toContainText("Every Tuesday, 2:00 PM EST");
  await expect(tuesday).toContainText("45 minutes");
  await expect(tuesday).toContainText("500+ registered");
  await expect(tuesday).toContainText("4.9");
  await expect(tuesday).toContainText("Live chatbot build");
  const thursday = main.getByRole("article", { name: "Advanced AI Strategies for Growth" });
  await expect(thursday).toContainText("Every Thursday, 3:00 PM EST");
  await expect(thursday).toContainText("60 minutes");
  await expect(thursday).toContainText("300+ registered");
  await expect(thursday).toContainText("4.8");
  await expect(thursday).toContainText("Measuring ROI");

  await expect(main.getByRole("heading", { name: "Healthcare & Life Sciences" })).toBeVisible();
  await expect(main.getByRole("link", { name: "Browse Ready-Made Apps" }).first()).toHaveAttribute("href", "/apps");
  await expect(main.getByRole("link", { name: "View Pricing Plans" })).toHaveAttribute("href", "/packages");
  await expect(page.locator("iframe#webinar-frame")).toHaveCSS("height", "900px");
  await expectNoAxeViolations(page);
});

test.describe("Schedule AI Consultation form", () => {
  test("has every field with a label and the spec's option lists", async ({ page }) => {
    await gotoHydrated(page, "/live-training");
    const form = page.getByRole("form", { name: "Schedule AI Consultation" });
    for (const label of ["First Name", "Last Name", "Email", "Phone", "Company", "Project Details"]) {
      await expect(form.getByRole("textbox", { name: label, exact: true })).toBeVisible();
    }
    await expect(form.getByRole("textbox", { name: "Email", exact: true })).toHaveAttribute("type", "email");
    await expect(form.getByRole("textbox", { name: "Phone", exact: true })).toHaveAttribute("type", "tel");
    const options = async (name: string) =>
      (await form.getByRole("combobox", { name }).locator("option").allTextContents()).slice(1);
    expect(await options("Project Type")).toEqual([
      "Web Application",
      "Mobile App",
      "E-commerce Platform",
      "Business Management System",
      "AI-Powered Solution",
      "Custom Integration",
      "Other",
    ]);
    expect(await options("Budget Range")).toEqual([
      "$5,000 - $10,000",
      "$10,000 - $25,000",
      "$25,000 - $50,000",
      "$50,000 - $100,000",
      "$100,000+",
      "Let's discuss",
    ]);
    expect(await options("Timeline")).toEqual([
      "ASAP",
      "Within 1 month",
      "1-3 months",
      "3-6 months",
      "6+ months",
      "Just exploring",
    ]);
    expect(await options("Preferred Call Time")).toEqual([
      "Morning (9AM-12PM)",
      "Afternoon (12PM-5PM)",
      "Evening (5PM-8PM)",
      "Any time",
    ]);
  });

  test("requires first name, email and phone, then requests the callback and clears the form", async ({ page }) => {
    await gotoHydrated(page, "/live-training");
    const posts: string[] = [];
    page.on("request", (r) => {
      if (r.method() !== "GET") posts.push(new URL(r.url()).pathname);
    });
    const form = page.getByRole("form", { name: "Schedule AI Consultation" });
    const submit = form.getByRole("button", { name: "Request Callback" });
    const alert = form.getByRole("alert");
    const firstName = form.getByRole("textbox", { name: "First Name" });

    await submit.click();
    await expect(alert).toHaveText("Please fill in required fields");
    await expect(firstName).toHaveAttribute("aria-invalid", "true");
    await expect(firstName).toBeFocused();

    await firstName.fill("Ana");
    await form.getByRole("textbox", { name: "Email", exact: true }).fill("ana.e2e@example.com");
    await form.getByRole("textbox", { name: "Company" }).fill("Bright Smile Dental");
    await submit.click();
    await expect(alert).toHaveText("Please fill in required fields");
    await expect(form.getByRole("textbox", { name: "Phone" })).toHaveAttribute("aria-invalid", "true");
    await expect(firstName).not.toHaveAttribute("aria-invalid", "true");
    expect(posts).toEqual([]);

    // An extension is part of a real phone number (docs/decisions/0010).
    await form.getByRole("textbox", { name: "Phone" }).fill("555-123-4567 ext. 12");
    await form.getByRole("textbox", { name: "Last Name" }).fill("Lima");
    await form.getByRole("combobox", { name: "Project Type" }).selectOption("AI-Powered Solution");
    await form.getByRole("combobox", { name: "Budget Range" }).selectOption("$10,000 - $25,000");
    await form.getByRole("combobox", { name: "Timeline" }).selectOption("1-3 months");
    await form.getByRole("combobox", { name: "Preferred Call Time" }).selectOption("Morning (9AM-12PM)");
    await form.getByRole("textbox", { name: "Project Details" }).fill("Answer booking questions on our website.");

    // Hold the request a moment so the submitting state can be seen.
    const { promise: held, resolve: release } = withResolvers();
    await page.route("**/api/callback", async (route) => {
      await held;
      await route.continue();
    });
    const answered = page.waitForResponse((r) => new URL(r.url()).pathname === "/api/callback");
    await submit.click();
    const busy = form.getByRole("button", { name: "Submitting..." });
    await expect(busy).toBeDisabled();
    release();
    const response = await answered;
    expect(response.status()).toBe(200);
    expect(await response.json()).toEqual({ ok: true });
    expect(posts).toEqual(["/api/callback"]);

    const toast = page.locator("[data-sonner-toast]", { hasText: "Callback Requested!" });
    await expect(toast).toBeVisible();
    await expect(toast).toContainText("We'll contact you within 24 hours to schedule your consultation.");
    // The toast goes away; the form's own status output keeps the confirmation for screen readers.
    const status = form.getByRole("status");
    await expect(status).toHaveText("Callback Requested! We'll contact you within 24 hours to schedule your consultation.");
    await expect(alert).toHaveText("");
    await expect(submit).toBeEnabled();
    for (const name of ["First Name", "Last Name", "Email", "Phone", "Company", "Project Details"])
      await expect(form.getByRole("textbox", { name, exact: true })).toHaveValue("");
    await expect(form.getByRole("combobox", { name: "Budget Range" })).toHaveValue("");
    await expectNoAxeViolations(page);
  });

  test("a refused submission keeps the form and says why", async ({ page }) => {
    await gotoHydrated(page, "/live-training");
    const form = page.getByRole("form", { name: "Schedule AI Consultation" });
    const submit = form.getByRole("button", { name: "Request Callback" });
    await form.getByRole("textbox", { name: "First Name" }).fill("Ana");
    await form.getByRole("textbox", { name: "Email", exact: true }).fill("ana@invalid");
    await form.getByRole("textbox", { name: "Phone" }).fill("+1 555 0101");

    // The server checks the email's format: 400 with the field, shown next to it and in the toast.
    await submit.click();
    const failed = page.locator("[data-sonner-toast]", { hasText: "Submission failed" });
    await expect(failed).toBeVisible();
    await expect(failed).toContainText("Please enter a valid email address");
    await expect(form.getByRole("alert")).toHaveText("Please enter a valid email address");
    await expect(form.getByRole("textbox", { name: "Email", exact: true })).toHaveAttribute("aria-invalid", "true");
    await expect(form.getByRole("textbox", { name: "Email", exact: true })).toHaveValue("ana@invalid");

    // Too many requests: the server's message.
    await page.route("**/api/callback", (route) =>
      route.fulfill({
        status: 429,
        contentType: "application/json",
        body: JSON.stringify({ error: "Too many requests. Please try again later." }),
      }),
    );
    await form.getByRole("textbox", { name: "Email", exact: true }).fill("ana@example.com");
    await submit.click();
    await expect(page.locator("[data-sonner-toast]", { hasText: "Too many requests. Please try again later." })).toBeVisible();

    // The network fails: 'Please try again later', and the form is kept.
    await page.unroute("**/api/callback");
    await page.route("**/api/callback", (route) => route.abort("connectionrefused"));
    await submit.click();
    await expect(page.locator("[data-sonner-toast]", { hasText: "Please try again later" }).last()).toBeVisible();
    await expect(form.getByRole("textbox", { name: "First Name" })).toHaveValue("Ana");
    await expect(form.getByRole("textbox", { name: "Phone" })).toHaveValue("+1 555 0101");
    await expect(submit).toBeEnabled();
    await expect(page.locator("[data-sonner-toast]", { hasText: "Callback Requested!" })).toHaveCount(0);
  });

  test("the honeypot is out of sight and out of the tab order", async ({ page }) => {
    await gotoHydrated(page, "/live-training");
    const honeypot = page.locator("input[name=website]");
    await expect(honeypot).toHaveAttribute("tabindex", "-1");
    await expect(honeypot).not.toBeInViewport();
    await expect(
      page.getByRole("form", { name: "Schedule AI Consultation" }).getByRole("textbox", { name: "Website" }),
    ).toHaveCount(0);
  });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the embed still shows, and the posted form stores the lead and says so", async ({ page }) => {
    await serveWebinar(page);
    await page.goto("/live-training");
    await expect(page.locator('iframe[title="Webinar registration form"]')).toBeVisible();
    const form = page.getByRole("form", { name: "Schedule AI Consultation" });
    await form.getByRole("textbox", { name: "First Name" }).fill("Ana");
    await form.getByRole("textbox", { name: "Email", exact: true }).fill("ana.nojs@example.com");
    await form.getByRole("textbox", { name: "Phone" }).fill("+1 555 0102");
    await form.getByRole("combobox", { name: "Timeline" }).selectOption("ASAP");
    const [response] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === "POST"),
      form.getByRole("button", { name: "Request Callback" }).click(),
    ]);
    expect(response.status()).toBe(200);
    await expect(page.getByRole("status")).toContainText("Callback Requested!");
    await expect(page.getByRole("status")).toContainText("We'll contact you within 24 hours to schedule your consultation.");
    await expect(
      page.getByRole("form", { name: "Schedule AI Consultation" }).getByRole("textbox", { name: "First Name" }),
    ).toHaveValue("");
  });

  test("a refused post re-renders the page with the reason and keeps the values", async ({ page }) => {
    await page.goto("/live-training");
    const form = page.getByRole("form", { name: "Schedule AI Consultation" });
    await form.getByRole("textbox", { name: "First Name" }).fill("Ana");
    await form.getByRole("textbox", { name: "Email", exact: true }).fill("ana.nojs2@example.com");
    await form.getByRole("textbox", { name: "Phone" }).fill("call me");
    await form.getByRole("textbox", { name: "Project Details" }).fill("Keep this text");
    const [response] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === "POST"),
      form.getByRole("button", { name: "Request Callback" }).click(),
    ]);
    expect(response.status()).toBe(400);
    const again = page.getByRole("form", { name: "Schedule AI Consultation" });
    await expect(again.getByRole("alert")).toHaveText("Please enter a valid phone number");
    await expect(again.getByRole("textbox", { name: "Phone" })).toHaveAttribute("aria-invalid", "true");
    await expect(again.getByRole("textbox", { name: "Phone" })).toHaveValue("call me");
    await expect(again.getByRole("textbox", { name: "Project Details" })).toHaveValue("Keep this text");
    await expect(again.getByRole("textbox", { name: "First Name" })).toHaveValue("Ana");
  });
});
