import type { CatalogueApp } from "~/catalogue/apps";
import type { AppPricingTab } from "~/catalogue/pricing";
import type { Review } from "~/catalogue/reviews";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "~/components/ui/dialog";
import { ReviewsBody, TrialCallToAction } from "./ReviewsBody";

export interface ReviewsModalProps {
  app: CatalogueApp;
  tab: AppPricingTab;
  title: string;
  subtitle: string;
  reviews: Review[];
  onClose(): void;
  onStartTrial(app: CatalogueApp): void;
}

/**
 * The interactive reviews dialog: a Radix modal (focus trap, Escape, scroll lock, focus return).
 * Loaded on first use: the dialog stack is a third of the page's code and most visits never open it.
 */
export default function ReviewsModal({ app, tab, title, subtitle, reviews, onClose, onStartTrial }: ReviewsModalProps) {
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent>
        <DialogHeader className="pr-6 text-left sm:text-left">
          <DialogTitle className="leading-tight">{title}</DialogTitle>
          <DialogDescription>{subtitle}</DialogDescription>
        </DialogHeader>
        <ReviewsBody app={app} reviews={reviews} />
        <form
          action="/auth"
          method="get"
          onSubmit={(e) => {
            e.preventDefault();
            onClose();
            onStartTrial(app);
          }}
        >
          <TrialCallToAction tab={tab} />
        </form>
      </DialogContent>
    </Dialog>
  );
}
