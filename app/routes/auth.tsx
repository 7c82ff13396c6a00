import { ArrowLeft, Sparkles } from "lucide-react";
import { type ComponentProps, useEffect, useRef, useState } from "react";
import { Link, redirect, type ShouldRevalidateFunctionArgs, useNavigate, useSearchParams } from "react-router";
import { LazyToaster, type Notice } from "~/components/LazyToaster";
import {
  ForgotPasswordForm,
  GoogleButton,
  ResetPasswordForm,
  SignInForm,
  SignUpForm,
  TwoFactorForm,
} from "~/components/auth/AuthForms";
import { FormAlert } from "~/components/auth/Field";
import { AUTH_TEXT, parseTab, signInNote, TWO_FACTOR_TEXT, type AuthTab } from "~/lib/auth-messages";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "~/components/ui/tabs";
import { seo } from "~/lib/seo";
import { handleAuthAction } from "~/server/auth/auth-actions.server";
import { getUser, safeNext } from "~/server/auth/session.server";
import { env } from "~/server/env.server";
import type { Route } from "./+types/auth";

export const meta: Route.MetaFunction = ({ matches }) =>
  seo(matches, {
    title: "Sign In or Create an Account",
    description: "Sign in to your AI Automation Apps dashboard or create a free account.",
    path: "/auth",
    noindex: true,
  });

export async function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  if (await getUser(request)) throw redirect(safeNext(url.searchParams.get("next")));
  return { googleEnabled: env().GOOGLE_ENABLED };
}

export function action({ request }: Route.ActionArgs) {
  return handleAuthAction(request);
}

