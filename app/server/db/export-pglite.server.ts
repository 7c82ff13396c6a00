import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { describeDatabaseUrl, openDatabase } from "./client.server";
import { LOCK_FILE, lockDataDir } from "./data-dir-lock.server";
import { setUpPostgres, type SqlRunner } from "./migrations.server";

/**
 * Moves a PGlite data folder's rows into a PostgreSQL database (`npm run db:export-pglite`,
 * DEPLOY.md "From PGlite to PostgreSQL").
 *
 * - The source is never written: the folder is copied under its lock (so no server is writing it;
 *   a live folder is refused), and the copy is opened and brought to this release's migrations.
 * - The target is migrated and filled in ONE transaction, which also holds the setup lock: any
 *   failure (a refused target, a type error, a count that differs) rolls everything back and leaves
 *   the target as it was.
 * - Every table of the `public` schema is copied, parents before children (foreign keys), each row
 *   through JSON so PostgreSQL itself converts every type on both sides; generated columns are
 *   recomputed, sequences moved past the copied ids. The job queue (`pgboss`) is not copied: what it
 *   holds is rebuilt from the rows by the sweeps at the first start (pending lead and mail
 *   deliveries, trial captures, Stripe follow-ups).
 * - A target that already holds data (anything beyond the catalogue the release step seeds) is
 *   refused unless `replace` is set, which empties those tables first (in the same transaction).
 */

/** Tables whose triggers refuse every change but an insert. */
const APPEND_ONLY_TABLES: ReadonlySet<string> = new Set(["admin_audit"]);
export interface ExportOptions {
  /** The PGlite data folder (DATA_DIR). */
  from: string;
  /** postgres:// URL of the target; a direct connection, not a transaction pooler. */
  to: string;
  /** Empty the target's tables first instead of refusing a target that holds data. */
  replace?: boolean;
  migrationsFolder?: string;
  /** Rows per INSERT. */
  batchRows?: number;
  progress?: (line: string) => void;
}

export interface ExportedTable {
  table: string;
  rows: number;
}

/** Tables whose rows a fresh release step writes by itself: they do not make a target "non-empty". */
const RELEASE_TABLES: ReadonlySet<string> = new Set(["apps", "addon_library"]);

export class TargetNotEmptyError extends Error {
  constructor(
    readonly target: string,
    readonly tables: string[],
  ) {
    super(
      `The target database ${target} already holds data (${tables.join(", ")}). Export into an empty ` +
        "database, or pass --replace to empty these tables first (in the same transaction).",
    );
    this.name = "TargetNotEmptyError";
  }
}

const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** A `regclass` as text (`"user"`, `public.x`) back to the bare table name. */
const unquote = (name: string) => name.replace(/^public\./, "").replace(/^"(.*)"$/, "$1");

