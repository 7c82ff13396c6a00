// Loaded before every integration test file, after pg-worker.ts (vitest.config.ts). The project runs
// with isolate: false, so a worker keeps the modules it imported from one file to the next, and with
// them whatever state a file left behind: settings it put in process.env, the env() cache and the
// logger made from them, overrides it installed, its database and auth instance (and a process that
// serves many files keeps globals, stubs and timers too). This puts back, before each file,
// what a fresh module graph in a fresh worker gave it. A module whose state a test can change gets
// a reset here; a new one needs its line too.
import { vi } from "vitest";
import { resetClickLimits } from "~/server/affiliates/referral.server";
import { resetAuth } from "~/server/auth/auth.server";
import { setCheckoutProvider } from "~/server/billing/provider.server";
import { forgetCataloguePrices } from "~/server/billing/stripe/catalogue-prices.server";
import { resetStripeClient } from "~/server/billing/stripe/client.server";
import { setDatabase } from "~/server/db/client.server";
import { resetEnvCache } from "~/server/env.server";
import { resetLogger } from "~/server/logger.server.js";
import { stopJobs } from "~/server/jobs/queue.server";
import { setMailchimpConfig } from "~/server/leads/mailchimp.server";
import { setMailTransport } from "~/server/mail/delivery.server";

// This file runs again before each file, but globalThis lives as long as the worker: the environment
// is kept there as the worker's first file found it (with pg-worker.ts's database already set).
const WORKER_ENV = Symbol.for("integration.workerEnv");
const worker = globalThis as { [WORKER_ENV]?: Readonly<Record<string, string | undefined>> };
const initial = (worker[WORKER_ENV] ??= { ...process.env });

// Vitest's own variables (VITEST_WORKER_ID changes from one run request to the next) stay as Vitest set them.
const restored = (key: string) => !key.startsWith("VITEST_");

// Stubs first: unstubbing after the restore would write back values from before it.
vi.unstubAllEnvs();
vi.unstubAllGlobals();
vi.restoreAllMocks();
vi.useRealTimers();

for (const key of Object.keys(process.env)) if (restored(key) && !(key in initial)) delete process.env[key];
for (const [key, value] of Object.entries(initial)) if (restored(key) && value !== undefined) process.env[key] = value;

resetEnvCache();
resetLogger();
resetStripeClient();
forgetCataloguePrices();
setCheckoutProvider(undefined);
setMailchimpConfig(undefined);
setMailTransport(undefined);
resetClickLimits();
resetAuth();
setDatabase(undefined);
// Files stop the queue they start (afterAll); one that failed before it did must not leave its
// workers polling a closed database while the next file runs. Nothing is running otherwise.
await stopJobs().catch((error: unknown) => console.warn("a previous file's job queue did not stop cleanly:", error));
