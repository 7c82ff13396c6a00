import { createHmac } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { commissionFor } from "~/server/affiliates/ledger.server";
import {
  createAffiliate,
  getAffiliateDashboard,
  getAffiliateStats,
  pickDefaultUsername,
} from "~/server/affiliates/affiliates.server";
import {
  attributeSignup,
  CLICKS_PER_IP_PER_DAY,
  parseRefCookie,
  recordReferralVisit,
  resetClickLimits,
  utcDay,
} from "~/server/affiliates/referral.server";
import { handleAffiliateAction, type AffiliateActionResult } from "~/server/affiliates/signup.server";
import { USERNAME_RESERVED } from "~/catalogue/username";
import { grantOperator, isOperator } from "~/server/admin/admin.server";
import { authSecret, initAuth, resetAuth } from "~/server/auth/auth.server";
import { recordPayment, recordRefund } from "~/server/billing/record-payment.server";
import { setMailchimpConfig } from "~/server/leads/mailchimp.server";
import { retryLead } from "~/server/leads/leads.server";
import { affiliates, commissionLedger, leads, mailOutbox, referralClicks, referrals, user, userRoles } from "~/server/db/schema";
import type { Auth } from "~/server/auth/auth.server";
import { consoleRows } from "./support/console";
import { engine, freshDatabase } from "./support/db";

// Read lazily by env(): set before anything asks for it.
process.env.OPERATOR_EMAILS = "Ops@Example.com, other-ops@example.com";

const SITE = "http://localhost:3000";

/** The action's `data()` answer: its status and body. */
const actionResult = async (response: unknown) => {
  const d = response as { data: AffiliateActionResult; init?: { status?: number } };
  return { status: d.init?.status ?? 200, body: d.data };
};

/**
 * A `ref` cookie as /ref signs it (`{username}.{day}.{HMAC-SHA256 of "ref={username}.{day}"}` with
 * the auth secret, base64url), computed here on its own so the tests check the format too.
 */
const signedRef = (username: string, day: number = utcDay(), secret = authSecret()) =>
  `ref=${username}.${day}.${createHmac("sha256", secret).update(`ref=${username}.${day}`).digest("base64url")}`;

