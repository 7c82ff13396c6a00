/**
 * The 181-app catalogue (spec section 3). TEMPORARY: the hand-written apps and the seeded generator
 * land in the apps slice of issue 2.
 */
export interface CatalogueApp {
  id: number;
  name: string;
  description: string;
  industry: string;
  basePrice: number;
  expressPrice: number;
  standardPrice: number;
  monthlyFinancing: string;
  rating: number;
  reviews: number;
  isPopular: boolean;
  features: string[];
  deliveryTime: string;
}

export function allApps(): CatalogueApp[] {
  return [];
}
