import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { isDevelopmentServer, SERVER_ENV, SERVER_NODE_FLAGS, serverProcesses } from "./processes.server";

const PG = "postgres://db/app";

describe("server processes (server.js's WEB_CONCURRENCY rule)", () => {
  it("runs WEB_CONCURRENCY processes only on PostgreSQL and outside development", () => {
    expect(serverProcesses({}, false)).toEqual({ count: 1 });
    expect(serverProcesses({ WEB_CONCURRENCY: " " }, false)).toEqual({ count: 1 });
    expect(serverProcesses({ WEB_CONCURRENCY: "3", DATABASE_URL: PG }, false)).toEqual({ count: 3 });
    expect(serverProcesses({ WEB_CONCURRENCY: "3", DATABASE_URL: PG }, true)).toEqual({ count: 1 });
    expect(serverProcesses({ WEB_CONCURRENCY: "3" }, false)).toEqual({ count: 1, ignored: 3 });
    expect(serverProcesses({ WEB_CONCURRENCY: "3", DATABASE_URL: "" }, false)).toEqual({ count: 1, ignored: 3 });
    expect(serverProcesses({ WEB_CONCURRENCY: "1" }, false)).toEqual({ count: 1 });
  });

  it("reports a value server.js refuses", () => {
    for (const bad of ["0", "65", "2.5", "two", "-1"]) {
      expect(serverProcesses({ WEB_CONCURRENCY: bad, DATABASE_URL: PG }, false)).toMatchObject({
        count: 1,
        invalid: expect.stringContaining(`"${bad}"`),
      });
    }
  });

  it("development is --dev or NODE_ENV=development", () => {
    expect(isDevelopmentServer(["node", "server.js", "--dev"], {})).toBe(true);
    expect(isDevelopmentServer(["node", "server.js"], { NODE_ENV: "development" })).toBe(true);
    expect(isDevelopmentServer(["node", "server.js"], { NODE_ENV: "production" })).toBe(false);
  });
});

describe("SERVER_NODE_FLAGS and SERVER_ENV", () => {
  // The container's command and `npm run start:prod` cannot import them: they must spell them out.
  it("are the flags and environment of every way the production server is started", () => {
    const flags = SERVER_NODE_FLAGS.join(" ");
    const environment = Object.entries(SERVER_ENV);
    const scripts = (JSON.parse(readFileSync("package.json", "utf8")) as { scripts: Record<string, string> }).scripts;
    // A value the operator's environment already holds wins, as it does for `npm start`.
    const defaults = environment.map(([name, value]) => `${name}=\${${name}:-${value}}`).join(" ");
    expect(scripts["start:prod"]).toBe(`${defaults} node ${flags} server.js`);
    const dockerfile = readFileSync("Dockerfile", "utf8");
    const command = /^CMD (\[.*\])$/m.exec(dockerfile)?.[1];
    expect(JSON.parse(command ?? "[]")).toEqual(["node", ...SERVER_NODE_FLAGS, "server.js"]);
    const runtimeEnv = /^FROM \S+ AS runtime\nENV (.*)$/m.exec(dockerfile)?.[1]?.split(" ") ?? [];
    for (const [name, value] of environment) expect(runtimeEnv).toContain(`${name}=${value}`);
    const start = readFileSync("scripts/start.js", "utf8");
    expect(start).toContain('[...SERVER_NODE_FLAGS, "server.js"]');
    expect(start).toContain("...SERVER_ENV, ...process.env");
  });
});
