import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadEnvFile } from "./env-file.server";

const NAMES = ["ENVFILE_TEST_SET", "ENVFILE_TEST_EMPTY", "ENVFILE_TEST_ONLY_FILE", "ENVFILE_TEST_QUOTED"];

function file(text: string): string {
  const p = path.join(mkdtempSync(path.join(tmpdir(), "env-file-")), ".env");
  writeFileSync(p, text);
  return p;
}

afterEach(() => {
  for (const name of NAMES) delete process.env[name];
});

describe("the .env file at boot", () => {
  it("adds what the environment lacks; a variable already set wins, an empty one too", () => {
    process.env.ENVFILE_TEST_SET = "from-environment";
    process.env.ENVFILE_TEST_EMPTY = "";
    const loaded = loadEnvFile(
      file(
        [
          "# a comment",
          "ENVFILE_TEST_SET=from-file",
          "ENVFILE_TEST_EMPTY=from-file",
          "ENVFILE_TEST_ONLY_FILE=from-file",
          'ENVFILE_TEST_QUOTED="a b # not a comment"',
        ].join("\n"),
      ),
    );
    expect(process.env.ENVFILE_TEST_SET).toBe("from-environment");
    expect(process.env.ENVFILE_TEST_EMPTY).toBe("");
    expect(process.env.ENVFILE_TEST_ONLY_FILE).toBe("from-file");
    expect(process.env.ENVFILE_TEST_QUOTED).toBe("a b # not a comment");
    expect(loaded?.names.sort()).toEqual(["ENVFILE_TEST_ONLY_FILE", "ENVFILE_TEST_QUOTED"]);
  });

  it("does nothing without the file", () => {
    expect(loadEnvFile(path.join(tmpdir(), "no-such-folder-for-env", ".env"))).toBeNull();
    expect(process.env.ENVFILE_TEST_ONLY_FILE).toBeUndefined();
  });
});
