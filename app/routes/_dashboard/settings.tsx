import { useEffect } from "react";
import { data, Form, redirect, useActionData } from "react-router";
import { toast } from "sonner";
import { sidebarCookie } from "~/components/dashboard/nav";
import { PageHeader, SubmitButton } from "~/components/dashboard/pages/common";
import { Card, CardContent, CardDescription, CardHeader } from "~/components/ui/card";
import { TwoFactorCard, type TwoFactorNotice } from "~/components/dashboard/TwoFactorCard";
import { auth } from "~/server/auth/auth.server";
import { requireUser } from "~/server/auth/session.server";
import { handleTwoFactorIntent, isTwoFactorIntent } from "~/server/auth/two-factor-settings.server";
import { db } from "~/server/db/client.server";
import { fieldErrors } from "~/server/profile/profile.server";
import { getSettings, saveSettings, saveTimeZone, settingsInput } from "~/server/profile/settings.server";
import { canonicalTimeZone, FALLBACK_TIME_ZONE, formatInZone, timeZoneFromCookie, timeZoneNames } from "~/lib/time-zone";
import type { Route } from "./+types/settings";

export const meta: Route.MetaFunction = () => [{ title: "Settings | AI Dashboard" }, { name: "robots", content: "noindex" }];

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const settings = await getSettings(db(), user.id);
  const browser = timeZoneFromCookie(request.headers.get("Cookie"));
  const timeZone = settings.timeZone ?? browser ?? FALLBACK_TIME_ZONE;
  const zones = timeZoneNames();
  const notice = new URL(request.url).searchParams.get("two-factor");
  const twoFactorNotices: TwoFactorNotice[] = ["required", "sign-in-again", "enabled", "disabled"];
  return {
    settings,
    twoFactor: {
      enabled: user.twoFactorEnabled === true,
      notice: twoFactorNotices.find((n) => n === notice) ?? null,
    },
    timeZone,
    // The browser's zone, when it differs from the account's: offered as a one-click choice.
    browserTimeZone: browser && browser !== settings.timeZone ? browser : null,
    // From the server, so the list the browser hydrates is the one the server rendered.
    // The zone in use is always one of the options, even under an older name ("Asia/Calcutta").
    timeZones: zones.includes(timeZone) ? zones : [timeZone, ...zones],
    now: Date.now(),
  };
}

const TIME_ZONE_UNKNOWN = "Choose a time zone from the list";

export async function action({ request }: Route.ActionArgs) {
  const user = await requireUser(request);
  const form = await request.formData();
  const intent = form.get("intent");
  if (isTwoFactorIntent(intent)) return handleTwoFactorIntent(request, intent, form);

  if (intent === "sign-out-everywhere") {
    // Deletes every session of this account, this one included, then clears this browser's cookie.
    await auth().api.revokeSessions({ headers: request.headers });
    const headers = new Headers();
    const signOut = await auth()
      .api.signOut({ headers: request.headers, asResponse: true })
      .catch(() => null);
    for (const cookie of signOut?.headers.getSetCookie() ?? []) headers.append("Set-Cookie", cookie);
    throw redirect("/auth", { headers });
  }

  if (intent === "preferences") {
    const parsed = settingsInput.safeParse({
      emailUpdates: form.get("emailUpdates") ?? undefined,
      productNews: form.get("productNews") ?? undefined,
      smsAlerts: form.get("smsAlerts") ?? undefined,
      sidebar: form.get("sidebar") ?? undefined,
    });
    if (!parsed.success) return data({ ok: false as const, errors: fieldErrors(parsed.error) }, { status: 400 });
    const { sidebar, ...rest } = parsed.data;
    await saveSettings(db(), user.id, { ...rest, sidebarCollapsed: sidebar === "collapsed" });
    // The toggle's cookie wins over the saved default (layout loader): this browser follows the new
    // default now; a device where the sidebar was toggled since keeps that choice for its 7 days.
    return data(
      { ok: true as const, saved: "preferences" as const, errors: {} as Record<string, string> },
      { headers: { "Set-Cookie": sidebarCookie(sidebar !== "collapsed") } },
    );
  }

  if (intent === "time-zone") {
    const timeZone = canonicalTimeZone(form.get("timeZone"));
    if (!timeZone) return data({ ok: false as const, errors: { timeZone: TIME_ZONE_UNKNOWN } }, { status: 400 });
    await saveTimeZone(db(), user.id, timeZone);
    return data({ ok: true as const, saved: "time-zone" as const, errors: {} as Record<string, string> });
  }

  return data({ ok: false as const, errors: { form: "Unknown action" } as Record<string, string> }, { status: 400 });
}

const NOTIFICATIONS = [
  { name: "emailUpdates", label: "Email updates", help: "Account and billing emails about your automations." },
  { name: "productNews", label: "Product news", help: "New apps, add-ons and features, at most once a month." },
  { name: "smsAlerts", label: "SMS alerts", help: "Text messages for urgent account events." },
] as const;

