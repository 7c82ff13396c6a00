/** The 21 app-catalogue industries, in the spec's order (the first four hold the hand-written apps). */
export const INDUSTRIES = [
  "Healthcare & Life Sciences",
  "Financial Services",
  "Manufacturing & Industrial",
  "Retail & E-commerce",
  "Real Estate & Property",
  "Legal & Professional Services",
  "Education & Training",
  "Hospitality & Tourism",
  "Beauty & Wellness",
  "Restaurants & Food Service",
  "Digital Marketing & Advertising",
  "Business Consulting",
  "Construction & Engineering",
  "Automotive & Transportation",
  "Insurance & Risk Management",
  "Technology & Software",
  "Energy & Utilities",
  "Government & Public Sector",
  "Media & Entertainment",
  "Agriculture & Supply Chain",
  "Telecommunications",
] as const;

export type Industry = (typeof INDUSTRIES)[number];
export const ALL_INDUSTRIES = "All" as const;
/** The industry filter's options: All plus the 21. */
export const INDUSTRY_FILTERS = [ALL_INDUSTRIES, ...INDUSTRIES] as const;

/** Apps-page suggestions: industry names containing the typed text (empty text shows none). */
export function suggestIndustries(text: string): Industry[] {
  const q = text.trim().toLowerCase();
  if (!q) return [];
  return INDUSTRIES.filter((i) => i.toLowerCase().includes(q));
}
