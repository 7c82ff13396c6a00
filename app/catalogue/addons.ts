import type { AddonCategory } from "./plans";

/** One add-on of the marketplace (spec section 3 addon_library). Prices in cents per month. */
export interface Addon {
  id: string;
  name: string;
  description: string;
  category: AddonCategory;
  monthlyPrice: number;
  features: string[];
  isActive: boolean;
}

/** The seeded marketplace: being written (issue 4). */
export const ADDONS: Addon[] = [];
