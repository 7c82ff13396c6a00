import type { Db } from "./client.server";

/** A query that can be prepared: a Drizzle select, its arguments as `sql.placeholder`s. */
interface Preparable {
  prepare(name: string): unknown;
}

/**
 * A query prepared once per database handle (docs/decisions/0097). `build` makes it the first
 * time a handle asks, and it is prepared then. The server's pool is one handle for its whole life,
 * so a read that runs on every page builds its SQL once instead of on every request; a transaction
 * is a handle of its own and gets its own, dropped with it.
 *
 * Unnamed (`""`): a named statement would live in one PostgreSQL connection, and a transaction
 * pooler (PgBouncer) may run the next execution on another.
 */
export function preparedPerHandle<Q extends Preparable>(build: (db: Db) => Q): (db: Db) => ReturnType<Q["prepare"]> {
  const byHandle = new WeakMap<Db, ReturnType<Q["prepare"]>>();
  return (db) => {
    let query = byHandle.get(db);
    if (query === undefined) {
      query = build(db).prepare("") as ReturnType<Q["prepare"]>;
      byHandle.set(db, query);
    }
    return query;
  };
}
