import { buildCharged } from "./build-charged";
import { callbackAcknowledgement } from "./callback-acknowledgement";
import { chargeComing } from "./charge-coming";
import { commissionEarned } from "./commission-earned";
import { distributorWelcome } from "./distributor-welcome";
import { existingAccount } from "./existing-account";
import { newLeadAlert } from "./new-lead-alert";
import { operatorNotice } from "./operator-notice";
import { passwordReset } from "./password-reset";
import { paymentFailed } from "./payment-failed";
import { paymentReceipt } from "./payment-receipt";
import { payoutSent } from "./payout-sent";
import { refundIssued } from "./refund-issued";
import { subscriptionCancelled } from "./subscription-cancelled";
import { subscriptionTrialEnding } from "./subscription-trial-ending";
import { supportAnswer } from "./support-answer";
import { trialEnding } from "./trial-ending";
import { trialStarted } from "./trial-started";
import { verification } from "./verification";
import { welcome } from "./welcome";

/** Every transactional email by kind (the `kind` column of mail_outbox). */
export const EMAILS = {
  verification,
  passwordReset,
  existingAccount,
  welcome,
  trialStarted,
  trialEnding,
  subscriptionTrialEnding,
  chargeComing,
  buildCharged,
  paymentReceipt,
  paymentFailed,
  subscriptionCancelled,
  refundIssued,
  distributorWelcome,
  callbackAcknowledgement,
  newLeadAlert,
  supportAnswer,
  commissionEarned,
  payoutSent,
  operatorNotice,
};

export type EmailKind = keyof typeof EMAILS;
export type EmailProps<K extends EmailKind> = Parameters<(typeof EMAILS)[K]["subject"]>[0];
