import { describe, expect, it } from "vitest";
import { BUDGETS, missingCallbackFields, PREFERRED_TIMES, PROJECT_TYPES, TIMEFRAMES } from "./callback";

describe("callback option lists", () => {
  it("match the spec exactly", () => {
    expect(PROJECT_TYPES).toEqual([
      "Web Application",
      "Mobile App",
      "E-commerce Platform",
      "Business Management System",
      "AI-Powered Solution",
      "Custom Integration",
      "Other",
    ]);
    expect(BUDGETS).toEqual([
      "$5,000 - $10,000",
      "$10,000 - $25,000",
      "$25,000 - $50,000",
      "$50,000 - $100,000",
      "$100,000+",
      "Let's discuss",
    ]);
    expect(TIMEFRAMES).toEqual(["ASAP", "Within 1 month", "1-3 months", "3-6 months", "6+ months", "Just exploring"]);
    expect(PREFERRED_TIMES).toEqual(["Morning (9AM-12PM)", "Afternoon (12PM-5PM)", "Evening (5PM-8PM)", "Any time"]);
  });
});

describe("missingCallbackFields", () => {
  it("requires firstName, email and phone only", () => {
    expect(missingCallbackFields({})).toEqual(["firstName", "email", "phone"]);
    expect(missingCallbackFields({ firstName: "Ana", email: "ana@example.com", phone: "+1 555 0100" })).toEqual([]);
  });
  it("treats whitespace as empty", () => {
    expect(missingCallbackFields({ firstName: "  ", email: "a@b.co", phone: "\t" })).toEqual(["firstName", "phone"]);
  });
});
