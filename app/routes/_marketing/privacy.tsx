import { PRIVACY_POLICY, PRIVACY_PATH } from "~/catalogue/legal";
import { LegalPage } from "~/components/legal/LegalPage";
import { pageCacheHandle } from "~/lib/page-cache";
import { seo } from "~/lib/seo";
import type { Route } from "./+types/privacy";

// Same HTML for every anonymous visitor: served from the page cache (docs/decisions/0015).
export const handle = pageCacheHandle;

export const meta: Route.MetaFunction = ({ matches }) =>
  seo(matches, {
    title: PRIVACY_POLICY.title,
    description:
      "How AI Automation Apps collects, uses and protects your personal data, the cookies we set, who we share data with and your rights.",
    path: PRIVACY_PATH,
  });

export default function Page() {
  return <LegalPage document={PRIVACY_POLICY} />;
}
