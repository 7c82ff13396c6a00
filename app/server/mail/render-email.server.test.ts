import { describe, expect, it } from "vitest";
import { renderEmail } from "./render-email.server";
import { EMAILS, type EmailKind, type EmailProps } from "./templates";

const SITE = "https://apps.example.com";
const EVIL = `<script>alert("x")</script><img src=x onerror=alert(1)>`;

/** Each kind's props, a typed-in value in every free-text field, and what the email must show. */
const CASES: { [K in EmailKind]: { props: EmailProps<K>; shows: string[] } } = {
  verification: {
    props: { url: `${SITE}/api/auth/verify-email?token=abc` },
    shows: [`${SITE}/api/auth/verify-email?token=abc`, "24 hours"],
  },
  passwordReset: {
    props: { url: `${SITE}/api/auth/reset-password/abc` },
    shows: [`${SITE}/api/auth/reset-password/abc`, "1 hour"],
  },
  existingAccount: { props: { signInUrl: `${SITE}/auth` }, shows: [`${SITE}/auth`, "tab=reset"] },
  welcome: { props: { firstName: EVIL }, shows: [`${SITE}/dashboard`] },
  trialStarted: {
    props: { itemName: EVIL, endsAt: "2026-12-04T10:00:00Z" },
    shows: ["Dec 4, 2026", `${SITE}/dashboard/billing`],
  },
  trialEnding: {
    props: { itemName: "Starter", endsAt: "2026-12-04T10:00:00Z" },
    shows: ["Dec 4, 2026", `${SITE}/dashboard/settings`],
  },
  subscriptionTrialEnding: {
    props: { itemName: EVIL, amount: 4_900, endsAt: "2026-12-04T10:00:00Z" },
    shows: ["$49.00", "Dec 4, 2026", `${SITE}/dashboard/billing`],
  },
  chargeComing: {
    props: { itemName: "Lead Qualifier Pro", amount: 149_700, captureAt: "2026-12-01T09:30:00Z" },
    shows: ["$1,497.00", "Dec 1, 2026"],
  },
  buildCharged: {
    props: { itemName: "Lead Qualifier Pro", amount: 149_700, paidAt: "2026-12-01T09:30:00Z", receiptId: 42 },
    shows: ["$1,497.00", `${SITE}/dashboard/billing/receipts/42`],
  },
  paymentReceipt: {
    props: { itemName: "Pro plan", amount: 49_900, paidAt: "2026-12-01T09:30:00Z", receiptId: 7 },
    shows: ["$499.00", `${SITE}/dashboard/billing/receipts/7`],
  },
  paymentFailed: {
    props: { itemName: "Pro plan", amount: 49_900, retryPath: "/packages", reason: "card declined" },
    shows: ["$499.00", "What to do", `${SITE}/packages`],
  },
  subscriptionCancelled: {
    props: { itemName: "Growth", endsAt: "2026-12-20T00:00:00Z" },
    shows: ["Dec 20, 2026", "not be charged"],
  },
  refundIssued: { props: { itemName: "Pro plan", amount: 12_345 }, shows: ["$123.45"] },
  distributorWelcome: { props: { fullName: EVIL }, shows: ["within 24 hours", "within 48 hours"] },
  callbackAcknowledgement: { props: { firstName: EVIL, preferredTime: "Mornings" }, shows: ["within 24 hours", "Mornings"] },
  newLeadAlert: {
    props: { name: "Ada Lovelace", email: "ada@example.com", phone: "+1 555 0100", message: EVIL, budget: "$5k" },
    shows: ["ada@example.com", "+1 555 0100", "$5k", `${SITE}/admin`],
  },
  supportAnswer: {
    props: { ticketSubject: EVIL, answer: `Restart the sync.\n\n${EVIL}` },
    shows: ["Restart the sync.", `${SITE}/dashboard/support`],
  },
  commissionEarned: {
    props: { amount: 14_970 },
    shows: ["$149.70", `${SITE}/affiliate-dashboard`, `${SITE}/dashboard/settings`],
  },
  payoutSent: { props: { amount: 50_000, sentAt: "2026-12-01T09:30:00Z", reference: "po_123" }, shows: ["$500.00", "po_123"] },
  operatorNotice: { props: { heading: "Chargeback opened", text: `Order ${EVIL} disputed.` }, shows: [`${SITE}/admin`] },
};

describe("transactional email templates", () => {
  it("every template has a case here", () => {
    expect(Object.keys(CASES).sort()).toEqual(Object.keys(EMAILS).sort());
  });

  for (const [kind, { props, shows }] of Object.entries(CASES) as [EmailKind, (typeof CASES)[EmailKind]][]) {
    it(`${kind}: HTML and text parts with its link and figures, user input escaped`, async () => {
      const mail = await renderEmail(kind, props as never, { siteUrl: SITE });
      expect(mail.subject.length).toBeGreaterThan(3);
      expect(mail.html).toMatch(/^<!DOCTYPE html/);
      expect(mail.html).toContain("AI Automation Apps");
      for (const figure of shows) {
        expect(mail.text).toContain(figure);
        expect(mail.html).toContain(figure.replaceAll("&", "&amp;"));
      }
      // Typed-in values are text, never markup.
      expect(mail.html).not.toContain("<script>");
      expect(mail.html).not.toContain("<img src=x");
      // The footer's settings link only where the email can be switched off.
      expect(mail.html.includes("/dashboard/settings")).toBe(!EMAILS[kind].required);
    });
  }

  it("the text part's first link is the email's action (what the dev mailbox's readers follow)", async () => {
    const url = `${SITE}/api/auth/verify-email?token=abc&callbackURL=%2Fdashboard`;
    const mail = await renderEmail("verification", { url }, { siteUrl: SITE });
    expect(mail.text.match(/https?:\/\/\S+/)?.[0]).toBe(url);
  });

  it("dates are in the recipient's time zone", async () => {
    const props = { itemName: "Starter", endsAt: "2026-12-04T02:00:00Z" };
    const utc = await renderEmail("trialEnding", props, { siteUrl: SITE });
    const la = await renderEmail("trialEnding", props, { siteUrl: SITE, timeZone: "America/Los_Angeles" });
    expect(utc.text).toContain("Dec 4, 2026");
    expect(la.text).toContain("Dec 3, 2026");
    expect(la.text).toContain("PST");
  });
});
