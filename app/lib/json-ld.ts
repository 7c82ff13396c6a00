import type { MetaDescriptor } from "react-router";
import type { CatalogueApp } from "~/catalogue/apps";
import { APP_PRICING_TABS, APP_TAB_INFO, quoteApp } from "~/catalogue/pricing";
import { SITE_NAME } from "./seo";

/**
 * schema.org structured data for search engines and link previews. No AggregateRating or Review
 * anywhere: the reviews on the site are sample content, and marking them up as ratings would claim
 * they are real (docs/decisions/0052-app-pages-and-structured-data.md).
 *
 * Every builder returns plain data; `jsonLd` hands it to React Router's `<Meta>`, which writes a
 * `<script type="application/ld+json">` with `<`, `>`, `&`, U+2028 and U+2029 escaped, so no text
 * in the data can close the element (json-ld.test.tsx renders it to prove that).
 */

type Thing = Record<string, unknown>;
const CONTEXT = "https://schema.org";
const USD = "USD";

/** The `meta` descriptor of one JSON-LD object. */
export function jsonLd(data: Thing): MetaDescriptor {
  return { "script:ld+json": data };
}

/** Cents as schema.org wants a price: a decimal string with two places, no currency sign. */
export function schemaPrice(cents: number): string {
  return (cents / 100).toFixed(2);
}

/** The business behind the site (on `/`). */
export function organizationJsonLd(siteUrl: string): Thing {
  return {
    "@context": CONTEXT,
    "@type": "Organization",
    name: SITE_NAME,
    url: `${siteUrl}/`,
    logo: `${siteUrl}/favicon.svg`,
    description: "Ready-made AI automation apps and build packages for small and mid-size businesses.",
  };
}

/**
 * One app as a Product with an Offer per pricing tab, priced by the same `quoteApp` as its cards,
 * its page and the checkout: Standard, Professional and Rush are one-time prices, Monthly a price
 * per month.
 */
export function appProductJsonLd(app: CatalogueApp, pageUrl: string, image?: string): Thing {
  return {
    "@context": CONTEXT,
    "@type": "Product",
    name: app.name,
    description: app.description,
    category: app.industry,
    url: pageUrl,
    ...(image && { image }),
    brand: { "@type": "Brand", name: SITE_NAME },
    offers: APP_PRICING_TABS.map((tab) => {
      const quote = quoteApp(app, tab);
      return offer(APP_TAB_INFO[tab].label, quote.amount, pageUrl, quote.isSubscription);
    }),
  };
}

/** A package of the packages page: its one-time and monthly prices as shown there. */
export interface PackageForJsonLd {
  name: string;
  description: string;
  oneTimeAmount: number;
  monthlyAmount: number;
}

export function packageProductJsonLd(pkg: PackageForJsonLd, pageUrl: string, image?: string): Thing {
  return {
    "@context": CONTEXT,
    "@type": "Product",
    name: pkg.name,
    description: pkg.description,
    url: pageUrl,
    ...(image && { image }),
    brand: { "@type": "Brand", name: SITE_NAME },
    offers: [offer("One-time", pkg.oneTimeAmount, pageUrl, false), offer("Monthly", pkg.monthlyAmount, pageUrl, true)],
  };
}

/** The questions and answers a page shows, as a FAQPage. */
export function faqPageJsonLd(faq: readonly { q: string; a: string }[], pageUrl: string): Thing {
  return {
    "@context": CONTEXT,
    "@type": "FAQPage",
    url: pageUrl,
    mainEntity: faq.map(({ q, a }) => ({
      "@type": "Question",
      name: q,
      acceptedAnswer: { "@type": "Answer", text: a },
    })),
  };
}

function offer(name: string, cents: number, url: string, monthly: boolean): Thing {
  const price = schemaPrice(cents);
  return {
    "@type": "Offer",
    name,
    price,
    priceCurrency: USD,
    url,
    availability: "https://schema.org/InStock",
    ...(monthly && {
      priceSpecification: {
        "@type": "UnitPriceSpecification",
        price,
        priceCurrency: USD,
        unitCode: "MON",
        referenceQuantity: { "@type": "QuantitativeValue", value: 1, unitCode: "MON" },
      },
    }),
  };
}
