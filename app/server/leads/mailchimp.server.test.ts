import { describe, expect, it } from "vitest";
import { memberBody } from "./mailchimp.server";

const lead = {
  email: "ana@example.com",
  firstName: "Ana",
  lastName: "Lima",
  phone: "+1 555 0100",
  company: "",
  timeframe: "",
  preferredTime: "",
  message: "",
  budget: "",
  projectType: "",
};

describe("the Mailchimp member of a lead", () => {
  it("is subscribed only with marketing consent, with the time of opt-in", () => {
    const at = new Date("2026-11-26T10:00:00Z");
    expect(memberBody({ ...lead, marketingConsent: true, marketingConsentAt: at })).toMatchObject({
      email_address: "ana@example.com",
      status: "subscribed",
      status_if_new: "subscribed",
      timestamp_opt: "2026-11-26T10:00:00.000Z",
    });
  });

  it("without consent is added as transactional, and an existing member's status is left alone", () => {
    const body = memberBody({ ...lead, marketingConsent: false, marketingConsentAt: null });
    expect(body.status_if_new).toBe("transactional");
    expect(body).not.toHaveProperty("status");
    expect(body).not.toHaveProperty("timestamp_opt");
  });
});
