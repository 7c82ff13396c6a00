import { expect, test, type BrowserContext, type Locator, type Page, type Request, type Response } from "@playwright/test";
import { allApps } from "../../app/catalogue/apps";
import { siteCookies, siteOrigin, uniqueEmail } from "./support/auth";
import { CUSTOMER_PASSWORD } from "./support/customer";
import { ipProxy } from "./support/ip-proxy";
import { createVerifiedAccount, freshIp, mailLink, raw } from "./support/loopback";

/**
 * A form pressed while the page's JavaScript is still on its way is sent exactly once
 * (docs/decisions/0040-forms-before-hydration.md): natively before hydration
 * starts, and then the page does not hydrate under it; held from the moment hydration starts and
 * sent by the page once it has hydrated. Every form is pressed at four moments, reached by
 * condition with the page's scripts held back, never by timing:
 * - before any script runs;
 * - while the entry module loads (the route modules are in, React Router's entry is not);
 * - during hydration, when React Router's history first writes history.state;
 * - right after hydration, with the form filled in before it (a field React reset on its next
 *   render emptied a required field, and the browser then refused the press without a word).
 * The server must answer exactly one submission, and the page must show its result.
 */

const MOMENTS = [
  "before any script runs",
  "while the entry module loads",
  "during hydration",
  "typed before, pressed right after hydration",
] as const;
type Moment = (typeof MOMENTS)[number];

interface Run {
  email: string;
  password: string;
  /** Session cookie of a signed-in customer, when the form needs one. */
  cookie?: string;
  /** Where the form is (defaults to the row's `path`). */
  path?: string;
  n: number;
}

interface Row {
  name: string;
  path: string;
  /** Who is pressing: a visitor, a verified account not signed in, a signed-in customer (with the dashboard trial). */
  who: "visitor" | "account" | "customer";
  setup?: (run: Run) => Promise<void>;
  fill?: (page: Page, run: Run) => Promise<void>;
  submitter: (page: Page) => Locator;
  /** Pathnames of the requests that carry the submission (a native post or the script's request). */
  posts: RegExp;
  /** Waits for the page (or a tab it opened) to show the result. */
  done: (page: Page, run: Run) => Promise<void>;
  /** Checks on the server's side, after the result is shown. */
  check?: (run: Run) => Promise<void>;
}

const signInPanel = (page: Page) => page.getByRole("tabpanel", { name: "Sign In" });
const signUpPanel = (page: Page) => page.getByRole("tabpanel", { name: "Sign Up" });

/** Mails to `to` whose subject matches. */
async function mails(to: string, subject: RegExp) {
  const res = await raw({ path: `/dev/mailbox.json?to=${encodeURIComponent(to)}` });
  expect(res.status).toBe(200);
  return res.json<{ subject: string }[]>().filter((m) => subject.test(m.subject)).length;
}

/** The hosted test checkout opened, in this tab or a new one. */
async function checkoutOpened(page: Page) {
  const context = page.context();
  await expect
    .poll(() => context.pages().some((p) => /\/checkout\/local\/cs_local_/.test(p.url())), { timeout: 20_000 })
    .toBe(true);
}

const app = allApps().find((a) => a.id === 7)!;

