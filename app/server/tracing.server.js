// OpenTelemetry tracing, off by default (docs/observability.md). The standard variables switch it on:
// OTEL_EXPORTER_OTLP_ENDPOINT (or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, or OTEL_TRACES_EXPORTER), unless
// OTEL_SDK_DISABLED=true. The SDK reads every other OTEL_* variable itself (service name, sampler,
// headers, protocol). Its packages are optionalDependencies, loaded here only when asked for, so a
// default start pays nothing and the production image, installed with --omit=optional, stays small.

/**
 * Whether the environment asks for traces.
 * @param {NodeJS.ProcessEnv} env
 */
export function tracingRequested(env) {
  if ((env.OTEL_SDK_DISABLED ?? "").trim().toLowerCase() === "true") return false;
  const exporter = (env.OTEL_TRACES_EXPORTER ?? "").trim().toLowerCase();
  if (exporter === "none") return false;
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim() || exporter);
}

/**
 * Starts the OpenTelemetry Node SDK with spans for incoming and outgoing HTTP (node:http, fetch),
 * Express and PostgreSQL (pg); Better Auth emits its own spans through @opentelemetry/api. A missing
 * SDK (an install without optional dependencies) is one warning, not a failed start.
 * @param {import("pino").Logger} log
 * @returns {Promise<(() => Promise<void>) | null>} what sends the spans still buffered and stops, or null when off
 */
export async function startTracing(log) {
  let modules;
  try {
    modules = await Promise.all([
      import("@opentelemetry/sdk-node"),
      import("@opentelemetry/instrumentation-http"),
      import("@opentelemetry/instrumentation-express"),
      import("@opentelemetry/instrumentation-pg"),
      import("@opentelemetry/instrumentation-undici"),
    ]);
  } catch (error) {
    log.warn(
      { error: error instanceof Error ? error.message : String(error) },
      "OTEL_* asks for tracing but the OpenTelemetry packages are not installed (install without --omit=optional): tracing is off",
    );
    return null;
  }
  const [{ NodeSDK }, { HttpInstrumentation }, { ExpressInstrumentation }, { PgInstrumentation }, { UndiciInstrumentation }] =
    modules;
  const sdk = new NodeSDK({
    instrumentations: [
      // Probes and static files are not worth a trace each.
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (req) => req.url === "/healthz" || req.url === "/metrics" || !!req.url?.startsWith("/assets/"),
      }),
      new ExpressInstrumentation(),
      new PgInstrumentation(),
      new UndiciInstrumentation(),
    ],
  });
  sdk.start();
  log.info({ endpoint: process.env.OTEL_EXPORTER_OTLP_ENDPOINT ?? process.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT }, "tracing on");
  return () => sdk.shutdown().catch(() => {});
}
