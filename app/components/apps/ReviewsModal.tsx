import type { CatalogueApp } from "~/catalogue/apps";
import type { AppPricingTab } from "~/catalogue/pricing";
import type { Review } from "~/catalogue/reviews";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "~/components/ui/dialog";
import { AppPageLink, ReviewsBody, TrialCallToAction } from "./ReviewsBody";
import { TrialForm } from "./TrialForm";

export interface ReviewsModalProps {
  app: CatalogueApp;
  tab: AppPricingTab;
  title: string;
  subtitle: string;
  reviews: Review[];
  earlier: Review[];
  readingAll: boolean;
  onReadAllToggle(open: boolean): void;
  signedIn: boolean;
  trialError: string | null;
  onClose(): void;
  onStartTrial(app: CatalogueApp): void;
}

/**
 * The interactive reviews dialog: a Radix modal (focus trap, Escape, scroll lock, focus return).
 * Loaded on first use: the dialog stack is a third of the page's code and most visits never open it.
 */
export default function ReviewsModal({
  app,
  tab,
  title,
  subtitle,
  reviews,
  earlier,
  readingAll,
  onReadAllToggle,
  signedIn,
  trialError,
  onClose,
  onStartTrial,
}: ReviewsModalProps) {
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent>
        <DialogHeader className="pr-6 text-left sm:text-left">
          <DialogTitle className="leading-tight">{title}</DialogTitle>
          <DialogDescription>{subtitle}</DialogDescription>
        </DialogHeader>
        <ReviewsBody app={app} reviews={reviews} earlier={earlier} readingAll={readingAll} onReadAllToggle={onReadAllToggle} />
        <AppPageLink app={app} />
        <TrialForm
          appId={app.id}
          tab={tab}
          signedIn={signedIn}
          error={trialError}
          onSubmit={(e) => {
            e.preventDefault();
            onClose();
            onStartTrial(app);
          }}
        >
          <TrialCallToAction tab={tab} />
        </TrialForm>
      </DialogContent>
    </Dialog>
  );
}
