import { renderToString } from "react-dom/server";
import { createRoutesStub, Meta, Outlet } from "react-router";
import { describe, expect, it } from "vitest";
import { allApps } from "~/catalogue/apps";
import { appProductJsonLd, faqPageJsonLd, jsonLd, organizationJsonLd, packageProductJsonLd, schemaPrice } from "./json-ld";

const SITE = "https://apps.example";

describe("organizationJsonLd", () => {
  it("names the site and its address", () => {
    expect(organizationJsonLd(SITE)).toEqual({
      "@context": "https://schema.org",
      "@type": "Organization",
      name: "AI Automation Apps",
      url: "https://apps.example/",
      logo: "https://apps.example/favicon.svg",
      description: expect.any(String),
    });
  });
});

describe("appProductJsonLd", () => {
  const app = allApps()[0]!; // MediScheduler AI, base price $18,500
  const data = appProductJsonLd(app, `${SITE}/apps/${app.slug}`, `${SITE}/og/apps.png`);

  it("offers the four prices the page shows, in dollars", () => {
    expect(data).toMatchObject({ "@type": "Product", name: "MediScheduler AI", category: "Healthcare & Life Sciences" });
    const offers = data.offers as { name: string; price: string; priceCurrency: string; priceSpecification?: unknown }[];
    expect(offers.map((o) => [o.name, o.price, o.priceCurrency])).toEqual([
      ["Standard", "18500.00", "USD"],
      ["Professional", "16650.00", "USD"],
      ["Rush Delivery", "27750.00", "USD"],
      ["Monthly", "925.00", "USD"],
    ]);
    expect(offers[3]!.priceSpecification).toMatchObject({ unitCode: "MON", price: "925.00" });
    expect(offers[0]!.priceSpecification).toBeUndefined();
  });

  it("claims no rating: the reviews are sample content", () => {
    expect(JSON.stringify(data)).not.toMatch(/Rating|Review/);
  });
});

describe("packageProductJsonLd", () => {
  it("offers the one-time and the monthly price", () => {
    const data = packageProductJsonLd(
      { name: "Starter", description: "d", oneTimeAmount: 99_700, monthlyAmount: 19_900 },
      `${SITE}/packages`,
    );
    expect(data.offers).toEqual([
      expect.objectContaining({ name: "One-time", price: "997.00" }),
      expect.objectContaining({
        name: "Monthly",
        price: "199.00",
        priceSpecification: expect.objectContaining({ unitCode: "MON" }),
      }),
    ]);
  });
});

describe("faqPageJsonLd", () => {
  it("is one Question with its accepted Answer per entry", () => {
    expect(faqPageJsonLd([{ q: "Why?", a: "Because." }], `${SITE}/distributors`).mainEntity).toEqual([
      { "@type": "Question", name: "Why?", acceptedAnswer: { "@type": "Answer", text: "Because." } },
    ]);
  });
});

describe("schemaPrice", () => {
  it("writes cents as dollars with two decimals", () => {
    expect(schemaPrice(92_500)).toBe("925.00");
    expect(schemaPrice(1)).toBe("0.01");
  });
});

describe("jsonLd in the document head", () => {
  it("cannot close its script element, whatever the text holds", async () => {
    const hostile = "</script><script>alert(1)</script> & \u2028";
    const Stub = createRoutesStub([
      {
        path: "/",
        Component: () => (
          <>
            <Meta />
            <Outlet />
          </>
        ),
        meta: () => [jsonLd({ "@type": "Thing", name: hostile })],
      },
    ]);
    const html = renderToString(<Stub initialEntries={["/"]} />);
    const [, body] = /<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(html) ?? [];
    expect(body).toBeDefined();
    expect(body).not.toMatch(/[<>]/);
    expect(body).toContain("\\u003c/script\\u003e");
    expect(JSON.parse(body!)).toEqual({ "@type": "Thing", name: hostile });
  });
});
