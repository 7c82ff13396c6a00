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
    expect(env.CDN_PURGE_URL).toBeUndefined();
    expect(JSON.parse(env.CDN_PURGE_BODY)).toEqual({ purge_everything: true });
  });

  it("without PUBLIC_SITE_URL, builds links on the port it listens on and accepts this machine's loopback origins there", () => {
    const env = parseEnv({ PORT: "4000" });
    expect(env.PUBLIC_SITE_URL).toBe("http://localhost:4000");
    expect(env.SITE_URL_CONFIGURED).toBe(false);
    expect(env.SITE_ORIGINS).toEqual(["http://localhost:4000", "http://127.0.0.1:4000", "http://[::1]:4000"]);
    // An empty value is unset, as everywhere else.
    expect(parseEnv({ PORT: "4000", PUBLIC_SITE_URL: "" }).SITE_ORIGINS).toContain("http://127.0.0.1:4000");
    // Port 80 is the scheme's own: browsers leave it out of the Origin they send.
    expect(parseEnv({ PORT: "80" }).SITE_ORIGINS).toEqual(["http://localhost", "http://127.0.0.1", "http://[::1]"]);
  });

  it("with PUBLIC_SITE_URL, accepts exactly its origin, whatever the port", () => {
    const env = parseEnv({ PORT: "4000", PUBLIC_SITE_URL: "http://localhost:3000/" });
    expect(env.PUBLIC_SITE_URL).toBe("http://localhost:3000");
    expect(env.SITE_URL_CONFIGURED).toBe(true);
    expect(env.SITE_ORIGINS).toEqual(["http://localhost:3000"]);
    const site = parseEnv({ PUBLIC_SITE_URL: "https://shop.example.com/app/", LOCAL_CHECKOUT: "1", SMTP_URL: "smtp://m:25" });
    expect(site.SITE_ORIGINS).toEqual(["https://shop.example.com"]);
  });

  it("treats empty strings as unset", () => {
    expect(parseEnv({ DATABASE_URL: "", PORT: "" }).PORT).toBe(3000);
  });

  it("derives the webinar origin and trims the site URL", () => {
    const env = parseEnv({
      WEBINAR_EMBED_URL: "https://webinar.example.com/embed/x?y=1",
      PUBLIC_SITE_URL: "https://shop.example.com/",
      LOCAL_CHECKOUT: "1",
      SMTP_URL: "smtp://mail.example.com:587",
    });
    expect(env.WEBINAR_ORIGIN).toBe("https://webinar.example.com");
    expect(env.PUBLIC_SITE_URL).toBe("https://shop.example.com");
  });

  it("rejects bad values with a message naming the variable", () => {
    expect(() => parseEnv({ PORT: "eighty" })).toThrow(/PORT/);
    expect(() => parseEnv({ DATABASE_URL: "mysql://x" })).toThrow(/DATABASE_URL must start with postgres/);
    expect(() => parseEnv({ WEBINAR_EMBED_URL: "not a url" })).toThrow(/WEBINAR_EMBED_URL/);
    expect(() => parseEnv({ CDN_PURGE_URL: "ftp://cdn.example.com/purge" })).toThrow(/CDN_PURGE_URL must be an http\(s\) URL/);
    expect(() => parseEnv({ CDN_PURGE_TOKEN: "secret" })).toThrow(/CDN_PURGE_TOKEN needs CDN_PURGE_URL/);
    expect(() => parseEnv({ CDN_PURGE_URL: "https://cdn.example.com/purge", CDN_PURGE_BODY: "{files:" })).toThrow(
      /CDN_PURGE_BODY must be JSON/,
    );
  });

  it("names an unparsable site URL as the problem", () => {
    expect(() => parseEnv({ PUBLIC_SITE_URL: "shop.example.com" })).toThrow(/^Invalid configuration:\n {2}PUBLIC_SITE_URL: /);
  });

  it("refuses to run a public production site without mail", () => {
    const site = { PUBLIC_SITE_URL: "https://shop.example.com", LOCAL_CHECKOUT: "1" };
    expect(() => parseEnv(site)).toThrow(/SMTP_URL: a public site needs SMTP_URL/);
    expect(parseEnv({ ...site, SMTP_URL: "smtps://u:p@mail.example.com:465" }).SMTP_URL).toBeTruthy();
    expect(parseEnv({ PUBLIC_SITE_URL: "http://localhost:3000" }).SMTP_URL).toBeUndefined();
  });

  it("allows test-strength password hashes on this machine only", () => {
    const site = { PUBLIC_SITE_URL: "https://shop.example.com", SMTP_URL: "smtp://mail.example.com:587", LOCAL_CHECKOUT: "1" };
    expect(parseEnv(site).PASSWORD_HASH_COST).toBe("standard");
    expect(() => parseEnv({ ...site, PASSWORD_HASH_COST: "test" })).toThrow(/PASSWORD_HASH_COST: .*test servers/);
    expect(parseEnv({ PUBLIC_SITE_URL: "http://localhost:3107", PASSWORD_HASH_COST: "test" }).PASSWORD_HASH_COST).toBe("test");
    expect(() => parseEnv({ PASSWORD_HASH_COST: "cheap" })).toThrow(/PASSWORD_HASH_COST/);
  });

  it("refuses to run a public production site on the free test checkout unless told to", () => {
    const site = { PUBLIC_SITE_URL: "https://shop.example.com", SMTP_URL: "smtp://mail.example.com:587" };
    expect(() => parseEnv(site)).toThrow(/PUBLIC_SITE_URL: a public site needs a payment provider/);
    expect(parseEnv({ ...site, STRIPE_SECRET_KEY: "sk_test_x", STRIPE_WEBHOOK_SECRET: "whsec_x" }).STRIPE_ENABLED).toBe(true);
    expect(parseEnv({ ...site, LOCAL_CHECKOUT: "1" }).STRIPE_ENABLED).toBe(false);
    expect(parseEnv({ ...site, NODE_ENV: "development" }).STRIPE_ENABLED).toBe(false);
    // This machine only: a fresh clone's `npm start`, the tests.
    for (const local of ["http://localhost:3000", "http://127.0.0.1:8080", "http://[::1]:3000"]) {
      expect(parseEnv({ PUBLIC_SITE_URL: local }).STRIPE_ENABLED).toBe(false);
    }
    expect(() => parseEnv({ ...site, LOCAL_CHECKOUT: "yes" })).toThrow(/LOCAL_CHECKOUT/);
  });

  it("exposes only the allow-listed values to the browser", () => {
    const pub = publicEnv(parseEnv({ DATABASE_URL: "postgres://secret@db/app" }));
    expect(Object.keys(pub).sort()).toEqual(["BOOK_DEMO_URL", "WEBINAR_EMBED_URL", "WEBINAR_ORIGIN"]);
    expect(JSON.stringify(pub)).not.toContain("secret");
  });
});
