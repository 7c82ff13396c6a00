import { z } from "zod";

/** A host name that only this machine reaches (a fresh clone's `npm start`, the tests). */
export function isLoopbackHost(hostname: string): boolean {
  return hostname === "localhost" || hostname === "127.0.0.1" || hostname === "[::1]";
}

/**
 * A production server whose site is reached from elsewhere, as opposed to this machine's own
 * install, tests and benchmarks. An unparsable PUBLIC_SITE_URL counts as neither: its own check
 * reports it.
 */
function servesThePublic(e: { NODE_ENV: string; PUBLIC_SITE_URL?: string | undefined }): boolean {
  return (
    e.NODE_ENV === "production" &&
    e.PUBLIC_SITE_URL !== undefined &&
    URL.canParse(e.PUBLIC_SITE_URL) &&
    !isLoopbackHost(new URL(e.PUBLIC_SITE_URL).hostname)
  );
}

/** The loopback names a local install answers forms from (the browser's Origin for each). */
const LOOPBACK_HOSTS = ["localhost", "127.0.0.1", "[::1]"] as const;

/**
 * The site's address and the origins whose forms it accepts. PUBLIC_SITE_URL set: exactly its
 * origin, and links are built on it. Unset (a local install): links on http://localhost:PORT, and
 * forms from this machine's own loopback names on that port, so `PORT=4000 npm start` works as it is
 * (docs/decisions/0054-local-origins-and-env-file.md).
 */
