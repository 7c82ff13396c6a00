import { describe, expect, it } from "vitest";
import { checkPosition, moved, movedMessage, shiftOf } from "./position";

describe("checkPosition", () => {
  it("takes a whole number from 1 to the count", () => {
    expect(checkPosition("1", 181)).toEqual({ ok: true, position: 1 });
    expect(checkPosition(" 181 ", 181)).toEqual({ ok: true, position: 181 });
    expect(checkPosition("007", 181)).toEqual({ ok: true, position: 7 });
  });

  it("refuses anything else with the field's message", () => {
    expect(checkPosition("", 181)).toEqual({ ok: false, message: "Enter a position from 1 to 181." });
    expect(checkPosition(undefined, 181)).toEqual({ ok: false, message: "Enter a position from 1 to 181." });
    for (const bad of ["1.5", "-1", "abc", "1e3", "9999999999", "١"])
      expect(checkPosition(bad, 181)).toEqual({ ok: false, message: "The position is a whole number from 1 to 181." });
    for (const bad of ["0", "182"])
      expect(checkPosition(bad, 181)).toEqual({ ok: false, message: "The position is from 1 to 181." });
    expect(checkPosition("5", 1200)).toEqual({ ok: true, position: 5 });
    expect(checkPosition("0", 1200)).toMatchObject({ message: "The position is from 1 to 1,200." });
  });
});

describe("shiftOf", () => {
  it("moving down pulls the rows between up; moving up pushes them down", () => {
    expect(shiftOf(2, 5)).toEqual({ first: 3, last: 5, by: -1 });
    expect(shiftOf(5, 2)).toEqual({ first: 2, last: 4, by: 1 });
    expect(shiftOf(3, 3)).toBeNull();
  });

  it("applied to 1..n it gives the order of `moved`, unique and dense (every move of up to 12 rows)", () => {
    for (let n = 1; n <= 12; n++) {
      const positions = Array.from({ length: n }, (_, i) => i + 1);
      for (const from of positions)
        for (const to of positions) {
          const shift = shiftOf(from, to);
          // The row at position p ends at after[p - 1].
          const after = positions.map((p) => (p === from ? to : shift && p >= shift.first && p <= shift.last ? p + shift.by : p));
          expect([...after].sort((a, b) => a - b)).toEqual(positions);
          const order = positions.map((_, i) => after.indexOf(i + 1) + 1);
          expect(order).toEqual(moved(positions, from, to));
        }
    }
  });
});

describe("movedMessage", () => {
  it("says where the row went, or that nothing changed", () => {
    expect(movedMessage(12, 3, 181)).toBe("Moved from position 12 to 3 of 181.");
    expect(movedMessage(3, 3, 1200)).toBe("Already at position 3 of 1,200; nothing changed.");
  });
});