export async function exportPgliteToPostgres(options: ExportOptions): Promise<ExportedTable[]> {
  const from = path.resolve(options.from);
  const migrationsFolder = options.migrationsFolder ?? path.resolve(process.cwd(), "drizzle");
  const say = options.progress ?? (() => {});
  const scratch = mkdtempSync(path.join(tmpdir(), "export-pglite-"));
  try {
    const copy = path.join(scratch, "data");
    // Under the folder's lock: no server writes it while it is copied (a live folder is refused).
    const unlock = lockDataDir(from);
    try {
      cpSync(from, copy, { recursive: true, filter: (file) => path.basename(file) !== LOCK_FILE });
    } finally {
      unlock();
    }
    say(`copied ${from} to a scratch folder`);
    const source = await openDatabase({ dataDir: copy, migrationsFolder, migrate: true });
    try {
      const read = (source.db as unknown as { $client: SqlRunner }).$client;
      const target = new pg.Client({ connectionString: options.to });
      await target.connect();
      try {
        const { result } = await setUpPostgres(target, { migrationsFolder }, (write) =>
          copyTables(read, write, { ...options, target: describeDatabaseUrl(options.to), say }),
        );
        return result ?? [];
      } finally {
        await target.end().catch(() => {});
      }
    } finally {
      await source.close();
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** The public schema's tables, parents before the tables whose foreign keys point at them. */
async function tablesInForeignKeyOrder(run: SqlRunner): Promise<string[]> {
  const tables = (
    (await run.query(`select tablename from pg_tables where schemaname = 'public' order by tablename`)).rows as {
      tablename: string;
    }[]
  ).map((r) => r.tablename);
  const edges = (
    await run.query(
      `select c.conrelid::regclass::text as child, c.confrelid::regclass::text as parent
         from pg_constraint c
         join pg_namespace n on n.oid = c.connamespace
        where c.contype = 'f' and n.nspname = 'public'`,
    )
  ).rows as { child: string; parent: string }[];
  const parents = new Map<string, Set<string>>(tables.map((t) => [t, new Set<string>()]));
  for (const { child, parent } of edges) {
    const c = unquote(child);
    const p = unquote(parent);
    // A table that points at itself is copied in one statement per batch; its rows keep their order.
    if (c !== p) parents.get(c)?.add(p);
  }
  const ordered: string[] = [];
  const placed = new Set<string>();
  while (ordered.length < tables.length) {
    const ready = tables.filter((t) => !placed.has(t) && [...parents.get(t)!].every((p) => placed.has(p)));
    if (!ready.length) {
      throw new Error(`foreign keys form a cycle among ${tables.filter((t) => !placed.has(t)).join(", ")}`);
    }
    for (const t of ready) {
      ordered.push(t);
      placed.add(t);
    }
  }
  return ordered;
}

async function copyTables(
  read: SqlRunner,
  write: SqlRunner,
  options: ExportOptions & { target: string; say: (line: string) => void },
): Promise<ExportedTable[]> {
  const tables = await tablesInForeignKeyOrder(write);
  const sourceTables = new Set(await tablesInForeignKeyOrder(read));
  const missing = tables.filter((t) => !sourceTables.has(t));
  if (missing.length) throw new Error(`the source lacks tables the target has: ${missing.join(", ")}`);

  const holding: string[] = [];
  for (const table of tables) {
    if (RELEASE_TABLES.has(table)) continue;
    const { rows } = await write.query(`select exists (select 1 from ${ident(table)}) as any`);
    if ((rows[0] as { any: boolean }).any) holding.push(table);
  }
  if (holding.length && !options.replace) throw new TargetNotEmptyError(options.target, holding);
  // The release tables are replaced by the source's rows too: the same catalogue, and the source's
  // page versions.
  // The operator audit log refuses every UPDATE, DELETE and TRUNCATE by trigger (docs/decisions/0068):
  // the target is being filled with the source's whole history, its own included, so its triggers
  // are off for this transaction's TRUNCATE only.
  const appendOnly = tables.filter((t) => APPEND_ONLY_TABLES.has(t));
  for (const table of appendOnly) await write.query(`alter table ${ident(table)} disable trigger user`);
  await write.query(`truncate ${tables.map(ident).join(", ")}`);
  for (const table of appendOnly) await write.query(`alter table ${ident(table)} enable trigger user`);

  const batch = options.batchRows ?? 500;
  const copied: ExportedTable[] = [];
  for (const table of tables) {
    const columns = (
      (
        await write.query(
          `select column_name from information_schema.columns
            where table_schema = 'public' and table_name = $1 and is_generated = 'NEVER'
            order by ordinal_position`,
          [table],
        )
      ).rows as { column_name: string }[]
    ).map((r) => ident(r.column_name));
    const list = columns.join(", ");
    let rows = 0;
    for (let offset = 0; ; offset += batch) {
      // ctid order: a stable order of the copy nobody else writes, so the batches neither skip nor repeat.
      const { rows: chunk } = await read.query(
        `select coalesce(json_agg(t), '[]')::text as rows, count(*)::int as n
           from (select * from ${ident(table)} order by ctid limit ${batch} offset ${offset}) t`,
      );
      const { rows: json, n } = chunk[0] as { rows: string; n: number };
      if (n === 0) break;
      await write.query(
        `insert into ${ident(table)} (${list}) overriding system value
         select ${list} from json_populate_recordset(null::${ident(table)}, $1::json)`,
        [json],
      );
      rows += n;
      if (n < batch) break;
    }
    const [counted] = (await write.query(`select count(*)::int as n from ${ident(table)}`)).rows as { n: number }[];
    if (counted!.n !== rows) throw new Error(`${table}: ${rows} rows read, ${counted!.n} in the target`);
    await moveSequencesPast(write, table);
    copied.push({ table, rows });
    options.say(`${table}: ${rows} rows`);
  }
  return copied;
}

/** Serial and identity columns: the next id the target hands out is past every copied one. */
async function moveSequencesPast(write: SqlRunner, table: string) {
  const { rows } = await write.query(
    `select column_name, pg_get_serial_sequence($2, column_name) as seq
       from information_schema.columns
      where table_schema = 'public' and table_name = $1`,
    [table, ident(table)],
  );
  for (const { column_name, seq } of rows as { column_name: string; seq: string | null }[]) {
    if (!seq) continue;
    await write.query(`select setval($1, coalesce((select max(${ident(column_name)}) from ${ident(table)}), 0) + 1, false)`, [
      seq,
    ]);
  }
}
