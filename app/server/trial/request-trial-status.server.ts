import { db } from "../db/client.server";
import { getSubscriptionSummary, type SubscriptionSummary } from "../billing/subscription-summary.server";
import { getTrialStatus, type TrialStatus } from "./trial.server";

export interface RequestTrialStatus extends TrialStatus {
  /** The clock the status was derived at: the page shows times against the same instant. */
  now: Date;
}

interface Read {
  userId: string;
  now: Date;
  pending: Promise<RequestTrialStatus>;
}

/**
 * One read of the trial and the entitlements per request: a document request runs the dashboard
 * layout's loader (the gate) and the page's loader on the same Request object, and both need the
 * same account state. Loaders that run after an action get a new Request, so what the action wrote
 * is read again. Nothing outlives the request: this is not a cache of anyone's data.
 */
const readOfRequest = new WeakMap<Request, Read>();

function readOf(request: Request, userId: string): Read {
  const known = readOfRequest.get(request);
  if (known && known.userId === userId) return known;
  const now = new Date();
  const pending = getTrialStatus(db(), userId, now).then((status) => ({ ...status, now }));
  const read = { userId, now, pending };
  readOfRequest.set(request, read);
  // A failed read is not remembered: the next caller asks the database again.
  pending.catch(() => {
    if (readOfRequest.get(request) === read) readOfRequest.delete(request);
  });
  return read;
}

/** The dashboard gate's trial status and entitlements for `userId`, read once per request. */
export function trialStatusOfRequest(request: Request, userId: string): Promise<RequestTrialStatus> {
  return readOf(request, userId).pending;
}

/** The billing and scaling pages' subscription summary, from this request's one read of the entitlements. */
export function subscriptionSummaryOfRequest(request: Request, userId: string): Promise<SubscriptionSummary> {
  const { now, pending } = readOf(request, userId);
  return getSubscriptionSummary(
    db(),
    userId,
    now,
    pending.then((s) => s.entitlements),
  );
}
