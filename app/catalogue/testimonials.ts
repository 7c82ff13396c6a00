import { mulberry32 } from "~/lib/random";
/**
 * The review carousel's 100 synthetic testimonials (spec section 9: "8 items rotating; full list
 * 100 with synthetic reviews"). Generated from a fixed seed, so the server and the browser build the
 * same list and hydration matches; no Math.random anywhere.
 */

export interface Testimonial {
  id: number;
  name: string;
  role: string;
  company: string;
  quote: string;
  rating: 5;
}

const TESTIMONIAL_COUNT = 100;
/** Slides in the carousel at a time. */
export const CAROUSEL_SIZE = 8;
export const CAROUSEL_INTERVAL_MS = 5000;

const FIRST = [
  "Sarah",
  "Marcus",
  "Priya",
  "David",
  "Elena",
  "James",
  "Aisha",
  "Tom",
  "Lucia",
  "Kevin",
  "Mei",
  "Omar",
  "Grace",
  "Diego",
  "Hannah",
  "Raj",
];
const LAST = [
  "Johnson",
  "Chen",
  "Patel",
  "Rodriguez",
  "Williams",
  "Nguyen",
  "Okafor",
  "Schmidt",
  "Rossi",
  "Kim",
  "Murphy",
  "Silva",
  "Cohen",
  "Brooks",
];
const ROLES = [
  "Owner",
  "CEO",
  "Founder",
  "Operations Manager",
  "Marketing Director",
  "Managing Partner",
  "Practice Manager",
  "Head of Sales",
];
const BUSINESSES: [prefix: string[], kind: string][] = [
  [["Summit", "Harbor", "Oakline"], "Realty"],
  [["Bright", "Clear", "Gentle"], "Dental"],
  [["Urban", "Golden", "Rustic"], "Bistro"],
  [["Peak", "Core", "Pulse"], "Fitness"],
  [["Blue", "North", "Silver"], "Insurance Group"],
  [["Nova", "Apex", "Vertex"], "Consulting"],
  [["Luxe", "Serene", "Glow"], "Spa"],
  [["Swift", "Prime", "Metro"], "Home Services"],
];
const QUOTES = [
  "Our AI assistant now answers every enquiry in seconds. Bookings are up and my team finally has time for real work.",
  "Setup took days, not months. The chatbot handles 80% of our repetitive questions around the clock.",
  "We saw a clear revenue lift in the first quarter. Follow-ups that used to slip through the cracks now happen automatically.",
  "The team understood our business from the first call. Delivery was on time and support has been excellent.",
  "Leads get a reply at 2 AM now. That alone paid for the project within weeks.",
  "Scheduling used to eat hours every day. Now clients book themselves and get reminders without us lifting a finger.",
  "Professional, fast and genuinely helpful. Our customers love how quickly they get answers.",
  "We automated intake, reminders and reviews in one go. It feels like we hired three extra people.",
];

export function generateTestimonials(seed = 20_240_501, count = TESTIMONIAL_COUNT): Testimonial[] {
  const rand = mulberry32(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)] as T;
  return Array.from({ length: count }, (_, i) => {
    const [prefixes, kind] = pick(BUSINESSES);
    return {
      id: i + 1,
      name: `${pick(FIRST)} ${pick(LAST)}`,
      role: pick(ROLES),
      company: `${pick(prefixes)} ${kind}`,
      // Walk the quotes in order so neighbouring slides never repeat the same text.
      quote: QUOTES[i % QUOTES.length] as string,
      rating: 5,
    };
  });
}

export const TESTIMONIALS: Testimonial[] = generateTestimonials();

/** Modulo that is never negative. */
const mod = (a: number, m: number) => ((a % m) + m) % m;

/**
 * The carousel position `n` (any integer; prev/next add -1/+1) as a slide of 8: `slot` is 0-7 and
 * `index` points into the full list. Every wrap past the 8th slide rotates in the next 8 testimonials
 * (and a wrap backwards the previous 8), so all 100 are shown over time.
 */
export function carouselSlide(n: number, total = TESTIMONIAL_COUNT, size = CAROUSEL_SIZE): { slot: number; index: number } {
  const slot = mod(n, size);
  const batch = Math.floor(n / size);
  return { slot, index: mod(batch * size + slot, total) };
}
