import { sql } from "drizzle-orm";
import { fromDrizzle, type PgBoss } from "pg-boss";
import type { Db } from "../db/client.server";

/**
 * Sending a job through a caller's transaction, apart from the queue's workers and handlers
 * (queue.server.ts): a module that enqueues work (mail) imports this one, never the module that
 * imports every handler, so a handler that itself enqueues mail (a capture's receipt) makes no
 * import cycle. queue.server.ts hands the started pg-boss and each queue's key here.
 */

export type Executor = Pick<Db, "execute">;

export type SendOptions = { startAfter?: Date };

let boss: PgBoss | undefined;
/** Keys of the live jobs, per queue: what sendThrough sets as the job's singletonKey. */
const keyOf = new Map<string, (data: object) => string>();

/** The running pg-boss of this process, or undefined while the queue is stopped. */
export function setJobSender(next: PgBoss | undefined) {
  boss = next;
}

/** Whether jobs can be sent from this process (its queue is running). */
export const jobSenderRunning = () => boss !== undefined;

export function setQueueKey(queue: string, key: (data: object) => string) {
  keyOf.set(queue, key);
}

/**
 * Sends a job through the caller's transaction, keyed by the row it works on; null when the queue
 * is not running in this process, or when that row already has a waiting, retrying or running job.
 */
export async function sendThrough(tx: Executor, queue: string, data: object, options: SendOptions = {}): Promise<string | null> {
  const current = boss;
  const key = keyOf.get(queue);
  if (!current || !key) return null;
  const db = fromDrizzle(tx as unknown as Parameters<typeof fromDrizzle>[0], sql);
  return current.send(queue, data, { ...options, db, singletonKey: key(data) });
}

export const MAIL_DELIVERY_QUEUE = "send-mail";

export interface MailJobData {
  outboxId: number;
}

/**
 * Queues the delivery of an outbox row through `tx` (the row and its job commit together). Null when
 * the queue is not running in this process, or when the row already has a live job.
 */
export function enqueueMailDelivery(tx: Executor, outboxId: number): Promise<string | null> {
  return sendThrough(tx, MAIL_DELIVERY_QUEUE, { outboxId } satisfies MailJobData);
}
