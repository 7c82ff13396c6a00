import { TERMS_OF_SERVICE, TERMS_PATH } from "~/catalogue/legal";
import { LegalPage } from "~/components/legal/LegalPage";
import { pageCacheHandle } from "~/lib/page-cache";
import { seo } from "~/lib/seo";
import type { Route } from "./+types/terms";

// Same HTML for every anonymous visitor: served from the page cache (docs/decisions/0015).
export const handle = pageCacheHandle;

export const meta: Route.MetaFunction = ({ matches }) =>
  seo(matches, {
    title: TERMS_OF_SERVICE.title,
    description:
      "The terms for using AI Automation Apps: accounts, free trials, prices and payment, cancellation, the 30-day money-back guarantee and our partner programs.",
    path: TERMS_PATH,
  });

export default function Page() {
  return <LegalPage document={TERMS_OF_SERVICE} />;
}
