import { log } from "../log.server";

export interface OperatorAction {
  operatorId: string;
  action: "payout-run.create" | "payout-run.confirm" | "payout-run.cancel";
  subject: string;
  detail?: Record<string, string | number | boolean | null>;
}

export async function recordOperatorAction(action: OperatorAction): Promise<void> {
  log.info("operator action", { ...action });
}
