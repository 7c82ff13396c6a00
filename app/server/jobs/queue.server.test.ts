import { describe, expect, it } from "vitest";
import { leadDeliveryConcurrency } from "./queue.server";

describe("lead delivery concurrency: Mailchimp's connection budget per instance", () => {
  it("divides an instance's 5 Mailchimp connections between its server processes, at least 1 each", () => {
    expect(leadDeliveryConcurrency(1)).toBe(5);
    expect(leadDeliveryConcurrency(2)).toBe(2);
    expect(leadDeliveryConcurrency(3)).toBe(1);
    expect(leadDeliveryConcurrency(64)).toBe(1);
    // Two instances of up to 5 processes each stay within Mailchimp's 10.
    for (let processes = 1; processes <= 5; processes++) {
      expect(2 * processes * leadDeliveryConcurrency(processes)).toBeLessThanOrEqual(10);
    }
  });
});
