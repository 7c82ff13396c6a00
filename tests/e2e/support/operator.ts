import { expect, type Browser } from "@playwright/test";
import { siteCookies, siteOrigin } from "./auth";
import { cookieHeader, createVerifiedAccount, freshIp, raw } from "./loopback";

/** The first OPERATOR_EMAILS address: the server makes this account an operator. */
export const OPERATOR = (process.env.OPERATOR_EMAILS ?? "ops@example.com").split(",")[0]!.trim().toLowerCase();
const PASSWORD = "correct-horse-battery";

/** The operator's session cookie, or null while the account does not exist or is not verified yet. */
async function signInOperator(): Promise<string | null> {
  const signIn = await raw({
    method: "POST",
    path: "/api/auth/sign-in/email",
    ip: freshIp(),
    headers: { origin: siteOrigin() },
    body: { email: OPERATOR, password: PASSWORD },
  });
  return signIn.status === 200 ? cookieHeader(signIn.setCookies) : null;
}

/**
 * The OPERATOR_EMAILS operator's browser. The first spec to need it creates the account; specs
 * running side by side can both find it missing, so the one whose sign-up loses signs in once the
 * other's account is verified.
 */
export async function operatorContext(browser: Browser) {
  let cookie = await signInOperator();
  if (!cookie) {
    try {
      cookie = (await createVerifiedAccount(OPERATOR, PASSWORD, siteOrigin())).cookie;
    } catch {
      // Another spec's sign-up of the same address is under way.
    }
  }
  for (let attempt = 0; !cookie && attempt < 60; attempt++) {
    await new Promise((r) => setTimeout(r, 250));
    cookie = await signInOperator();
  }
  expect(cookie, "the operator signs in").toBeTruthy();
  const context = await browser.newContext();
  await context.addCookies(siteCookies(cookie!));
  return context;
}