describe(`affiliates (${engine})`, () => {
  let database: Awaited<ReturnType<typeof freshDatabase>>;
  let auth: Auth;
  let n = 0;
  let ip = 0;
  const db = () => database.db;

  const newUser = async (over: Partial<typeof user.$inferInsert> = {}) => {
    n += 1;
    const id = `aff-user-${n}`;
    const email = over.email ?? `aff-${n}@example.com`;
    await db()
      .insert(user)
      .values({ id, name: `User ${n}`, email, emailVerified: true, ...over });
    return { id, email };
  };
  const newAffiliate = async (username: string) => {
    const u = await newUser();
    const created = await createAffiliate(db(), u.id, { username });
    expect(created.ok).toBe(true);
    return u;
  };
  const nextIp = () => {
    ip += 1;
    return `10.9.${Math.floor(ip / 250)}.${ip % 250}`;
  };
  /** A sign-up through Better Auth's HTTP handler, as the browser (or our actions) send it. */
  const signUp = (email: string, cookie?: string) =>
    auth.handler(
      new Request(`${SITE}/api/auth/sign-up/email`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          origin: SITE,
          "x-client-ip": nextIp(),
          ...(cookie ? { cookie } : {}),
        },
        body: JSON.stringify({ email, password: "correct-horse-battery", name: "New Customer" }),
      }),
    );
  const userIdOf = async (email: string) => (await db().select().from(user).where(eq(user.email, email)))[0]?.id;
  const referralOf = async (userId: string) =>
    (await db().select().from(referrals).where(eq(referrals.referredUserId, userId)))[0];
  const verificationLink = async (email: string) => {
    const mails = await db().select().from(mailOutbox).where(eq(mailOutbox.to, email));
    const mail = mails.find((m) => /verify/i.test(m.subject));
    return mail?.text.match(/https?:\/\/\S+/)?.[0];
  };
  const affiliateForm = (fields: Record<string, string>, cookie?: string) => {
    const body = new URLSearchParams(fields);
    return new Request(`${SITE}/affiliate-signup`, {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        origin: SITE,
        "x-client-ip": nextIp(),
        ...(cookie ? { cookie } : {}),
      },
      body,
    });
  };
  let payRef = 0;
  const pay = (userId: string, amount: number, ref?: string) =>
    db().transaction((tx) =>
      recordPayment(tx as never, { userId, orderId: null, amount, provider: "local", providerRef: ref ?? `pay-${++payRef}` }),
    );

  beforeAll(async () => {
    database = await freshDatabase();
    auth = await initAuth(database.db);
  });
  afterAll(async () => {
    resetAuth();
    await database?.cleanup();
  });
  beforeEach(() => resetClickLimits());

  describe("usernames", () => {
    it("stores lower case and refuses invalid names with a message", async () => {
      const u = await newUser();
      expect(await createAffiliate(db(), u.id, { username: "ab" })).toMatchObject({ ok: false, reason: "invalid" });
      expect(await createAffiliate(db(), u.id, { username: "has space" })).toMatchObject({ ok: false, reason: "invalid" });
      const ok = await createAffiliate(db(), u.id, { username: "  Jane_Doe-1 ", businessName: "  " });
      expect(ok).toMatchObject({
        ok: true,
        affiliate: { username: "jane_doe-1", businessName: null, stripeConnectStatus: "pending" },
      });
    });

    it("a taken username (any case) is 'taken'; a second row for one user is 'already_affiliate'", async () => {
      const first = await newAffiliate("taken-name");
      const other = await newUser();
      expect(await createAffiliate(db(), other.id, { username: "TAKEN-NAME" })).toEqual({ ok: false, reason: "taken" });
      expect(await createAffiliate(db(), first.id, { username: "another-name" })).toEqual({
        ok: false,
        reason: "already_affiliate",
      });
    });

    it("concurrent claims of one username: exactly one wins, the others get 'taken'", async () => {
      const users = await Promise.all([newUser(), newUser(), newUser()]);
      const results = await Promise.all(users.map((u) => createAffiliate(db(), u.id, { username: "race-name" })));
      expect(results.filter((r) => r.ok)).toHaveLength(1);
      expect(results.filter((r) => !r.ok).map((r) => (r.ok ? null : r.reason))).toEqual(["taken", "taken"]);
    });

    it("reserved names (any case, - and _ ignored) are refused in the form and for a new row; one taken before still resolves", async () => {
      const u = await newUser();
      expect(await createAffiliate(db(), u.id, { username: "Ad_Min" })).toEqual({
        ok: false,
        reason: "invalid",
        message: USERNAME_RESERVED,
      });
      const signup = await actionResult(
        await handleAffiliateAction(
          db(),
          affiliateForm({
            intent: "signup",
            firstName: "Res",
            lastName: "Erved",
            email: "reserved@example.com",
            password: "long-enough-pw",
            username: "No_Reply",
          }),
          null,
        ),
      );
      expect(signup.status).toBe(400);
      expect(signup.body.fieldErrors?.username).toBe("This username is reserved. Please choose another.");
      expect(await userIdOf("reserved@example.com")).toBeUndefined();
      const session = {
        id: u.id,
        email: u.email,
        name: "U",
        emailVerified: true,
        firstName: null,
        lastName: null,
        companyName: null,
      };
      for (const username of ["Support", "dashboard", "ai-automation-apps"]) {
        const join = await actionResult(await handleAffiliateAction(db(), affiliateForm({ intent: "join", username }), session));
        expect([username, join.status, join.body.fieldErrors?.username]).toEqual([username, 400, USERNAME_RESERVED]);
      }
      expect(await db().select().from(affiliates).where(eq(affiliates.userId, u.id))).toEqual([]);
      // A name taken before it was reserved is left alone: its link keeps working.
      const early = await newUser();
      await db().insert(affiliates).values({ userId: early.id, username: "billing", stripeConnectStatus: "pending" });
      const visit = await recordReferralVisit(db(), {
        username: "billing",
        cookieHeader: null,
        clientIp: nextIp(),
        isBot: false,
        secure: false,
        secret: authSecret(),
      });
      expect(visit.counted).toBe(true);
    });

    it("the default username skips taken numbers", async () => {
      await newAffiliate("maryjones5");
      const seq = [0.005, 0.005, 0.006];
      const picked = await pickDefaultUsername(db(), "Mary", "Jones", () => seq.shift() ?? 0.5);
      expect(picked).toBe("maryjones6");
    });
  });

  describe("/ref visits", () => {
    it("unknown or malformed usernames: no cookie, no click", async () => {
      for (const username of ["nobody-here", "x", "../etc", "a".repeat(40)]) {
        const visit = await recordReferralVisit(db(), {
          username,
          cookieHeader: null,
          clientIp: nextIp(),
          isBot: false,
          secure: false,
          secret: authSecret(),
        });
        expect(visit).toEqual({ setCookie: null, counted: false });
      }
    });

    it("a known affiliate: HttpOnly SameSite=Lax 30-day cookie and one click per visitor cookie per day", async () => {
      const aff = await newAffiliate("clicky");
      const clientIp = nextIp();
      const first = await recordReferralVisit(db(), {
        username: "Clicky",
        cookieHeader: null,
        clientIp,
        isBot: false,
        secure: true,
        secret: authSecret(),
      });
      expect(first.counted).toBe(true);
      expect(first.setCookie).toBe(
        `${signedRef("clicky")}; Path=/; Max-Age=${30 * 24 * 60 * 60}; HttpOnly; SameSite=Lax; Secure`,
      );
      const cookie = first.setCookie!.split(";")[0]!;
      const again = await recordReferralVisit(db(), {
        username: "clicky",
        cookieHeader: cookie,
        clientIp,
        isBot: false,
        secure: false,
        secret: authSecret(),
      });
      expect(again.counted).toBe(false);
      expect(again.setCookie).not.toContain("Secure");
      // The next UTC day counts again.
      const tomorrow = new Date(Date.now() + 24 * 60 * 60 * 1000);
      const later = await recordReferralVisit(db(), {
        username: "clicky",
        cookieHeader: cookie,
        clientIp,
        isBot: false,
        secure: false,
        secret: authSecret(),
        now: tomorrow,
      });
      expect(later.counted).toBe(true);
      expect((await getAffiliateStats(db(), aff.id)).clicks).toBe(2);
    });

    it("bots are not counted; a cookie-less client is capped per IP and day", async () => {
      const aff = await newAffiliate("capped");
      const bot = await recordReferralVisit(db(), {
        username: "capped",
        cookieHeader: null,
        clientIp: nextIp(),
        isBot: true,
        secure: false,
        secret: authSecret(),
      });
      expect(bot.counted).toBe(false);
      const clientIp = nextIp();
      const counted = [];
      for (let i = 0; i < CLICKS_PER_IP_PER_DAY + 5; i++) {
        counted.push(
          (
            await recordReferralVisit(db(), {
              username: "capped",
              cookieHeader: null,
              clientIp,
              isBot: false,
              secure: false,
              secret: authSecret(),
            })
          ).counted,
        );
      }
      expect(counted.filter(Boolean)).toHaveLength(CLICKS_PER_IP_PER_DAY);
      expect((await getAffiliateStats(db(), aff.id)).clicks).toBe(CLICKS_PER_IP_PER_DAY);
    });

    it("malformed ref cookies are ignored", () => {
      expect(parseRefCookie(signedRef("clicky", 20000), authSecret())).toEqual({ username: "clicky", day: 20000 });
      for (const bad of ["ref=clicky", "ref=Clicky.1", "ref=a.1", "ref=clicky.x", "other=clicky.1", "ref=%E0%A4%A"]) {
        expect(parseRefCookie(bad, authSecret())).toBeNull();
      }
    });

    it("unsigned, forged or re-signed ref cookies are ignored", () => {
      const good = signedRef("clicky", 20000);
      const sig = good.split(".").at(-1)!;
      for (const bad of [
        // The format /ref set before the cookie was signed, or what anyone can write.
        "ref=clicky.20000",
        // Another affiliate's name or another day under this signature.
        `ref=clicky2.20000.${sig}`,
        `ref=clicky.20001.${sig}`,
        // Signed with another secret; a signature cut short or padded.
        signedRef("clicky", 20000, "not-the-secret"),
        good.slice(0, -1),
        `${good}A`,
        `${good.slice(0, -1)}=`,
      ]) {
        expect([bad, parseRefCookie(bad, authSecret())]).toEqual([bad, null]);
      }
    });

    it("a visit with a forged cookie gets a signed one; the forged day is not believed", async () => {
      await newAffiliate("forgery-seen");
      const day = utcDay();
      const visit = await recordReferralVisit(db(), {
        username: "forgery-seen",
        cookieHeader: `ref=forgery-seen.${day}`,
        clientIp: nextIp(),
        isBot: false,
        secure: false,
        secret: authSecret(),
      });
      // A real visitor's cookie of today would have suppressed the click; the forged one does not.
      expect(visit.counted).toBe(true);
      expect(visit.setCookie?.split(";")[0]).toBe(signedRef("forgery-seen", day));
    });
  });

  describe("attribution at sign-up (Better Auth databaseHooks.user.create.after)", () => {
    it("a sign-up carrying the ref cookie is linked to the affiliate", async () => {
      const aff = await newAffiliate("referrer-a");
      const res = await signUp("referred-1@example.com", `theme=dark; ${signedRef("referrer-a")}`);
      expect(res.status).toBe(200);
      const id = await userIdOf("referred-1@example.com");
      expect(await referralOf(id!)).toMatchObject({ affiliateUserId: aff.id });
      expect((await getAffiliateStats(db(), aff.id)).signups).toBe(1);
    });

    it("no cookie, an unknown affiliate or a forged cookie: no referral", async () => {
      await signUp("plain@example.com");
      await signUp("unknown-ref@example.com", "ref=no-such-affiliate.1");
      await signUp("forged-ref@example.com", "ref=<script>.1");
      for (const email of ["plain@example.com", "unknown-ref@example.com", "forged-ref@example.com"]) {
        expect(await referralOf((await userIdOf(email))!)).toBeUndefined();
      }
    });

    it("a forged cookie naming an affiliate attributes nothing, and the sign-up succeeds", async () => {
      const target = await newAffiliate("forged-target");
      const other = signedRef("other-name").split(".").at(-1);
      const forged = [
        // What anyone could write before the cookie was signed.
        `ref=forged-target.${utcDay()}`,
        // A real signature of another name, a signature made with another secret, garbage.
        `ref=forged-target.${utcDay()}.${other}`,
        signedRef("forged-target", utcDay(), "guessed-secret"),
        "ref=forged-target.1.%%%",
      ];
      for (const [i, cookie] of forged.entries()) {
        const email = `forged-${i}@example.com`;
        const status = (await signUp(email, cookie)).status;
        expect([cookie, status, await referralOf((await userIdOf(email))!)]).toEqual([cookie, 200, undefined]);
      }
      expect((await getAffiliateStats(db(), target.id)).signups).toBe(0);
      // And the cookie /ref signs still attributes.
      await signUp("signed-ok@example.com", signedRef("forged-target"));
      expect(await referralOf((await userIdOf("signed-ok@example.com"))!)).toMatchObject({ affiliateUserId: target.id });
    });

    it("first attribution wins; a taken email's second sign-up changes nothing", async () => {
      const a = await newAffiliate("first-wins");
      const b = await newAffiliate("second-loses");
      await signUp("twice@example.com", signedRef("first-wins", 1));
      const id = (await userIdOf("twice@example.com"))!;
      // Same email again with another affiliate's cookie: Better Auth answers 200 and creates nothing.
      expect((await signUp("twice@example.com", signedRef("second-loses", 1))).status).toBe(200);
      expect(await attributeSignup(db(), id, signedRef("second-loses", 1), authSecret())).toBe(false);
      expect(await referralOf(id)).toMatchObject({ affiliateUserId: a.id });
      expect((await getAffiliateStats(db(), b.id)).signups).toBe(0);
    });

    it("never self-referral", async () => {
      const self = await newAffiliate("self-ref");
      expect(await attributeSignup(db(), self.id, signedRef("self-ref", 1), authSecret())).toBe(false);
      expect(await referralOf(self.id)).toBeUndefined();
    });
  });

  describe("/affiliate-signup", () => {
    it("creates the account (verification required) and the affiliate row when the link is opened", async () => {
      const referrer = await newAffiliate("upline");
      const res = await handleAffiliateAction(
        db(),
        affiliateForm({
          intent: "signup",
          firstName: "Ada",
          lastName: "Lovelace",
          email: "ada@example.com",
          password: "analytical-engine",
          businessName: "Engines Ltd",
          username: "Ada_L",
        }),
        null,
      );
      const { status, body } = await actionResult(res);
      expect(status).toBe(200);
      expect(body).toMatchObject({ ok: true, message: expect.stringMatching(/check your email/) });
      const id = (await userIdOf("ada@example.com"))!;
      expect((await db().select().from(affiliates).where(eq(affiliates.userId, id))).length).toBe(0);
      const link = await verificationLink("ada@example.com");
      expect(link).toContain("callbackURL=%2Faffiliate-dashboard");
      const verified = await auth.handler(new Request(link!, { headers: { "x-client-ip": nextIp() } }));
      expect(verified.status).toBe(302);
      expect(verified.headers.get("location")).toBe("/affiliate-dashboard?toast=account-created&username=ada_l");
      expect(verified.headers.getSetCookie().join(";")).toMatch(/session_token=/);
      const [row] = await db().select().from(affiliates).where(eq(affiliates.userId, id));
      expect(row).toMatchObject({ username: "ada_l", businessName: "Engines Ltd", stripeConnectStatus: "pending" });
      // The affiliate's new account was not referred (no cookie); another affiliate is unaffected.
      expect(await referralOf(id)).toBeUndefined();
      expect((await getAffiliateStats(db(), referrer.id)).signups).toBe(0);
    });

    it("a default username when the field is empty; a ref cookie also attributes affiliate sign-ups", async () => {
      const upline = await newAffiliate("upline-two");
      const res = await handleAffiliateAction(
        db(),
        affiliateForm(
          {
            intent: "signup",
            firstName: "Grace",
            lastName: "Hopper",
            email: "grace@example.com",
            password: "cobol-forever",
            username: "",
          },
          signedRef("upline-two", 1),
        ),
        null,
      );
      const { body } = await actionResult(res);
      expect(body.ok).toBe(true);
      expect(body.values?.username).toMatch(/^gracehopper\d{1,3}$/);
      const id = (await userIdOf("grace@example.com"))!;
      expect(await referralOf(id)).toMatchObject({ affiliateUserId: upline.id });
      await auth.handler(new Request((await verificationLink("grace@example.com"))!, { headers: { "x-client-ip": nextIp() } }));
      expect((await db().select().from(affiliates).where(eq(affiliates.userId, id)))[0]?.username).toBe(body.values?.username);
    });

    it("a taken username is a field message; nothing is created", async () => {
      await newAffiliate("occupied");
      const res = await handleAffiliateAction(
        db(),
        affiliateForm({
          intent: "signup",
          firstName: "A",
          lastName: "B",
          email: "occ@example.com",
          password: "long-enough-pw",
          username: "Occupied",
        }),
        null,
      );
      const { status, body } = await actionResult(res);
      expect(status).toBe(400);
      expect(body.fieldErrors?.username).toMatch(/already taken/);
      expect(body.toast).toMatchObject({ title: "Signup failed" });
      expect(await userIdOf("occ@example.com")).toBeUndefined();
    });

    it("validation: password minimum 8, required names, strict fields", async () => {
      const short = await actionResult(
        await handleAffiliateAction(
          db(),
          affiliateForm({ intent: "signup", firstName: "A", lastName: "B", email: "short@example.com", password: "123456" }),
          null,
        ),
      );
      expect(short.status).toBe(400);
      expect(short.body.fieldErrors?.password).toMatch(/at least 8/);
      const missing = await actionResult(
        await handleAffiliateAction(
          db(),
          affiliateForm({ intent: "signup", email: "m@example.com", password: "long-enough-pw" }),
          null,
        ),
      );
      expect(missing.body.fieldErrors).toMatchObject({ firstName: expect.any(String), lastName: expect.any(String) });
      const extra = await actionResult(
        await handleAffiliateAction(
          db(),
          affiliateForm({
            intent: "signup",
            firstName: "A",
            lastName: "B",
            email: "x@example.com",
            password: "long-enough-pw",
            role: "operator",
          }),
          null,
        ),
      );
      expect(extra.status).toBe(400);
      expect(await userIdOf("x@example.com")).toBeUndefined();
    });

    it("an already registered email gets the same answer and no affiliate row for its owner", async () => {
      const owner = await newUser({ email: "owner@example.com" });
      const res = await handleAffiliateAction(
        db(),
        affiliateForm({
          intent: "signup",
          firstName: "Eve",
          lastName: "Attacker",
          email: "owner@example.com",
          password: "long-enough-pw",
          username: "eve-owns",
        }),
        null,
      );
      const { status, body } = await actionResult(res);
      expect(status).toBe(200);
      expect(body.ok).toBe(true);
      expect(await db().select().from(affiliates).where(eq(affiliates.userId, owner.id))).toEqual([]);
      // The owner is told by email, not the visitor; the username stays free.
      const mails = await db().select().from(mailOutbox).where(eq(mailOutbox.to, "owner@example.com"));
      expect(mails.map((m) => m.subject)).toContain("You already have an account");
    });

    it("a signed-in user becomes an affiliate with the short form (join)", async () => {
      const u = await newUser({ firstName: "Alan", lastName: "Turing" });
      const session = {
        id: u.id,
        email: u.email,
        name: "Alan Turing",
        emailVerified: true,
        firstName: "Alan",
        lastName: "Turing",
        companyName: null,
      };
      const taken = await actionResult(
        await handleAffiliateAction(db(), affiliateForm({ intent: "join", username: "occupied" }), session),
      );
      expect(taken.body.fieldErrors?.username).toMatch(/already taken/);
      // A NUL (or another control character) in the business name is the field's error, not a 500.
      for (const businessName of ["Bletchley\u0000Park", "Bletchley\u0007"]) {
        const bad = await actionResult(
          await handleAffiliateAction(db(), affiliateForm({ intent: "join", username: "", businessName }), session),
        );
        expect(bad.status).toBe(400);
        expect(bad.body.fieldErrors?.businessName).toBeTruthy();
      }
      expect(await db().select().from(affiliates).where(eq(affiliates.userId, u.id))).toEqual([]);
      const joined = await handleAffiliateAction(
        db(),
        affiliateForm({ intent: "join", username: "", businessName: "Bletchley" }),
        session,
      ).catch((r: unknown) => r);
      expect(joined).toBeInstanceOf(Response);
      expect((joined as Response).headers.get("location")).toBe("/affiliate-dashboard?toast=joined");
      const [row] = await db().select().from(affiliates).where(eq(affiliates.userId, u.id));
      expect(row?.username).toMatch(/^alanturing\d{1,3}$/);
      expect(row?.businessName).toBe("Bletchley");
    });
  });

  describe("commission ledger", () => {
    it("30% once per payment event through recordPayment; a repeated event is a no-op", async () => {
      const aff = await newAffiliate("earner");
      const customer = await newUser();
      await attributeSignup(db(), customer.id, signedRef("earner", 1), authSecret());
      expect(await pay(customer.id, 12_345, "pay-once")).toBe(true);
      expect(await pay(customer.id, 12_345, "pay-once")).toBe(false);
      const rows = await db().select().from(commissionLedger).where(eq(commissionLedger.affiliateUserId, aff.id));
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({
        kind: "commission",
        amount: commissionFor(12_345),
        status: "pending",
        referredUserId: customer.id,
      });
      expect(commissionFor(12_345)).toBe(3704);
      expect(await getAffiliateStats(db(), aff.id)).toMatchObject({ signups: 1, payingCustomers: 1, pending: 3704, paid: 0 });
    });

    it("a refund writes a negative reversal and the totals net out", async () => {
      const aff = await newAffiliate("refunded");
      const customer = await newUser();
      await attributeSignup(db(), customer.id, signedRef("refunded", 1), authSecret());
      await pay(customer.id, 10_000, "pay-r1");
      await pay(customer.id, 5_000, "pay-r2");
      const refund = () =>
        db().transaction((tx) =>
          recordRefund(tx as never, {
            userId: customer.id,
            orderId: null,
            amount: 10_000,
            provider: "local",
            providerRef: "refund-r1",
          }),
        );
      expect(await refund()).toBe(true);
      expect(await refund()).toBe(false);
      const rows = await db()
        .select()
        .from(commissionLedger)
        .where(and(eq(commissionLedger.affiliateUserId, aff.id), eq(commissionLedger.kind, "reversal")));
      expect(rows.map((r) => r.amount)).toEqual([-3000]);
      expect(await getAffiliateStats(db(), aff.id)).toMatchObject({ payingCustomers: 1, pending: 1500 });
    });

    it("partial refunds that add up to the payment reverse exactly the commission, never more", async () => {
      const aff = await newAffiliate("partial");
      const customer = await newUser();
      await attributeSignup(db(), customer.id, signedRef("partial", 1), authSecret());
      await pay(customer.id, 19_900, "pay-partial");
      const refund = (amount: number, ref: string) =>
        db().transaction((tx) =>
          recordRefund(tx as never, { userId: customer.id, orderId: null, amount, provider: "local", providerRef: ref }),
        );
      const entries = async () =>
        (
          await db()
            .select()
            .from(commissionLedger)
            .where(eq(commissionLedger.affiliateUserId, aff.id))
            .orderBy(commissionLedger.id)
        ).map((r) => [r.kind, r.amount]);
      // 30% of 9945 is 2983.5 and of 9955 is 2986.5: rounded one by one they reverse 5971 of 5970.
      expect(await refund(9_945, "refund-p1")).toBe(true);
      expect(await refund(9_955, "refund-p2")).toBe(true);
      expect(await entries()).toEqual([
        ["commission", 5970],
        ["reversal", -2984],
        ["reversal", -2986],
      ]);
      expect(await getAffiliateStats(db(), aff.id)).toMatchObject({ pending: 0, paid: 0 });
      // A refund past the payment (a provider adjustment) cannot take the affiliate below zero.
      expect(await refund(500, "refund-p3")).toBe(true);
      expect((await entries()).at(-1)).toEqual(["reversal", 0]);
      expect(await getAffiliateStats(db(), aff.id)).toMatchObject({ pending: 0 });
    });

    it("an unreferred customer's payment writes nothing", async () => {
      const before = (await db().select().from(commissionLedger)).length;
      const customer = await newUser();
      await pay(customer.id, 9_999);
      expect(await db().select().from(commissionLedger)).toHaveLength(before);
    });

    it("each affiliate's dashboard shows only its own clicks, sign-ups and ledger", async () => {
      const a = await newAffiliate("iso-a");
      const b = await newAffiliate("iso-b");
      const ca = await newUser();
      const cb1 = await newUser();
      const cb2 = await newUser();
      await attributeSignup(db(), ca.id, signedRef("iso-a", 1), authSecret());
      await attributeSignup(db(), cb1.id, signedRef("iso-b", 1), authSecret());
      await attributeSignup(db(), cb2.id, signedRef("iso-b", 1), authSecret());
      await db()
        .insert(referralClicks)
        .values([{ affiliateUserId: a.id }, { affiliateUserId: b.id }, { affiliateUserId: b.id }]);
      await pay(ca.id, 1_000);
      await pay(cb1.id, 2_000);
      await pay(cb2.id, 4_000);
      await db()
        .update(commissionLedger)
        .set({ status: "paid", paidAt: new Date() })
        .where(eq(commissionLedger.referredUserId, cb2.id));
      const da = await getAffiliateDashboard(db(), a.id);
      const dbb = await getAffiliateDashboard(db(), b.id);
      expect(da.stats).toEqual({ clicks: 1, signups: 1, payingCustomers: 1, pending: 300, paid: 0 });
      expect(dbb.stats).toEqual({ clicks: 2, signups: 2, payingCustomers: 2, pending: 600, paid: 1200 });
      expect(da.ledger.map((e) => e.amount)).toEqual([300]);
      expect(dbb.ledger.map((e) => e.amount).sort()).toEqual([1200, 600]);
      expect(JSON.stringify(da)).not.toContain(cb1.id);
      expect(JSON.stringify(dbb)).not.toContain(ca.email);
      expect(dbb.ledger.map((e) => e.customer).sort()).toEqual(["Customer 1", "Customer 2"]);
      expect(da.days).toHaveLength(30);
      const today = da.days.at(-1)!;
      expect(today).toMatchObject({ clicks: 1, signups: 1, commission: 300 });
    });
  });

  describe("operator role and /admin data", () => {
    it("OPERATOR_EMAILS (verified, any case) or a granted user_roles row; nothing else", async () => {
      const listed = await newUser({ email: "ops@example.com" });
      expect(await isOperator(db(), { ...listed, emailVerified: true })).toBe(true);
      expect(await isOperator(db(), { ...listed, emailVerified: false })).toBe(false);
      const plain = await newUser({ email: "plain-user@example.com" });
      expect(await isOperator(db(), { ...plain, emailVerified: true })).toBe(false);
      expect(await grantOperator(db(), "PLAIN-user@example.com")).toBe("granted");
      expect(await grantOperator(db(), "plain-user@example.com")).toBe("already");
      expect(await grantOperator(db(), "nobody@example.com")).toBe("no_user");
      expect(await isOperator(db(), { ...plain, emailVerified: true })).toBe(true);
    });

    it("no sign-up path writes user_roles, even for a listed operator email", async () => {
      await signUp("other-ops@example.com");
      await handleAffiliateAction(
        db(),
        affiliateForm({ intent: "signup", firstName: "O", lastName: "P", email: "ops2@example.com", password: "long-enough-pw" }),
        null,
      );
      const ids = [await userIdOf("other-ops@example.com"), await userIdOf("ops2@example.com")];
      for (const id of ids) expect(await db().select().from(userRoles).where(eq(userRoles.userId, id!))).toEqual([]);
    });

    it("the console lists leads, customers and affiliates with ledger totals; retry (leads module) resets a failed lead", async () => {
      await db()
        .insert(leads)
        .values([
          {
            id: "lead-ok",
            firstName: "Ok",
            email: "ok@example.com",
            phone: "1",
            source: "live-training",
            deliveryStatus: "delivered",
          },
          {
            id: "lead-failed",
            firstName: "Fail",
            lastName: "Ed",
            email: "failed@example.com",
            phone: "1",
            source: "live-training",
            deliveryStatus: "failed",
            deliveryAttempts: 5,
            lastError: "mailchimp 503",
          },
        ]);
      expect(await consoleRows(db(), "leads", { q: "lead-failed", delivery: "failed" })).toMatchObject([
        { id: "lead-failed", name: "Fail Ed", deliveryStatus: "failed", attempts: 5, lastError: "mailchimp 503" },
      ]);
      expect(await consoleRows(db(), "affiliates", { q: "iso-b" })).toMatchObject([
        { username: "iso-b", clicks: 2, signups: 2, pending: 600, paid: 1200 },
      ]);
      expect((await consoleRows(db(), "customers")).length).toBeGreaterThan(10);
      // Without a mailing list nothing can be retried; with one, only the failed lead goes back to pending.
      expect(await retryLead(db(), "lead-failed")).toBe(false);
      setMailchimpConfig({ apiKey: "k-us1", listId: "l", baseUrl: "http://127.0.0.1:9", timeoutMs: 1000 });
      try {
        expect(await retryLead(db(), "lead-ok")).toBe(false);
        expect(await retryLead(db(), "lead-failed")).toBe(true);
      } finally {
        setMailchimpConfig(undefined);
      }
      const [lead] = await db().select().from(leads).where(eq(leads.id, "lead-failed"));
      expect(lead?.deliveryStatus).toBe("pending");
    });
  });
});
