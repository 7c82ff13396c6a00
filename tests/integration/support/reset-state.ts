// Loaded before every integration test file, after pg-worker.ts (vitest.config.ts). The project runs
// with isolate: false, so a worker keeps the modules it imported from one file to the next, and with
// them whatever state a file left behind: settings it put in process.env, the env() cache and the
// logger made from them, overrides it installed, its database and auth instance (and a process that
// serves many files keeps globals, stubs and timers too). This puts back, before each file,
// what a fresh module graph in a fresh worker gave it. A module whose state a test can change gets
// a reset here; a new one needs its line too.
import { resetClickLimits } from "~/server/affiliates/referral.server";
import { resetAuth } from "~/server/auth/auth.server";
import { setCheckoutProvider } from "~/server/billing/provider.server";
import { forgetCataloguePrices } from "~/server/billing/stripe/catalogue-prices.server";
import { resetStripeClient } from "~/server/billing/stripe/client.server";
import { setDatabase } from "~/server/db/client.server";
import { stopJobs } from "~/server/jobs/queue.server";
import { setMailchimpConfig } from "~/server/leads/mailchimp.server";
import { setMailTransport } from "~/server/mail/delivery.server";
import { resetProcess } from "../../support/reset-process";

// With pg-worker.ts's database already set in the environment the worker's first file found.
resetProcess("integration.workerEnv");
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
