import { DrizzleQueryError } from "drizzle-orm/errors";
import { afterEach, describe, expect, it, vi } from "vitest";
import { errorDetail, errorMessage, log } from "./log.server";
import { redirectLogLines } from "./logger.server.js";

const EMAIL = "jane.doe+lead@example.com";

const INSERT = 'insert into "leads" ("first_name", "email", "phone") values ($1, $2, $3) returning "id"';

/**
 * A failed insert as Drizzle reports it: the SQL and its parameters in the message, the driver's
 * error as cause (PGlite's, like this one, also carries the query and its parameters).
 */
function failedInsert() {
  const diskFull = Object.assign(new Error('could not extend file "base/5/16385": No space left on device'), {
    code: "53100",
    severity: "ERROR",
    detail: `Failing row contains (${EMAIL}).`,
    query: INSERT,
    params: ["Jane", EMAIL, "+15550001234"],
  });
  return new DrizzleQueryError(INSERT, ["Jane", EMAIL, "+15550001234"], diskFull);
}

/** The JSON lines written to stderr while `fn` runs. */
function stderrLines(fn: () => void): string[] {
  const lines: string[] = [];
  const restore = redirectLogLines({
    stdout: { write: () => {} },
    stderr: { write: (line: string) => lines.push(line.trimEnd()) },
  });
  try {
    fn();
  } finally {
    restore();
  }
  return lines;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("errors in log lines", () => {
  it("name a failed query's cause and its SQLSTATE, never its parameters", () => {
    const text = errorMessage(failedInsert());
    expect(text).toContain("could not extend file");
    expect(text).toContain("53100");
    expect(text).toContain('insert into "leads"');
    expect(text).not.toContain(EMAIL);
    expect(text).not.toContain("+15550001234");
    expect(text).not.toContain("params");
    expect(text.split("\n")).toHaveLength(1);
  });

  it("keep the stack but not the parameters Drizzle put in its first line", () => {
    const text = errorDetail(failedInsert());
    expect(text).toMatch(
      /^Error: Failed query \(insert into "leads"\); cause: could not extend file .* \(SQLSTATE 53100\)\n\s+at /,
    );
    expect(text).not.toContain(EMAIL);
    expect(text).not.toContain("+15550001234");
  });

  it("an error line is one JSON object that names the cause and holds no email, wherever one was put", () => {
    const lines = stderrLines(() =>
      log.error(`callback for ${EMAIL} failed`, { error: errorMessage(failedInsert()), thrown: failedInsert(), to: EMAIL }),
    );
    expect(lines).toHaveLength(1);
    const line = JSON.parse(lines[0]!) as Record<string, unknown>;
    expect(line).toMatchObject({ level: "error", msg: "callback for [email] failed", to: "[email]" });
    expect(String(line.error)).toContain("53100");
    expect(String(line.thrown)).toContain("could not extend file");
    expect(lines[0]).not.toContain("example.com");
  });

  it("say what a cause chain and a system error are, each once", () => {
    const enospc = Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC", syscall: "write" });
    const wrapped = new Error("could not store the page", { cause: enospc });
    expect(errorMessage(wrapped)).toBe("could not store the page; cause: ENOSPC: no space left on device, write");
    const empty = new AggregateError([new Error("connect ECONNREFUSED 127.0.0.1:5432")], "");
    expect(errorMessage(empty)).toBe("AggregateError; cause: connect ECONNREFUSED 127.0.0.1:5432");
  });

  it("hide the value a data exception quotes from the input", () => {
    const invalid = Object.assign(new Error(`invalid input syntax for type uuid: "${EMAIL}"`), { code: "22P02" });
    expect(errorMessage(invalid)).toBe('invalid input syntax for type uuid: "…" (SQLSTATE 22P02)');
  });

  it("never throw on what JSON cannot hold", () => {
    const circular: Record<string, unknown> = { n: 1n };
    circular.self = circular;
    const lines = stderrLines(() => log.error("odd fields", { circular, big: 2n }));
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({ level: "error", msg: "odd fields" });
  });
});