export default function SettingsPage({ loaderData }: Route.ComponentProps) {
  const { settings, timeZone, browserTimeZone, timeZones, now, twoFactor } = loaderData;
  const result = useActionData<typeof action>();
  const errors: Record<string, string> = result?.errors ?? {};

  useEffect(() => {
    if (result?.ok && result.saved !== "two-factor") toast.success("Settings saved");
  }, [result]);

  return (
    <div className="mx-auto max-w-3xl">
      <PageHeader title="Settings" description="Notifications, dashboard defaults, security and sessions." />
      <div className="grid gap-6">
        <TwoFactorCard
          enabled={twoFactor.enabled}
          notice={twoFactor.notice}
          setup={result && "setup" in result ? result.setup : undefined}
          errors={errors}
        />
        <Card>
          <CardHeader>
            <h2 className="text-xl font-semibold leading-tight tracking-tight">Preferences</h2>
            <CardDescription>
              Saved to your account. A device where you toggled the sidebar in the last 7 days keeps that choice.
            </CardDescription>
          </CardHeader>
          <CardContent>
            <Form method="post" className="grid gap-6" key={JSON.stringify(settings)}>
              <fieldset className="grid gap-4">
                <legend className="mb-2 font-semibold">Notifications</legend>
                {NOTIFICATIONS.map((n) => (
                  <div key={n.name} className="flex items-start gap-3">
                    <input
                      id={n.name}
                      name={n.name}
                      type="checkbox"
                      defaultChecked={settings[n.name]}
                      aria-describedby={`${n.name}-help`}
                      className="mt-1 size-4 accent-primary"
                    />
                    <div>
                      <label htmlFor={n.name} className="text-sm font-medium">
                        {n.label}
                      </label>
                      <p id={`${n.name}-help`} className="text-sm text-muted-foreground">
                        {n.help}
                      </p>
                    </div>
                  </div>
                ))}
              </fieldset>
              <fieldset className="grid gap-3" aria-describedby={errors.sidebar ? "sidebar-error" : undefined}>
                <legend className="mb-2 font-semibold">Dashboard sidebar by default</legend>
                {(["expanded", "collapsed"] as const).map((v) => (
                  <div key={v} className="flex items-center gap-3">
                    <input
                      id={`sidebar-${v}`}
                      name="sidebar"
                      type="radio"
                      value={v}
                      defaultChecked={settings.sidebarCollapsed === (v === "collapsed")}
                      className="size-4 accent-primary"
                    />
                    <label htmlFor={`sidebar-${v}`} className="text-sm font-medium capitalize">
                      {v}
                    </label>
                  </div>
                ))}
                {errors.sidebar ? (
                  <p id="sidebar-error" className="text-sm font-medium text-destructive">
                    {errors.sidebar}
                  </p>
                ) : null}
              </fieldset>
              {result?.ok && result.saved === "preferences" ? (
                <output className="block text-sm text-emerald-700">Settings saved.</output>
              ) : null}
              <div>
                <SubmitButton intent="preferences" pendingText="Saving...">
                  Save preferences
                </SubmitButton>
              </div>
            </Form>
          </CardContent>
        </Card>

        <Card>
          <CardHeader>
            <h2 className="text-xl font-semibold leading-tight tracking-tight">Time zone</h2>
            <CardDescription>
              Every time on your dashboard, your onboarding call and your charge dates are shown in it.
            </CardDescription>
          </CardHeader>
          <CardContent>
            <Form method="post" className="grid gap-4" key={timeZone}>
              <div className="grid gap-2">
                <label htmlFor="timeZone" className="text-sm font-medium">
                  Your time zone
                </label>
                <select
                  id="timeZone"
                  name="timeZone"
                  defaultValue={timeZone}
                  aria-describedby={errors.timeZone ? "timeZone-help timeZone-error" : "timeZone-help"}
                  aria-invalid={errors.timeZone ? true : undefined}
                  className="h-11 w-full max-w-sm rounded-md border bg-background px-3 text-sm focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
                >
                  {timeZones.map((zone) => (
                    <option key={zone} value={zone}>
                      {zone.replaceAll("_", " ")}
                    </option>
                  ))}
                </select>
                <p id="timeZone-help" className="text-sm text-muted-foreground" data-testid="time-zone-now">
                  It is now {formatInZone(new Date(now), timeZone, "date-time")} there.
                  {browserTimeZone ? ` This browser is set to ${browserTimeZone.replaceAll("_", " ")}.` : ""}
                </p>
                {errors.timeZone ? (
                  <p id="timeZone-error" className="text-sm font-medium text-destructive">
                    {errors.timeZone}
                  </p>
                ) : null}
              </div>
              {result?.ok && result.saved === "time-zone" ? (
                <output className="block text-sm text-emerald-700">Time zone saved.</output>
              ) : null}
              <div>
                <SubmitButton intent="time-zone" pendingText="Saving...">
                  Save time zone
                </SubmitButton>
              </div>
            </Form>
          </CardContent>
        </Card>

        <Card>
          <CardHeader>
            <h2 className="text-xl font-semibold leading-tight tracking-tight">Sessions</h2>
            <CardDescription>
              Signs this account out on every browser and device, this one included. You will need to sign in again.
            </CardDescription>
          </CardHeader>
          <CardContent>
            <Form method="post">
              <SubmitButton intent="sign-out-everywhere" pendingText="Signing out..." variant="destructive">
                Sign out of all devices
              </SubmitButton>
            </Form>
          </CardContent>
        </Card>
      </div>
    </div>
  );
}