const ROWS: Row[] = [
  {
    name: "sign in on /auth",
    path: "/auth?tab=signin",
    who: "account",
    fill: async (page, run) => {
      await signInPanel(page).getByLabel("Email").fill(run.email);
      await signInPanel(page).getByLabel("Password", { exact: true }).fill(run.password);
    },
    submitter: (page) => signInPanel(page).getByRole("button", { name: "Sign In" }),
    posts: /^\/auth(\.data)?$/,
    done: (page) => expect(page).toHaveURL(/\/dashboard(\?|$)/),
  },
  {
    name: "sign up on /auth",
    path: "/auth?tab=signup",
    who: "visitor",
    fill: async (page, run) => {
      const panel = signUpPanel(page);
      await panel.getByLabel("First name").fill("Ada");
      await panel.getByLabel("Last name").fill(`Lovelace ${run.n}`);
      await panel.getByLabel("Email").fill(run.email);
      await panel.getByLabel("Password", { exact: true }).fill(run.password);
    },
    submitter: (page) => signUpPanel(page).getByRole("button", { name: "Create Account" }),
    posts: /^\/auth(\.data)?$/,
    done: (page) =>
      expect(signUpPanel(page).getByRole("status")).toHaveText(
        "Account created successfully! Please check your email to verify your account.",
      ),
    check: async (run) => expect(await mails(run.email, /verify/i)).toBe(1),
  },
  {
    name: "password reset request on /auth",
    path: "/auth?tab=reset",
    who: "account",
    fill: (page, run) => page.getByLabel("Email").fill(run.email),
    submitter: (page) => page.getByRole("button", { name: "Send reset link" }),
    posts: /^\/auth(\.data)?$/,
    done: (page) => expect(page.getByRole("status")).toHaveText("If an account exists for that email, we've sent a reset link."),
    check: async (run) => expect(await mails(run.email, /reset/i)).toBe(1),
  },
  {
    name: "new password from the reset link on /auth",
    path: "/auth?tab=reset",
    who: "account",
    setup: async (run) => {
      const asked = await raw({
        method: "POST",
        path: "/auth?tab=reset",
        headers: { origin: siteOrigin(), "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ intent: "forgot", email: run.email }).toString(),
      });
      expect(asked.status).toBeLessThan(400);
      // The mail's link redirects to /auth?tab=reset&token=…
      const link = await raw({ path: await mailLink(run.email, /reset/i) });
      expect(link.status).toBe(302);
      run.path =
        new URL(String(link.headers.location), siteOrigin()).pathname +
        new URL(String(link.headers.location), siteOrigin()).search;
    },
    fill: (page, run) => page.getByLabel("New password").fill(`${run.password} renewed`),
    submitter: (page) => page.getByRole("button", { name: "Set new password" }),
    posts: /^\/auth(\.data)?$/,
    done: (page) => expect(page).toHaveURL(/\/auth\?tab=signin&reset=done$/),
  },
  {
    name: "affiliate sign-up on /affiliate-signup",
    path: "/affiliate-signup",
    who: "visitor",
    fill: async (page, run) => {
      await page.getByLabel("First name").fill("Grace");
      await page.getByLabel("Last name").fill(`Hopper ${run.n}`);
      await page.getByLabel("Email").fill(run.email);
      await page.getByLabel("Password", { exact: true }).fill(run.password);
    },
    submitter: (page) => page.getByRole("button", { name: "Join the Affiliate Program" }),
    posts: /^\/affiliate-signup(\.data)?$/,
    done: (page) => expect(page.getByRole("heading", { name: "Check your email" })).toBeVisible(),
    check: async (run) => expect(await mails(run.email, /verify/i)).toBe(1),
  },
  {
    name: "callback form on /live-training",
    path: "/live-training",
    who: "visitor",
    fill: async (page, run) => {
      await page.locator("#firstName").fill("Alan");
      await page.locator("#email").fill(run.email);
      await page.locator("#phone").fill("+1 555 0100");
    },
    submitter: (page) => page.getByRole("button", { name: "Request Callback" }),
    posts: /^\/(api\/callback|live-training(\.data)?)$/,
    done: (page) => expect(page.getByText("Callback Requested!").first()).toBeVisible(),
  },
  {
    name: "distributor checkout on /distributors",
    path: "/distributors",
    who: "customer",
    fill: async (page, run) => {
      await page.locator("#distributor-fullName").fill(`Dana Reyes ${run.n}`);
      await page.locator("#distributor-businessName").fill(`Reseller ${run.n}`);
    },
    submitter: (page) => page.locator("#join").getByRole("button", { name: "Continue to Payment" }),
    posts: /^\/(api\/checkout|distributors(\.data)?)$/,
    done: checkoutOpened,
  },
  {
    name: "app checkout button on /apps",
    path: `/apps?q=${encodeURIComponent(app.name)}`,
    who: "customer",
    submitter: (page) =>
      page.getByRole("article", { name: app.name, exact: true }).getByRole("button", { name: "Start 3-Day Trial" }),
    posts: /^\/(api\/checkout|apps(\.data)?)$/,
    done: checkoutOpened,
  },
  {
    name: "package checkout button on /packages",
    path: "/packages?industry=Insurance&goal=add_ai&timeline=standard",
    who: "customer",
    submitter: (page) =>
      page.getByRole("article", { name: "Starter", exact: true }).getByRole("button", { name: /^Start 3-Day Free Trial/ }),
    posts: /^\/(api\/checkout|packages(\.data)?)$/,
    done: checkoutOpened,
  },
  {
    name: "profile on /dashboard/profile",
    path: "/dashboard/profile",
    who: "customer",
    fill: (page, run) => page.getByLabel("First name").fill(`Renamed ${run.n}`),
    submitter: (page) => page.getByRole("button", { name: "Save changes" }),
    posts: /^\/dashboard\/profile(\.data)?$/,
    done: (page) => expect(page.getByText("Profile updated.")).toBeVisible(),
  },
  {
    name: "settings on /dashboard/settings",
    path: "/dashboard/settings",
    who: "customer",
    fill: (page) => page.locator("#sidebar-collapsed").check(),
    submitter: (page) => page.getByRole("button", { name: "Save preferences" }),
    posts: /^\/dashboard\/settings(\.data)?$/,
    done: (page) => expect(page.getByText("Settings saved.")).toBeVisible(),
  },
  {
    name: "support ticket on /dashboard/support",
    path: "/dashboard/support",
    who: "customer",
    fill: async (page, run) => {
      await page.getByLabel("Subject").fill(`Invoice question ${run.n}`);
      await page.getByLabel("Message").fill("My invoice shows the wrong company name.");
    },
    submitter: (page) => page.getByRole("button", { name: "Submit ticket" }),
    posts: /^\/dashboard\/support(\.data)?$/,
    done: async (page, run) => {
      await expect(page.getByText("Ticket submitted.")).toBeVisible();
      // Stored once: the list shows the ticket one time.
      await expect(page.getByRole("list", { name: "Support tickets" }).getByText(`Invoice question ${run.n}`)).toHaveCount(1);
    },
  },
  {
    name: "onboarding step on /dashboard/onboarding",
    path: "/dashboard/onboarding",
    who: "customer",
    submitter: (page) => page.getByRole("button", { name: "Mark complete: Connect your tools" }),
    posts: /^\/dashboard\/onboarding(\.data)?$/,
    done: async (page) => {
      await expect(page.getByTestId("step-connect-tools")).toContainText("Completed");
      await expect(page.getByText("2 of 8 steps completed")).toBeVisible();
    },
  },
  {
    name: "plan checkout button on /dashboard/billing",
    path: "/dashboard/billing",
    who: "customer",
    submitter: (page) => page.getByTestId("plan-pro").getByRole("button", { name: "Choose Pro" }),
    posts: /^\/(api\/checkout|dashboard\/billing(\.data)?)$/,
    done: checkoutOpened,
  },
  {
    name: "add-on checkout button on /dashboard/addons",
    path: "/dashboard/addons",
    who: "customer",
    submitter: (page) =>
      page
        .getByTestId("addon-card")
        .filter({ has: page.getByRole("heading", { name: "SEO Optimizer", exact: true }) })
        .getByRole("button", { name: "Subscribe" }),
    posts: /^\/(api\/checkout|dashboard\/addons(\.data)?)$/,
    done: checkoutOpened,
  },
  {
    name: "scaling checkout button on /dashboard/scaling",
    path: "/dashboard/scaling",
    who: "customer",
    submitter: (page) => page.getByTestId("tier-3").getByRole("button", { name: "Upgrade" }),
    posts: /^\/(api\/checkout|dashboard\/scaling(\.data)?)$/,
    done: checkoutOpened,
  },
];

/** Starts the dashboard's free trial, so the trial overlay covers no /dashboard page. */
async function startTrial(cookie: string) {
  const res = await raw({
    method: "POST",
    path: "/dashboard",
    headers: { origin: siteOrigin(), cookie, "content-type": "application/x-www-form-urlencoded" },
    body: "intent=start-trial&plan=starter",
  });
  expect([200, 302, 303], res.text).toContain(res.status);
}

/** A promise and the function that settles it. */
function latch() {
  let resolve: (() => void) | undefined;
  const opened = new Promise<void>((r) => (resolve = r));
  return { opened, open: () => resolve?.() };
}

const GATE_ASKED = "e2e: the boot script asked the submit gate";
const HYDRATED = "e2e: hydrated";

/**
 * Says on the console (which still reports while a navigation is on its way, when page.evaluate
 * waits for it) when the boot script asks the submit gate whether to hydrate, and when React has
 * hydrated the page (root.tsx sets html[data-hydrated]). With `press`, the page presses the marked
 * button when React Router's history first writes its index into history.state: the router is
 * being made, hydration is under way.
 */
function watchHydration(press: boolean) {
  // (Init scripts run before the document has its root element.)
  new MutationObserver((_records, observer) => {
    if (document.documentElement.dataset.hydrated === undefined) return;
    observer.disconnect();
    console.info("e2e: hydrated");
  }).observe(document, { attributes: true, subtree: true, attributeFilter: ["data-hydrated"] });
  let gate: { hydrate: () => boolean } | undefined;
  Object.defineProperty(window, "submitGate", {
    configurable: true,
    get: () => gate,
    set(value: { hydrate: () => boolean }) {
      gate = value;
      const hydrate = value.hydrate;
      value.hydrate = () => {
        const answer = hydrate.call(value);
        console.info("e2e: the boot script asked the submit gate");
        return answer;
      };
    },
  });
  if (!press) return;
  const replaceState = History.prototype.replaceState;
  let pressed = false;
  History.prototype.replaceState = function (state: unknown, unused: string, url?: string | URL | null) {
    if (!pressed && state && typeof state === "object" && "idx" in state) {
      const button = document.querySelector<HTMLElement>("[data-e2e-submitter]");
      if (button) {
        pressed = true;
        button.click();
      }
    }
    replaceState.call(this, state, unused, url);
  };
}

async function submitAt(context: BrowserContext, row: Row, run: Run, moment: Moment) {
  const events: string[] = [];
  const answered = new Set<Request>();
  const failed: string[] = [];
  const carries = (url: string) => row.posts.test(new URL(url).pathname);
  const onRequest = (r: Request) => {
    if (r.method() === "POST" && carries(r.url())) events.push("sent");
  };
  // Answered once its response arrives (a script may stop reading the body early).
  const onResponse = (r: Response) => {
    if (r.request().method() === "POST" && carries(r.url())) answered.add(r.request());
  };
  const onFailed = (r: Request) => {
    if (r.method() === "POST" && carries(r.url()) && !answered.has(r)) failed.push(`${r.url()} ${r.failure()?.errorText}`);
  };
  context.on("request", onRequest);
  context.on("response", onResponse);
  context.on("requestfailed", onFailed);
  try {
    await pressAndCheck(context, row, run, moment, { events, answered, failed, carries });
  } finally {
    context.off("request", onRequest);
    context.off("response", onResponse);
    context.off("requestfailed", onFailed);
  }
}

interface Seen {
  /** In order: the page's hydration milestones and the submissions sent. */
  events: string[];
  answered: Set<Request>;
  failed: string[];
  carries: (url: string) => boolean;
}

async function pressAndCheck(
  context: BrowserContext,
  row: Row,
  run: Run,
  moment: Moment,
  { events, answered, failed, carries }: Seen,
) {
  const page = await context.newPage();

  // A submission is held (as if the browser were slow to send it) until the page has hydrated or
  // its boot script has asked the submit gate, so whatever hydration would do to a native
  // submission on its way happens first.
  const settled = latch();
  page.on("console", (message) => {
    const text = message.text();
    if (text !== GATE_ASKED && text !== HYDRATED) return;
    events.push(text === HYDRATED ? "hydrated" : "gate asked");
    settled.open();
  });
  await page.addInitScript(watchHydration, moment === "during hydration");
  await context.route(
    (url) => carries(url.href),
    async (route) => {
      if (route.request().method() === "POST") {
        await settled.opened;
        events.push("released");
      }
      await route.continue().catch(() => {});
    },
  );

  // The page's scripts wait: all of them, or (while the entry module loads) React Router's entry.
  const scripts = latch();
  await context.route("**/assets/*.js", async (route) => {
    if (moment !== "while the entry module loads" || /\/entry\.client-[^/]+\.js$/.test(route.request().url()))
      await scripts.opened;
    await route.continue().catch(() => {});
  });

  await page.goto(run.path ?? row.path, { waitUntil: "domcontentloaded" });
  await row.fill?.(page, run);
  const button = row.submitter(page);
  // Not waiting for a navigation the press starts: the submission may be held (above).
  const press = () => button.click({ noWaitAfter: true });
  switch (moment) {
    case "before any script runs":
      await press();
      scripts.open();
      break;
    case "while the entry module loads":
      // The route modules are in, so the boot script has asked the gate (in the same task) and
      // waits for the entry.
      await page.waitForFunction(() => "__reactRouterRouteModules" in window);
      await press();
      scripts.open();
      break;
    case "during hydration":
      await button.evaluate((el) => el.setAttribute("data-e2e-submitter", ""));
      scripts.open();
      break;
    case "typed before, pressed right after hydration":
      scripts.open();
      await page.waitForSelector("html[data-hydrated]");
      await press();
      break;
  }

  await row.done(page, run);
  await expect.poll(() => answered.size, { message: "answered submissions", timeout: 30_000 }).toBe(1);
  expect(
    events.filter((e) => e === "sent"),
    "submissions sent",
  ).toHaveLength(1);
  expect(failed, "submissions cancelled").toEqual([]);
  const sentAt = events.indexOf("sent");
  const hydratedAt = events.indexOf("hydrated");
  if (moment === "before any script runs") {
    // Sent natively, and the page it is replacing did not hydrate meanwhile.
    expect(hydratedAt === -1 || hydratedAt > events.indexOf("released"), events.join(", ")).toBe(true);
  } else {
    // Held until the page was ready, then sent by it.
    expect(hydratedAt, events.join(", ")).toBeGreaterThan(-1);
    expect(sentAt, events.join(", ")).toBeGreaterThan(hydratedAt);
  }
  await row.check?.(run);
}

test.describe("a form pressed while the page loads is sent exactly once", () => {
  /**
   * One browser context for the file's tests, behind one proxy whose source address each test
   * changes (the forms' per-IP limits stay per test): a context per test costs a renderer and the
   * browser's set-up each time. What a test leaves in it (cookies, pages, routes, listeners) is
   * taken away after it. Made in beforeAll rather than as a worker fixture, which would need a
   * worker of its own that Playwright starts only when another ends.
   */
  let shared: { context: BrowserContext; proxy: Awaited<ReturnType<typeof ipProxy>> } | undefined;
  test.beforeAll(async ({ browser }) => {
    const proxy = await ipProxy(siteOrigin());
    shared = { proxy, context: await browser.newContext({ proxy: proxy.proxy }) };
  });
  test.afterAll(async () => {
    await shared?.context.close();
    await shared?.proxy.close();
  });

  for (const row of ROWS) {
    for (const [n, moment] of MOMENTS.entries()) {
      test(`${row.name}: ${moment}`, async () => {
        const { context, proxy } = shared!;
        test.slow();
        const run: Run = { email: uniqueEmail("early-form"), password: CUSTOMER_PASSWORD, n };
        if (row.who !== "visitor") {
          const { cookie } = await createVerifiedAccount(run.email, run.password, siteOrigin());
          if (row.who === "customer") run.cookie = cookie;
        }
        await row.setup?.(run);
        if (run.cookie && row.path.startsWith("/dashboard")) await startTrial(run.cookie);
        proxy.ip = freshIp();
        try {
          if (run.cookie) await context.addCookies(siteCookies(run.cookie));
          await submitAt(context, row, run, moment);
        } finally {
          await context.unrouteAll({ behavior: "ignoreErrors" });
          await Promise.all(context.pages().map((page) => page.close()));
          await context.clearCookies();
        }
      });
    }
  }
});
