import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { allApps } from "~/catalogue/apps";
import { AppCard } from "./AppCard";
import { ReviewsDialog } from "./ReviewsDialog";

const app = allApps().find((a) => a.id === 7)!;
const noop = () => {};

function card(signedIn: boolean, trialError: string | null = null) {
  return renderToString(
    <AppCard
      app={app}
      tab="express"
      view="grid"
      reviewsHref="/apps?reviews=7"
      processing={false}
      busy={false}
      signedIn={signedIn}
      trialError={trialError}
      onOpenReviews={noop}
      onStartTrial={noop}
    />,
  );
}

function dialog(signedIn: boolean) {
  return renderToString(
    <ReviewsDialog
      app={app}
      tab="monthly"
      closeHref="/apps"
      signedIn={signedIn}
      trialError={null}
      onClose={noop}
      onStartTrial={noop}
    />,
  );
}

/** Each form's opening tag and its hidden fields as name=value. */
function forms(html: string) {
  return [...html.matchAll(/(<form[^>]*>)(.*?)<\/form>/g)].map(([, open, body]) => ({
    open: open!,
    fields: [...body!.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)"\/>/g)].map(([, n, v]) => `${n}=${v}`),
  }));
}

describe("the trial button before hydration (no-JavaScript path)", () => {
  it("signed out: a GET form to /auth that says why and comes back to /apps", () => {
    for (const html of [card(false), dialog(false)]) {
      const [form] = forms(html);
      expect(form?.open).toMatch(/action="\/auth"/);
      expect(form?.open).toMatch(/method="get"/);
      expect(form?.fields).toEqual(["reason=trial", "next=/apps"]);
    }
  });

  it("signed in: a POST to the page's own action with the app id and tab, and no amount", () => {
    const [form] = forms(card(true));
    expect(form?.open).toMatch(/method="post"/);
    expect(form?.open).not.toMatch(/action=/);
    expect(form?.fields).toEqual(["appId=7", "tab=express"]);
    const [dialogForm] = forms(dialog(true));
    expect(dialogForm?.open).toMatch(/method="post"/);
    expect(dialogForm?.fields).toEqual(["appId=7", "tab=monthly"]);
    expect(card(true)).not.toContain("/auth");
  });

  it("shows a failed form checkout under the button", () => {
    expect(card(true, "Invalid app data")).toMatch(/<p role="alert"[^>]*>Invalid app data<\/p>/);
    expect(card(true)).not.toContain('role="alert"');
  });
});
