import { describe, expect, it } from "vitest";
import { noControlChars, stripControlChars } from "./text";

describe("noControlChars", () => {
  it("accepts ordinary text, tabs, line breaks, accents, emoji and markup", () => {
    for (const ok of ["Ada Lovelace", "line one\nline two\r\n\tindented", "Zoë Ünal", "😀 ok", "<b>' OR 1=1</b>", ""]) {
      expect(noControlChars(ok)).toBe(true);
    }
  });
  it("refuses NUL, other C0 controls and DEL", () => {
    for (const bad of [
      "abc\u0000def",
      "\u0001",
      "bell\u0007",
      "esc\u001b[31m",
      "del\u007f",
      "lone \ud800 high",
      "lone \udc00 low",
      "end \ud83d",
    ]) {
      expect(noControlChars(bad)).toBe(false);
    }
  });
});

describe("stripControlChars", () => {
  it("turns control characters into spaces and keeps everything else", () => {
    expect(stripControlChars("abc\u0000def\u007f")).toBe("abc def ");
    expect(stripControlChars("Zoë 😀 <b>")).toBe("Zoë 😀 <b>");
  });
});
