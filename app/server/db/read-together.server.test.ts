import { PgTransaction } from "drizzle-orm/pg-core";
import { describe, expect, it } from "vitest";
import type { Db } from "./client.server";
import { readTogether } from "./read-together.server";

/** A query that starts when awaited (as Drizzle's do), logging when it starts and ends. */
function query(name: string, log: string[], value: number): PromiseLike<number> {
  return {
    // oxlint-disable-next-line unicorn/no-thenable -- the stand-in for a Drizzle query, which is a thenable
    then(resolve, reject) {
      log.push(`start ${name}`);
      return new Promise<number>((done) => setTimeout(() => done(value), 5))
        .then((v) => {
          log.push(`end ${name}`);
          return v;
        })
        .then(resolve, reject);
    },
  };
}

describe("readTogether", () => {
  it("starts every read at once on the pool", async () => {
    const log: string[] = [];
    expect(await readTogether({} as Db, [query("a", log, 1), query("b", log, 2)])).toEqual([1, 2]);
    expect(log.slice(0, 2)).toEqual(["start a", "start b"]);
  });

  it("runs them one after another inside a transaction, whose one connection takes one query at a time", async () => {
    const log: string[] = [];
    const tx = Object.create(PgTransaction.prototype) as Db;
    expect(await readTogether(tx, [query("a", log, 1), query("b", log, 2)])).toEqual([1, 2]);
    expect(log).toEqual(["start a", "end a", "start b", "end b"]);
  });
});
