import { describe, expect, it, vi } from "vitest";
import type { Db } from "./client.server";
import { preparedPerHandle } from "./prepared.server";

describe("preparedPerHandle", () => {
  it("prepares once per handle, and anew for another handle", () => {
    const pool = {} as Db;
    const transaction = {} as Db;
    const prepare = vi.fn<(db: Db) => { on: Db; prepare: (name: string) => { on: Db; name: string } }>((db) => ({
      on: db,
      prepare: (name) => ({ on: db, name }),
    }));
    const query = preparedPerHandle(prepare);
    const first = query(pool);
    expect(query(pool)).toBe(first);
    expect(first.on).toBe(pool);
    // Unnamed: a transaction pooler may run the next execution on another connection.
    expect(first.name).toBe("");
    const other = query(transaction);
    expect(other).not.toBe(first);
    expect(other.on).toBe(transaction);
    expect(query(transaction)).toBe(other);
    expect(prepare).toHaveBeenCalledTimes(2);
  });
});
