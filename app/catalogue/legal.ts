import { COMPANY } from "./company";

/**
 * The privacy policy and the terms of service (/privacy, /terms). Written for what this product
 * really does: the data its forms collect, the cookies it sets, the services it hands data to. The
 * legal entity's name and address are placeholders the business fills in (COMPANY).
 */

/** A paragraph, or a bulleted list. */
export type LegalBlock = string | { list: readonly string[] };

interface LegalSection {
  /** The fragment the table of contents links to. */
  id: string;
  title: string;
  blocks: readonly LegalBlock[];
}

export interface LegalDocument {
  title: string;
  /** ISO date of the last change, shown as "Last updated". */
  updated: string;
  summary: string;
  sections: readonly LegalSection[];
}

export const PRIVACY_PATH = "/privacy";
export const TERMS_PATH = "/terms";

const WHO = `${COMPANY.legalName}, ${COMPANY.address}`;

export const PRIVACY_POLICY: LegalDocument = {
  title: "Privacy Policy",
  updated: "2026-11-26",
  summary:
    "What we collect when you use our website and customer portal, why, who helps us process it, how long we keep it and the choices you have. In short: we use your details to provide what you ask for, we never sell them, and we send you marketing email only if you say yes.",
  sections: [
    {
      id: "who-we-are",
      title: "Who we are",
      blocks: [
        `${COMPANY.name} sells ready-made AI automation apps and build packages to small and mid-size businesses. The controller of your personal data is ${WHO}.`,
        "Questions about this policy or your data: signed-in customers can open a ticket from the Support page of the dashboard; anyone can write to us at the address above.",
      ],
    },
    {
      id: "what-we-collect",
      title: "What we collect",
      blocks: [
        "Only what the forms ask for and what running a secure website requires:",
        {
          list: [
            "Account: your email address, your first and last name and company name if you give them, and your password, which we store only as a salted, slow hash that nobody can read back. If you sign in with Google, Google tells us your name, email address and account identifier.",
            "Callback and consultation requests: your name, email address, phone number, company, project type, budget range, timeline, project details, preferred call time, whether you agreed to marketing email, the wording you agreed to and when.",
            "Purchases and trials: what you bought or tried, prices, order and payment status, and receipts. Card details are entered on the payment provider's page and never reach our servers.",
            "Affiliate and distributor programs: your username, business name, the sign-ups and payments attributed to your referral link, and the commissions owed to you.",
            "Your use of the portal: onboarding progress, settings, support tickets and the activity figures shown on your dashboard.",
            "Technical data: your IP address and browser type in our security logs and rate limits, and the cookies described below.",
          ],
        },
      ],
    },
    {
      id: "why",
      title: "Why we use it",
      blocks: [
        {
          list: [
            "To provide the service you signed up for: your account, trials, purchases, delivery of your apps and support (performance of a contract).",
            "To call you back when you ask us to, and to follow up on that request (steps at your request before a contract).",
            "To send you news, offers and training invitations by email, only if you ticked the marketing box; you can withdraw at any time with the unsubscribe link in every such email (consent).",
            "To keep the service secure: preventing fraud, abuse and password guessing, and keeping records of payments as tax law requires (legitimate interests and legal obligations).",
          ],
        },
        "We do not sell your personal data, and we do not use it for automated decisions that have legal or similarly significant effects on you.",
      ],
    },
    {
      id: "cookies",
      title: "Cookies",
      blocks: [
        "We set only cookies that the site needs to work; there are no advertising or third-party analytics cookies.",
        {
          list: [
            "Session cookie: keeps you signed in, for up to 7 days after your last visit.",
            "Trusted-device cookie: remembers that this browser signed in to your account before, so that someone guessing your password elsewhere cannot lock you out; kept for 180 days.",
            "Referral cookie: when you arrive through a partner's referral link, it records which partner referred you, so the partner can be credited if you sign up; kept for 30 days.",
          ],
        },
      ],
    },
    {
      id: "sharing",
      title: "Who we share it with",
      blocks: [
        "Service providers who process data on our behalf, under contracts that bind them to our instructions:",
        {
          list: [
            "Stripe, to take payments and manage subscriptions.",
            "Mailchimp (Intuit), which holds our contact list: your callback request is added there so our sales team can follow up, and you receive marketing email from it only if you agreed to it.",
            "Our email delivery provider, to send account, receipt and support emails.",
            "Google, only if you choose to sign in with Google.",
            "Our hosting and database providers, who store the data for us.",
          ],
        },
        "If you came through a partner's referral link, that partner sees that a referred customer signed up or paid, and the commission, never your payment details. We may also disclose data where the law requires it.",
        "Some of these providers are located outside your country, including in the United States. Where that happens we rely on adequacy decisions or the standard contractual clauses approved by the European Commission.",
      ],
    },
    {
      id: "retention",
      title: "How long we keep it",
      blocks: [
        {
          list: [
            "Account data: for as long as your account is open, then deleted within 30 days of closing it, except what we must keep by law.",
            "Payment and order records: as long as tax and accounting law requires, typically up to 10 years.",
            "Callback requests: as long as we are in contact about them, and no longer than 24 months after the last contact unless you become a customer.",
            "Security logs and rate-limit records: a short period, usually days to weeks.",
          ],
        },
      ],
    },
    {
      id: "your-rights",
      title: "Your rights",
      blocks: [
        "You can ask us for a copy of your data, to correct it, to delete it, to restrict or object to its use, and to receive it in a portable format. Where we rely on your consent you can withdraw it at any time, without affecting what was done before. You can update your name and password yourself on your dashboard's Profile page.",
        "To use these rights, open a ticket from the Support page or write to us at the address above; we answer within one month. You also have the right to complain to the data protection authority where you live or work.",
      ],
    },
    {
      id: "security",
      title: "Security",
      blocks: [
        "We protect your data with encrypted connections, passwords stored only as slow salted hashes, limits on sign-in attempts, access for our staff only where their work needs it, and regular backups. No system is perfectly secure; if a breach affects you, we will tell you and the authorities as the law requires.",
      ],
    },
    {
      id: "children",
      title: "Children",
      blocks: [
        "Our services are for businesses and are not directed at anyone under 16. We do not knowingly collect their data.",
      ],
    },
    {
      id: "changes",
      title: "Changes to this policy",
      blocks: [
        "We update this policy when what we do with data changes. The date at the top shows the latest version; for significant changes we also tell account holders by email before they take effect.",
      ],
    },
  ],
};

