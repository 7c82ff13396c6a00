import { Body, Button, Container, Head, Hr, Html, Link, Preview, Section, Text } from "@react-email/components";
import type { ReactNode } from "react";

/**
 * The look every email shares (the site's: indigo primary, system sans-serif, white card on a light
 * grey page), in the inline styles mail clients understand. Server only: nothing here is UI code of
 * the site (docs/decisions/0036-server-imports-no-ui.md), so the brand values are repeated here.
 */

const BRAND = {
  name: "AI Automation Apps",
  primary: "#4338ca",
  text: "#0f172a",
  muted: "#64748b",
  page: "#f1f5f9",
  font: 'ui-sans-serif, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
} as const;

export interface LayoutProps {
  /** The line inbox lists show after the subject. */
  preview: string;
  heading: string;
  /** The site's address (links in the footer). */
  siteUrl: string;
  /** Optional emails link to the settings where they are switched off. */
  optional?: boolean;
  children: ReactNode;
}

export function EmailLayout({ preview, heading, siteUrl, optional, children }: LayoutProps) {
  return (
    <Html lang="en">
      <Head />
      <Preview>{preview}</Preview>
      <Body style={{ backgroundColor: BRAND.page, fontFamily: BRAND.font, color: BRAND.text, margin: 0, padding: "24px 0" }}>
        <Container style={{ maxWidth: 560, margin: "0 auto", padding: "0 12px" }}>
          <Text style={{ fontSize: 18, fontWeight: 700, color: BRAND.primary, margin: "0 0 16px" }}>{BRAND.name}</Text>
          <Section style={{ backgroundColor: "#ffffff", borderRadius: 12, padding: "24px 28px", border: "1px solid #e2e8f0" }}>
            <Text style={{ fontSize: 22, fontWeight: 700, lineHeight: "28px", margin: "0 0 12px" }}>{heading}</Text>
            {children}
          </Section>
          <Hr style={{ borderColor: "#e2e8f0", margin: "24px 0 12px" }} />
          <Text style={{ fontSize: 12, color: BRAND.muted, margin: 0 }}>
            {BRAND.name} · Ready-made AI automation apps for small and mid-size businesses.
          </Text>
          {optional ? (
            <Text style={{ fontSize: 12, color: BRAND.muted, margin: "4px 0 0" }}>
              You get this email because Email updates are on. Turn them off in{" "}
              <Link href={`${siteUrl}/dashboard/settings`} style={{ color: BRAND.muted, textDecoration: "underline" }}>
                your notification settings
              </Link>
              .
            </Text>
          ) : null}
        </Container>
      </Body>
    </Html>
  );
}

export function P({ children }: { children: ReactNode }) {
  return <Text style={{ fontSize: 15, lineHeight: "24px", margin: "0 0 12px" }}>{children}</Text>;
}

/** The email's main action: a button in the brand colour; the text part shows its label and link. */
export function Action({ href, children }: { href: string; children: ReactNode }) {
  return (
    <Section style={{ margin: "8px 0 16px" }}>
      <Button
        href={href}
        style={{
          backgroundColor: BRAND.primary,
          color: "#ffffff",
          borderRadius: 8,
          padding: "12px 20px",
          fontSize: 15,
          fontWeight: 600,
          textDecoration: "none",
        }}
      >
        {children}
      </Button>
    </Section>
  );
}

/** Label/value lines (amounts, dates, references). */
export function Facts({ rows }: { rows: [label: string, value: string][] }) {
  return (
    <Section style={{ backgroundColor: BRAND.page, borderRadius: 8, padding: "12px 16px", margin: "4px 0 16px" }}>
      {rows.map(([label, value]) => (
        <Text key={label} style={{ fontSize: 14, lineHeight: "22px", margin: 0 }}>
          <span style={{ color: BRAND.muted }}>{label}: </span>
          <strong>{value}</strong>
        </Text>
      ))}
    </Section>
  );
}

/** Dollars from cents, the way the site shows them. */
export function money(cents: number, currency = "usd"): string {
  return new Intl.NumberFormat("en-US", { style: "currency", currency: currency.toUpperCase() }).format(cents / 100);
}

/** A date (and time) in the customer's time zone, as the dashboard shows it (docs/decisions/0061). */
export function when(at: Date | string, timeZone?: string | null): string {
  const date = typeof at === "string" ? new Date(at) : at;
  return new Intl.DateTimeFormat("en-US", {
    year: "numeric",
    month: "short",
    day: "numeric",
    hour: "numeric",
    minute: "2-digit",
    timeZone: timeZone ?? "UTC",
    timeZoneName: "short",
  }).format(date);
}
