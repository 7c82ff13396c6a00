import { describe, expect, it } from "vitest";
import { isDevelopmentServer, serverProcesses } from "./processes.server";

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
