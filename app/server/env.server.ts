import { z } from "zod";

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
    PUBLIC_SITE_URL: z.url().default("http://localhost:3000"),
    BOOK_DEMO_URL: z.url().default("https://calendly.com/ai-automation-demo/30min"),
    WEBINAR_EMBED_URL: z.url().optional(),
    LOG_LEVEL: z.enum(["debug", "info", "warn", "error"]).default("info"),
  })
  .transform((env) => ({
    ...env,
    PUBLIC_SITE_URL: env.PUBLIC_SITE_URL.replace(/\/+$/, ""),
    WEBINAR_ORIGIN: env.WEBINAR_EMBED_URL ? new URL(env.WEBINAR_EMBED_URL).origin : undefined,
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

/** The subset the browser may see. Anything not listed here stays on the server. */
export function publicEnv(e: Env = env()) {
  return {
    BOOK_DEMO_URL: e.BOOK_DEMO_URL,
    WEBINAR_EMBED_URL: e.WEBINAR_EMBED_URL ?? null,
    WEBINAR_ORIGIN: e.WEBINAR_ORIGIN ?? null,
  };
}
export type PublicEnv = ReturnType<typeof publicEnv>;