/** Switching tabs only changes the query string: no need to ask the server again. */
export function shouldRevalidate({ formMethod, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  return formMethod ? defaultShouldRevalidate : false;
}

const HEADINGS: Record<AuthTab, { title: string; description: string }> = {
  signin: { title: "Welcome back", description: "Sign in to your AI automation dashboard." },
  signup: { title: "Create your account", description: "Start automating your business in minutes." },
  reset: { title: "Reset your password", description: "We'll email you a link to choose a new one." },
};
/** The reset tab once the emailed link has brought its token: the email step is behind the customer. */
const CHOOSE_PASSWORD_HEADING = { title: "Choose a new password", description: "You will sign in with it from now on." };

export default function AuthPage({ loaderData, actionData }: Route.ComponentProps) {
  const [searchParams] = useSearchParams();
  const navigate = useNavigate();
  const tab = parseTab(searchParams.get("tab"));
  const next = searchParams.get("next") ?? undefined;
  const token = searchParams.get("token");

  // A URL for another tab that keeps only the page to return to (not a token or a message).
  const tabHref = (target: AuthTab) => {
    const params = new URLSearchParams({ tab: target });
    if (next) params.set("next", next);
    return `?${params.toString()}`;
  };

  const [notice, setNotice] = useState<Notice | null>(null);
  const noticeId = useRef(0);
  // Every submission answers with a new object: show its toast once.
  useEffect(() => {
    if (!actionData?.toast) return;
    noticeId.current += 1;
    setNotice({ ...actionData.toast, id: noticeId.current });
  }, [actionData]);

  const result = actionData ?? null;
  // The sign-in's second step (after a right password, for an account with two-factor authentication).
  const codeStep = tab === "signin" && searchParams.get("step") === "code";
  const heading = codeStep
    ? { title: TWO_FACTOR_TEXT.stepTitle, description: "One more step to sign in." }
    : tab === "reset" && token
      ? CHOOSE_PASSWORD_HEADING
      : HEADINGS[tab];
  // Which answers the visible form shows beside its fields; any other failure (a Google error, a
  // stale or forged submission) is shown above the card's content so it is never lost.
  const view = tab === "reset" ? (token ? "reset" : "forgot") : tab;
  const shownByForm: Record<typeof view, readonly string[]> = {
    signin: ["signin", "unknown", "two-factor"],
    signup: ["signup"],
    forgot: ["forgot"],
    reset: ["reset"],
  };
  const formResult = result && shownByForm[view].includes(result.intent) ? result : null;
  const oauthError = tab !== "reset" && searchParams.get("error") ? AUTH_TEXT.googleFailed : null;
  const pageAlert = result && !result.ok && !formResult ? result.message : result ? null : oauthError;
  // Spec section 8: a Google sign-in that comes back with an error also gets its toast, once per return.
  const oauthToasted = useRef<string | null>(null);
  const oauthErrorCode = tab !== "reset" ? searchParams.get("error") : null;
  useEffect(() => {
    if (!oauthErrorCode || oauthToasted.current === oauthErrorCode) return;
    oauthToasted.current = oauthErrorCode;
    noticeId.current += 1;
    setNotice({ kind: "error", title: AUTH_TEXT.googleFailedToast, description: AUTH_TEXT.googleFailed, id: noticeId.current });
  }, [oauthErrorCode]);
  const notes = tab === "signin" ? signInNote(searchParams) : null;

  // Offered only when the server can complete it: without Google's client id and secret there is no button.
  const google = loaderData.googleEnabled ? <GoogleButton next={next} /> : null;

  return (
    <main className="relative flex min-h-screen flex-col items-center bg-ink px-4 py-6 text-white sm:py-10">
      <div
        aria-hidden
        className="pointer-events-none absolute inset-0 bg-[radial-gradient(ellipse_at_top,rgba(67,56,202,0.45),transparent_60%)]"
      />
      <div className="relative w-full max-w-md">
        <Link
          to="/"
          className="inline-flex items-center gap-1.5 rounded-md px-2 py-1 text-sm font-medium text-slate-200 hover:bg-white/10 hover:text-white focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-white"
        >
          <ArrowLeft className="size-4" aria-hidden />
          Back to home
        </Link>

        <div className="mt-6 flex flex-col items-center text-center">
          <Link
            to="/"
            className="flex items-center gap-2 rounded-md text-xl font-bold tracking-tight focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-white"
            aria-label="AI Automation Apps home"
          >
            <span className="grid size-10 place-items-center rounded-xl bg-primary shadow-lg shadow-indigo-900/40">
              <Sparkles className="size-5" aria-hidden />
            </span>
            <span>AI Automation Apps</span>
          </Link>
          <h1 className="mt-6 text-2xl font-bold sm:text-3xl">{heading.title}</h1>
          <p className="mt-1 text-sm text-slate-300">{heading.description}</p>
        </div>

        <div className="mt-6 rounded-2xl bg-card p-5 text-card-foreground shadow-2xl shadow-black/40 sm:p-7">
          {pageAlert ? (
            <div className="mb-4">
              <FormAlert id="page-alert" message={pageAlert} />
            </div>
          ) : null}
          {codeStep ? (
            <TwoFactorForm result={formResult} next={next} signInHref={tabHref("signin")} />
          ) : tab === "reset" ? (
            token ? (
              <ResetPasswordForm token={token} result={formResult} signInHref={tabHref("signin")} />
            ) : (
              <ForgotPasswordForm
                result={formResult}
                linkInvalid={Boolean(searchParams.get("error"))}
                signInHref={tabHref("signin")}
              />
            )
          ) : (
            <Tabs
              value={tab}
              onValueChange={(value) => {
                const target = parseTab(value);
                if (target !== tab) void navigate(tabHref(target), { replace: true, preventScrollReset: true });
              }}
            >
              <TabsList aria-label="Sign in or create an account" className="grid w-full grid-cols-2">
                <TabsTrigger value="signin" asChild>
                  <TabLink to={tabHref("signin")}>Sign In</TabLink>
                </TabsTrigger>
                <TabsTrigger value="signup" asChild>
                  <TabLink to={tabHref("signup")}>Sign Up</TabLink>
                </TabsTrigger>
              </TabsList>
              <TabsContent value="signin" className="mt-5">
                <SignInForm
                  result={view === "signin" ? formResult : null}
                  next={next}
                  notice={notes}
                  forgotHref={tabHref("reset")}
                  google={google}
                />
              </TabsContent>
              <TabsContent value="signup" className="mt-5">
                <SignUpForm
                  result={view === "signup" ? formResult : null}
                  next={next}
                  signInHref={tabHref("signin")}
                  google={google}
                />
              </TabsContent>
            </Tabs>
          )}
        </div>
        <p className="mt-6 text-center text-xs text-slate-300">
          Protected by rate limiting and email verification. We never share your email.
        </p>
      </div>
      <LazyToaster notice={notice} />
    </main>
  );
}

/**
 * A tab trigger that is a real link to `?tab=…`, so tabs work without JavaScript. Radix passes
 * `type="button"` to its trigger, which is meaningless on an anchor: drop it.
 */
function TabLink({ type: _type, ...props }: ComponentProps<typeof Link> & { type?: string }) {
  return <Link replace preventScrollReset {...props} />;
}
