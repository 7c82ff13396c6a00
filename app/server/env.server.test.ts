import { describe, expect, it } from "vitest";
import { parseEnv, publicEnv } from "./env.server";

describe("parseEnv", () => {
  it("gives working defaults for an empty environment", () => {
    const env = parseEnv({});
    expect(env).toMatchObject({
      PORT: 3000,
      HOST: "0.0.0.0",
      DATA_DIR: "./data",
      NODE_ENV: "production",
      PUBLIC_SITE_URL: "http://localhost:3000",
    });
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.WEBINAR_ORIGIN).toBeUndefined();
  });

  it("treats empty strings as unset", () => {
    expect(parseEnv({ DATABASE_URL: "", PORT: "" }).PORT).toBe(3000);
  });

  it("derives the webinar origin and trims the site URL", () => {
    const env = parseEnv({
      WEBINAR_EMBED_URL: "https://webinar.example.com/embed/x?y=1",
      PUBLIC_SITE_URL: "https://shop.example.com/",
    });
    expect(env.WEBINAR_ORIGIN).toBe("https://webinar.example.com");
    expect(env.PUBLIC_SITE_URL).toBe("https://shop.example.com");
  });

  it("rejects bad values with a message naming the variable", () => {
    expect(() => parseEnv({ PORT: "eighty" })).toThrow(/PORT/);
    expect(() => parseEnv({ DATABASE_URL: "mysql://x" })).toThrow(/DATABASE_URL must start with postgres/);
    expect(() => parseEnv({ WEBINAR_EMBED_URL: "not a url" })).toThrow(/WEBINAR_EMBED_URL/);
  });

  it("exposes only the allow-listed values to the browser", () => {
    const pub = publicEnv(parseEnv({ DATABASE_URL: "postgres://secret@db/app" }));
    expect(Object.keys(pub).sort()).toEqual(["BOOK_DEMO_URL", "WEBINAR_EMBED_URL", "WEBINAR_ORIGIN"]);
    expect(JSON.stringify(pub)).not.toContain("secret");
  });
});