export const TERMS_OF_SERVICE: LegalDocument = {
  title: "Terms of Service",
  updated: "2026-11-26",
  summary:
    "The agreement between your business and us when you create an account, start a trial, buy an app, package or plan, or join our partner programs. Please read it; by using the service you accept it.",
  sections: [
    {
      id: "agreement",
      title: "The agreement",
      blocks: [
        `These terms are an agreement between you and ${WHO} ("we", "us"). If you accept them for a business, you confirm you may bind that business. The service is meant for business use; you must be at least 18 years old to use it.`,
        "Our Privacy Policy explains how we handle personal data and forms part of these terms.",
      ],
    },
    {
      id: "service",
      title: "The service",
      blocks: [
        "We provide ready-made AI automation apps, custom build packages, member plans with monthly usage, optional add-ons, and a customer portal to manage them. What each item includes, its delivery time and its price are described on its page at the time you order.",
        "We aim for high availability but do not promise that the service will be uninterrupted or error-free; planned maintenance is announced in advance where possible.",
      ],
    },
    {
      id: "accounts",
      title: "Your account",
      blocks: [
        "Give us accurate details and keep your password to yourself. You are responsible for what is done with your account; tell us at once through the Support page if you believe someone else has used it. We may suspend an account that is used to break these terms or the law.",
      ],
    },
    {
      id: "trials",
      title: "Free trials and previews",
      blocks: [
        "App trials last 3 days and the dashboard trial lasts 7 days, unless the offer says otherwise. Each account may use one free trial per item. Where a trial requires a payment method, you are charged only if you keep the item after the trial ends; you can cancel from your dashboard before then at no cost.",
      ],
    },
    {
      id: "payment",
      title: "Prices and payment",
      blocks: [
        "Prices are in US dollars and are the amounts charged: the price shown when you confirm is the price you pay, plus any tax the checkout adds. One-time purchases are charged when you order; subscriptions are charged in advance each month until cancelled. Rush delivery and setup fees are shown as separate lines before you pay.",
        "Payments are processed by our payment provider; we never see or store your full card number. If a payment fails we may pause the items it pays for until it is settled.",
      ],
    },
    {
      id: "cancellation",
      title: "Cancellation and refunds",
      blocks: [
        "You can cancel a subscription at any time from your dashboard's billing pages. A plan stays active until the end of the period already paid; other subscriptions end when you cancel them.",
        "30-day money-back guarantee: if you are not satisfied, ask for a refund through the Support page within 30 days of your first payment for an item and we refund it in full. Refunds go back to the original payment method.",
      ],
    },
    {
      id: "your-content",
      title: "Your data and content",
      blocks: [
        "You keep all rights in the data, documents and content you give us. You allow us to use them only to provide the service to you. You are responsible for having the right to use the data you put into your automations, including your own customers' personal data; where we process it on your behalf we do so under your instructions and a data processing agreement, available on request.",
      ],
    },
    {
      id: "licence",
      title: "Our apps and your licence",
      blocks: [
        "While your purchase or subscription is active, we grant your business a non-exclusive, non-transferable licence to use the apps and deliverables we provide. The underlying software, templates and know-how remain ours. Custom work built only for you under a package is yours to use once paid in full.",
      ],
    },
    {
      id: "acceptable-use",
      title: "Acceptable use",
      blocks: [
        "Do not use the service to break the law, send spam, infringe others' rights, harm people, probe or overload our systems, or resell it without a written agreement with us. AI output can be wrong: review it before relying on it for important decisions.",
      ],
    },
    {
      id: "partners",
      title: "Affiliate and distributor programs",
      blocks: [
        "Affiliates earn the commission stated on the Earn With Us page on payments made by customers who sign up through their referral link, as recorded in our ledger; commissions on payments that are refunded or disputed are reversed. Affiliates must not spam, bid on our brand name in advertising, or make claims about the service that we have not made.",
        "Distributors buy the distributor package on the terms shown on the Distributor Program page and may resell our apps to their own clients under these terms.",
      ],
    },
    {
      id: "liability",
      title: "Liability",
      blocks: [
        "Nothing in these terms limits liability that cannot be limited by law, such as for fraud or for death or personal injury caused by negligence. Otherwise, we are not liable for indirect or consequential loss, loss of profit or loss of data beyond restoring it from our backups, and our total liability in any 12 months is limited to the amounts you paid us in those 12 months.",
      ],
    },
    {
      id: "termination",
      title: "Ending the agreement",
      blocks: [
        "You can close your account at any time through the Support page. We may end the agreement with 30 days' notice, or at once if you seriously break these terms. On ending, paid items stop at the end of their paid period, and you can ask for a copy of your data within 30 days.",
      ],
    },
    {
      id: "changes",
      title: "Changes and governing law",
      blocks: [
        "We may change these terms; we tell account holders by email at least 30 days before a change that affects them takes effect, and you may cancel before then. These terms are governed by the laws of the country of our registered address, whose courts have jurisdiction, without taking away any protection the law where you are gives you.",
      ],
    },
  ],
};
