import type { Db } from "./client.server";

/**
 * A query prepared once per database handle (docs/decisions/0097). `prepare` builds it the first
 * time a handle asks: a Drizzle query whose arguments are `sql.placeholder`s, ending in
 * `.prepare("")`. The server's pool is one handle for its whole life, so a read that runs on every
 * page builds its SQL once instead of on every request; a transaction is a handle of its own and
 * gets its own, dropped with it.
 *
 * Unnamed (`""`): a named statement would live in one PostgreSQL connection, and a transaction
 * pooler (PgBouncer) may run the next execution on another.
 */
export function preparedPerHandle<Q>(prepare: (db: Db) => Q): (db: Db) => Q {
  const byHandle = new WeakMap<Db, Q>();
  return (db) => {
    let query = byHandle.get(db);
    if (query === undefined) {
      query = prepare(db);
      byHandle.set(db, query);
    }
    return query;
  };
}
