import type { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import type { Db } from "./client.server";

/**
 * Which writes change what a signed-in page shows (ADR 0017, session 16). Every table of the
 * database is listed here, and migration 0011 puts a `page_version` trigger on each that is not
 * exempt; tests/integration/page-versions.test.ts fails when a table is added without a line here
 * and a trigger, or when a column holding a user's id is not among its table's owners.
 *
 * - `owners`: the columns holding the ids of the users whose pages show the row: a write bumps
 *   their `page_data_versions` row when it commits.
 * - `everyone`: data no user owns (the catalogue, shared settings): a write bumps the version every
 *   signed-in page's key includes.
 * - `exempt`: no signed-in page reads it; the reason says why it stays out (written on hot paths
 *   that would otherwise make every stored page miss).
 */
export type PageVersionRule = { owners: readonly string[] } | { everyone: true } | { exempt: string };

export const PAGE_VERSION_RULES: Readonly<Record<string, PageVersionRule>> = {
  user: { owners: ["id"] },
  session: { owners: ["user_id"] },
  account: { owners: ["user_id"] },
  trial_access: { owners: ["user_id"] },
  user_profiles: { owners: ["user_id"] },
  user_subscriptions: { owners: ["user_id"] },
  onboarding_progress: { owners: ["user_id"] },
  support_tickets: { owners: ["user_id"] },
  // Visits excepted (the trigger's WHEN): only /dashboard/analytics shows them, and it is never stored.
  activity_events: { owners: ["user_id"] },
  user_settings: { owners: ["user_id"] },
  orders: { owners: ["user_id"] },
  affiliates: { owners: ["user_id"] },
  referral_clicks: { owners: ["affiliate_user_id"] },
  referrals: { owners: ["referred_user_id", "affiliate_user_id"] },
  commission_ledger: { owners: ["affiliate_user_id"] },
  user_roles: { owners: ["user_id"] },
  user_addons: { owners: ["user_id"] },
  payment_events: { owners: ["user_id"] },
  payment_disputes: { owners: ["user_id"] },
  billing_customers: { owners: ["user_id"] },
  leads: { owners: ["user_id"] },
  apps: { everyone: true },
  addon_library: { everyone: true },
  app_settings: { everyone: true },
  verification: { exempt: "Better Auth's one-time tokens (email verification, password reset)" },
  rate_limit: { exempt: "Better Auth's request counters, written by every auth call" },
  auth_failures: { exempt: "the sign-in throttle's record of failed attempts" },
  device_cookie_epochs: { exempt: "the sign-in throttle's device-cookie epochs" },
  mail_outbox: { exempt: "the outgoing mail queue; pages show no mail" },
  stripe_events: { exempt: "the webhook deduplication record; what an event changes is written to orders and subscriptions" },
  limit_counters: {
    exempt: "the request limits' counters (checkout, tickets, visits, leads...), written by every limited request",
  },
  page_data_versions: { exempt: "the versions themselves" },
};

/** Paths under /dashboard whose pages show what no trigger versions (the visits): never stored. */
export const UNVERSIONED_DASHBOARD_PATHS: ReadonlySet<string> = new Set(["/dashboard/analytics"]);

export interface SignedInPageVersion {
  userId: string;
  /** The user's version and everyone's, as one string for the cache key. */
  version: string;
}

/**
 * The session's user and the version of what their pages show, in one statement: null when the
 * token names no session, an expired one, or one Better Auth would extend on this request (older
 * than `updateAge`: it sets a new cookie, so React Router must answer). `freshForSeconds` is
 * expiresIn - updateAge; the margin of days also makes clock skew between here and the database
 * irrelevant.
 */
export async function signedInPageVersion(db: Db, token: string, freshForSeconds: number): Promise<SignedInPageVersion | null> {
  const client = (db as unknown as { $client: unknown }).$client;
  // Every dashboard hit runs this, so it runs as a prepared statement, parsed and planned once per
  // connection: on PostgreSQL a named statement (a fifth of the database's CPU per hit), on PGlite
  // (whose query() cannot name one) PREPARE once and EXECUTE (0.10 ms a lookup against 0.47).
  if (client instanceof pg.Pool) {
    const result = await client.query<SignedInPageVersion>({
      name: "signed_in_page_version",
      text: SIGNED_IN_PAGE_VERSION,
      values: [token, freshForSeconds],
    });
    return result.rows[0] ?? null;
  }
  // EXECUTE takes no bind parameters: the values are written into it, so only a token of Better
  // Auth's alphabet and a whole number are accepted (anything else is no session here).
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(token) || !Number.isSafeInteger(freshForSeconds)) return null;
  const pglite = client as PGlite;
  const execute = () => pglite.query<SignedInPageVersion>(`EXECUTE signed_in_page_version('${token}', ${freshForSeconds})`);
  if (!prepared.has(pglite)) {
    await pglite.exec(`PREPARE signed_in_page_version(text, float8) AS ${SIGNED_IN_PAGE_VERSION}`).catch((error: unknown) => {
      // Prepared already (by a lookup that ran meanwhile): keep it.
      if (!/already exists/.test(String(error))) throw error;
    });
    prepared.add(pglite);
  }
  return (await execute()).rows[0] ?? null;
}

/** PGlite databases whose one session holds the prepared lookup. */
const prepared = new WeakSet<PGlite>();

const SIGNED_IN_PAGE_VERSION = `
  select s.user_id as "userId", coalesce(v.version, 0) || '.' || coalesce(e.version, 0) as "version"
  from "session" s
  join "user" u on u.id = s.user_id
  left join page_data_versions v on v.owner = s.user_id
  left join page_data_versions e on e.owner = ''
  where s.token = $1 and s.expires_at > now() + make_interval(secs => $2)`;
