import { expect, test, type Page } from "@playwright/test";
import { raw } from "./loopback";

/** The site's origin (PUBLIC_SITE_URL of the e2e server): Better Auth refuses other origins. */
export const siteOrigin = () => new URL(String(test.info().project.use.baseURL)).origin;

let counter = 0;

/** A unique email for this test run. */
export function uniqueEmail(prefix = "user") {
  counter += 1;
  return `${prefix}-${Date.now().toString(36)}-${process.pid}-${counter}@example.com`;
}

/** The newest link in the newest dev-mailbox email sent to `to` whose subject matches. */
export async function latestMailLink(page: Page, to: string, subject: RegExp): Promise<string> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const res = await page.request.get(`/dev/mailbox.json?to=${encodeURIComponent(to)}`);
    expect(res.ok()).toBe(true);
    const mails = (await res.json()) as { subject: string; text: string }[];
    const mail = mails.find((m) => subject.test(m.subject));
    const link = mail?.text.match(/https?:\/\/\S+/)?.[0];
    if (link) return link;
    await page.waitForTimeout(100);
  }
  throw new Error(`no mail matching ${subject} for ${to}`);
}

/**
 * Signs up through the real API, follows the verification link from the dev mailbox (which signs
 * the user in) and leaves the page's browser context holding the session cookie.
 */
export async function signUpVerified(
  page: Page,
  opts: { email?: string; password?: string; firstName?: string; lastName?: string; companyName?: string } = {},
) {
  const email = opts.email ?? uniqueEmail();
  const password = opts.password ?? "correct-horse-battery";
  // From a source address of its own: sign-up is limited to 5 a minute per IP, and the browser's
  // requests of every test (two workers at once) come from 127.0.0.1. The browser's cookies go
  // along, as they would from the page (a /ref attribution cookie, say).
  const cookies = await page.context().cookies(siteOrigin());
  const res = await raw({
    method: "POST",
    path: "/api/auth/sign-up/email",
    headers: {
      origin: siteOrigin(),
      ...(cookies.length ? { cookie: cookies.map((c) => `${c.name}=${c.value}`).join("; ") } : {}),
    },
    body: {
      email,
      password,
      name: [opts.firstName, opts.lastName].filter(Boolean).join(" ") || email,
      firstName: opts.firstName,
      lastName: opts.lastName,
      companyName: opts.companyName,
    },
  });
  expect(res.status, res.text).toBe(200);
  const link = await latestMailLink(page, email, /verify/i);
  // Same origin as the test server: the link is built from PUBLIC_SITE_URL.
  const verify = await page.request.get(link, { maxRedirects: 0 });
  expect([200, 302]).toContain(verify.status());
  return { email, password };
}

/** A Cookie header's `name=value` pairs as Playwright cookies for the site (context.addCookies). */
export function siteCookies(cookieHeader: string) {
  return cookieHeader
    .split(/;\s*/)
    .filter(Boolean)
    .map((pair) => {
      const i = pair.indexOf("=");
      return { name: pair.slice(0, i), value: pair.slice(i + 1), url: siteOrigin() };
    });
}