function siteAddress(publicSiteUrl: string | undefined, port: number): { siteUrl: string; origins: string[] } {
  if (publicSiteUrl) {
    const siteUrl = publicSiteUrl.replace(/\/+$/, "");
    return { siteUrl, origins: [new URL(siteUrl).origin] };
  }
  // URL drops the scheme's default port (80), as browsers do in the Origin they send.
  const origins = LOOPBACK_HOSTS.map((host) => new URL(`http://${host}:${port}`).origin);
  return { siteUrl: origins[0]!, origins };
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * Every setting the server reads, validated once at boot. A half-configured provider is a boot
 * error with a clear message rather than a 500 at the first request that needs it.
 */
const schema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("production"),
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    HOST: z.string().min(1).default("0.0.0.0"),
    DATA_DIR: z.string().min(1).default("./data"),
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, "DATABASE_URL must start with postgres:// or postgresql://")
      .optional(),
    /**
     * A direct (not pooled) URL of the same database for the release step, `npm run db:migrate`:
     * schema changes and their lock need a session of their own, which a transaction pooler does
     * not promise. Unset: DATABASE_URL.
     */
    MIGRATION_DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, "MIGRATION_DATABASE_URL must start with postgres:// or postgresql://")
      .optional(),
    /**
     * "1" (default): each start applies pending migrations (a fresh clone's `npm start` needs nothing
     * else). "0": the release step did, and a start on a database that lacks one refuses with a message.
     */
    MIGRATE_ON_BOOT: z.enum(["0", "1"]).default("1"),
    /**
     * Connections each process keeps to PostgreSQL at most. Every worker of every instance has its
     * own pool: WEB_CONCURRENCY x instances x PG_POOL_SIZE (+ the release step's one) must stay below
     * the server's max_connections minus its reserved ones (DEPLOY.md, Scaling out).
     */
    PG_POOL_SIZE: z.coerce.number().int().min(1).max(500).default(10),
    /**
     * The address people reach the site at: links, cookies' Secure flag, and the only origin whose
     * forms are accepted. Unset: http://localhost:PORT, with forms from this machine's loopback
     * names on PORT (siteAddress).
     */
    PUBLIC_SITE_URL: z.url().optional(),
    BOOK_DEMO_URL: z.url().default("https://calendly.com/ai-automation-demo/30min"),
    WEBINAR_EMBED_URL: z.url().optional(),
    LOG_LEVEL: z.enum(["debug", "info", "warn", "error"]).default("info"),
    /**
     * Bearer token for GET /metrics (Prometheus format); unset = /metrics is off (404). Read by
     * server.js and app/server/metrics.server.js from the environment: checked here so a short one
     * is a boot error.
     */
    METRICS_TOKEN: z.string().trim().min(16, "METRICS_TOKEN must be at least 16 characters").optional(),
    /** Signs sessions and tokens. Generated once and stored in the database when unset. */
    AUTH_SECRET: z.string().min(32, "AUTH_SECRET must be at least 32 characters").optional(),
    GOOGLE_CLIENT_ID: z.string().min(1).optional(),
    GOOGLE_CLIENT_SECRET: z.string().min(1).optional(),
    /** smtp(s)://user:pass@host:port; unset = mail is kept in the local outbox (dev mailbox). */
    SMTP_URL: z
      .string()
      .regex(/^smtps?:\/\//, "SMTP_URL must start with smtp:// or smtps://")
      .optional(),
    MAIL_FROM: z.string().min(3).default("AI Automation Apps <no-reply@localhost>"),
    /** Comma-separated proxy addresses/CIDRs whose X-Forwarded-For is trusted; unset = none. */
    TRUSTED_PROXIES: z.string().optional(),
    /** Stripe: both set = the Stripe provider; neither = the built-in local test checkout. */
    STRIPE_SECRET_KEY: z.string().min(1).optional(),
    STRIPE_WEBHOOK_SECRET: z.string().min(1).optional(),
    /** Base URL of the Stripe API (tests point it at a local stand-in). */
    STRIPE_API_URL: z.url().optional(),
    /** Mailchimp: key and list together; unset = leads are only kept in the database. */
    MAILCHIMP_API_KEY: z.string().min(1).optional(),
    MAILCHIMP_LIST_ID: z.string().min(1).optional(),
    /** Base URL of the Mailchimp Marketing API; default derived from the key's data centre suffix. */
    MAILCHIMP_API_URL: z.url().optional(),
    /** Comma-separated emails that get the operator role (/admin) when they sign in. */
    OPERATOR_EMAILS: z.string().optional(),
    /** Days a commission stays pending after its sale (refunds and disputes), then it is payable. */
    AFFILIATE_HOLD_DAYS: z.coerce.number().int().min(0).max(365).default(30),
    /** The smallest net balance a payout run pays an affiliate, in cents; less is carried to the next run. */
    AFFILIATE_PAYOUT_MINIMUM_CENTS: z.coerce.number().int().min(1).max(100_000_000).default(5000),
    /** How long an anonymous page render is served from memory; 0 turns the page cache off. */
    PAGE_CACHE_SECONDS: z.coerce.number().int().min(0).max(86_400).default(60),
    /**
     * A CDN's purge endpoint, sent a POST when the catalogue changes, so the shared cache in front drops
     * the pages that show prices within seconds instead of keeping them up to 2 x PAGE_CACHE_SECONDS
     * (docs/decisions/0088-cdn-purge-on-catalogue-change.md); unset = no purge.
     */
    CDN_PURGE_URL: z.url({ protocol: /^https?$/, message: "CDN_PURGE_URL must be an http(s) URL" }).optional(),
    /** Sent with each purge as `Authorization: Bearer <token>` (a Cloudflare API token, say). */
    CDN_PURGE_TOKEN: z.string().min(1).optional(),
    /** The purge's JSON body; the default is Cloudflare's "purge everything". */
    CDN_PURGE_BODY: z.string().refine(isJson, "CDN_PURGE_BODY must be JSON").default('{"purge_everything":true}'),
    /**
     * Page and data requests (GET) worked on at once per process; more wait their turn
     * (docs/decisions/0026).
     * Default: 4 on PGlite, the connection pool's size on PostgreSQL.
     */
    REQUEST_CONCURRENCY: z.coerce.number().int().min(1).max(1000).optional(),
    /**
     * "1" lets the built-in test checkout (no real card, everything free) run on a site that is not
     * on this machine, e.g. a staging site. Without it, production on a public address needs Stripe.
     */
    LOCAL_CHECKOUT: z.enum(["0", "1"]).default("0"),
    /** "test": cheap password hashes for test servers (auth/password.server.ts); never on a public site. */
    PASSWORD_HASH_COST: z.enum(["standard", "test"]).default("standard"),
  })
  .refine((e) => Boolean(e.GOOGLE_CLIENT_ID) === Boolean(e.GOOGLE_CLIENT_SECRET), {
    message: "GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET must be set together",
    path: ["GOOGLE_CLIENT_ID"],
  })
  .refine((e) => Boolean(e.STRIPE_SECRET_KEY) === Boolean(e.STRIPE_WEBHOOK_SECRET), {
    message: "STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET must be set together",
    path: ["STRIPE_SECRET_KEY"],
  })
  // A public production site must really take payments and send mail.
  .refine((e) => !servesThePublic(e) || Boolean(e.STRIPE_SECRET_KEY) || e.LOCAL_CHECKOUT === "1", {
    message:
      "a public site needs a payment provider: set STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET " +
      "(or LOCAL_CHECKOUT=1 for a test site, whose checkout takes no real payment and gives everything away)",
    path: ["PUBLIC_SITE_URL"],
  })
  .refine((e) => !servesThePublic(e) || Boolean(e.SMTP_URL), {
    // Sign-up needs the verification mail; without SMTP it stays in the outbox, whose dev mailbox
    // only this machine can read.
    message: "a public site needs SMTP_URL: verification and password-reset mail could not leave the server",
    path: ["SMTP_URL"],
  })
  .refine((e) => e.PASSWORD_HASH_COST !== "test" || !servesThePublic(e), {
    message: "PASSWORD_HASH_COST=test makes password hashes cheap to crack: it is for test servers on this machine only",
    path: ["PASSWORD_HASH_COST"],
  })
  .refine((e) => !e.CDN_PURGE_TOKEN || Boolean(e.CDN_PURGE_URL), {
    message: "CDN_PURGE_TOKEN needs CDN_PURGE_URL, the endpoint it is sent to",
    path: ["CDN_PURGE_TOKEN"],
  })
  .refine((e) => Boolean(e.MAILCHIMP_API_KEY) === Boolean(e.MAILCHIMP_LIST_ID), {
    message: "MAILCHIMP_API_KEY and MAILCHIMP_LIST_ID must be set together",
    path: ["MAILCHIMP_API_KEY"],
  })
  .transform(({ PUBLIC_SITE_URL, ...env }) => ({
    ...env,
    PUBLIC_SITE_URL: siteAddress(PUBLIC_SITE_URL, env.PORT).siteUrl,
    /** Origins whose state-changing requests are accepted (the Origin check, Better Auth). */
    SITE_ORIGINS: siteAddress(PUBLIC_SITE_URL, env.PORT).origins,
    /** Whether PUBLIC_SITE_URL was set (false: a local install on its loopback origins). */
    SITE_URL_CONFIGURED: PUBLIC_SITE_URL !== undefined,
    WEBINAR_ORIGIN: env.WEBINAR_EMBED_URL ? new URL(env.WEBINAR_EMBED_URL).origin : undefined,
    GOOGLE_ENABLED: Boolean(env.GOOGLE_CLIENT_ID && env.GOOGLE_CLIENT_SECRET),
    STRIPE_ENABLED: Boolean(env.STRIPE_SECRET_KEY && env.STRIPE_WEBHOOK_SECRET),
    MAILCHIMP_ENABLED: Boolean(env.MAILCHIMP_API_KEY && env.MAILCHIMP_LIST_ID),
    OPERATOR_EMAIL_LIST: (env.OPERATOR_EMAILS ?? "")
      .split(",")
      .map((s) => s.trim().toLowerCase())
      .filter(Boolean),
    TRUSTED_PROXY_LIST: (env.TRUSTED_PROXIES ?? "")
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean),
  }));

export type Env = z.infer<typeof schema>;

export function parseEnv(source: Record<string, string | undefined>): Env {
  // Empty strings in .env files mean "not set", not "set to empty".
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ""));
  const result = schema.safeParse(cleaned);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join(".") || "(env)"}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join("\n")}`);
  }
  return result.data;
}

let cached: Env | undefined;

export function env(): Env {
  cached ??= parseEnv(process.env);
  return cached;
}

/** Makes the next env() read process.env again (tests that set variables, one file after another). */
export function resetEnvCache() {
  cached = undefined;
}

/** The subset the browser may see. Anything not listed here stays on the server. */
export function publicEnv(e: Env = env()) {
  return {
    BOOK_DEMO_URL: e.BOOK_DEMO_URL,
    WEBINAR_EMBED_URL: e.WEBINAR_EMBED_URL ?? null,
    WEBINAR_ORIGIN: e.WEBINAR_ORIGIN ?? null,
  };
}
