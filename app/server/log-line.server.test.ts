import { EventEmitter } from "node:events";
import { describe, expect, it } from "vitest";
import { keepOutputJsonLines, logLine } from "./log-line.server.js";

/** A console whose methods record what they were given, per method. */
function recordingConsole() {
  const written: Record<string, string[]> = { error: [], warn: [], log: [], info: [], debug: [] };
  const target = Object.fromEntries(
    Object.keys(written).map((name) => [name, (...args: unknown[]) => void written[name]!.push(args.map(String).join(" "))]),
  ) as unknown as Pick<Console, "error" | "warn" | "log" | "info" | "debug">;
  return { target, written };
}

describe("keepOutputJsonLines", () => {
  it("turns what libraries print into one JSON line each, on the same stream, and leaves the loggers' lines alone", () => {
    const { target, written } = recordingConsole();
    keepOutputJsonLines(target, new EventEmitter() as unknown as NodeJS.Process);
    const own = logLine("info", "listening", { port: 1 });
    target.log(own);
    target.error("Error: render failed\n    at Component (app.js:1:1)", new TypeError("boom for ada@example.com"));
    target.warn("No routes matched location %s", "/x?email=ada@example.com");
    target.debug();

    expect(written.log).toEqual([own]);
    for (const line of [...written.error!, ...written.warn!, ...written.debug!]) expect(line.split("\n")).toHaveLength(1);
    expect(JSON.parse(written.error![0]!)).toMatchObject({
      level: "error",
      msg: "Error: render failed\n    at Component (app.js:1:1)",
      error: expect.stringMatching(/^TypeError: boom for \[email\]\n\s+at /),
    });
    expect(JSON.parse(written.warn![0]!)).toMatchObject({ level: "warn", msg: "No routes matched location /x?email=[email]" });
    expect(JSON.parse(written.debug![0]!)).toMatchObject({ level: "debug", msg: "console.debug" });
  });

  it("logs Node's warnings as JSON lines instead of its multi-line default", () => {
    const { target, written } = recordingConsole();
    const proc = new EventEmitter();
    let defaultPrinted = 0;
    proc.on("warning", () => defaultPrinted++);
    keepOutputJsonLines(target, proc as unknown as NodeJS.Process);
    const warning = Object.assign(new Error("Possible EventEmitter memory leak detected"), {
      name: "MaxListenersExceededWarning",
    });
    proc.emit("warning", warning);
    expect(defaultPrinted).toBe(0);
    expect(written.warn!.map((line) => JSON.parse(line) as unknown)).toEqual([
      expect.objectContaining({
        level: "warn",
        msg: "Possible EventEmitter memory leak detected",
        warning: "MaxListenersExceededWarning",
      }),
    ]);
  });
});
