import { mulberry32, randomInt } from "~/lib/random";

/**
 * Synthetic customer reviews for the apps page's reviews dialog (spec sections 3 and 4). They are
 * display-only marketing content, generated deterministically per app id so the server and the
 * browser render the same list; only the dialog's 15-second refresh uses real randomness.
 */
export interface Review {
  id: string;
  name: string;
  company: string;
  review: string;
  rating: 5;
  verified: true;
  helpful: number;
  timeAgo: string;
}

export interface ReviewedApp {
  id: number;
  name: string;
  industry: string;
  features: string[];
}

export const REVIEWS_SHOWN = 6;
export const REVIEW_POOL_SIZE = 24;
export const REVIEWS_REFRESH_MS = 15_000;
const REVIEWS_SWAPPED = 3;

const FIRST_NAMES = [
  "Sarah",
  "Michael",
  "Priya",
  "James",
  "Elena",
  "David",
  "Aisha",
  "Robert",
  "Mei",
  "Carlos",
  "Hannah",
  "Omar",
  "Laura",
  "Daniel",
  "Fatima",
  "Kevin",
  "Sofia",
  "Marcus",
  "Grace",
  "Tomás",
] as const;
const LAST_NAMES = [
  "Johnson",
  "Chen",
  "Patel",
  "Williams",
  "Rodriguez",
  "Okafor",
  "Nguyen",
  "Thompson",
  "Kim",
  "Murphy",
  "Garcia",
  "Schmidt",
  "Ahmed",
  "Rossi",
  "Walker",
  "Silva",
  "Novak",
  "Bennett",
  "Tanaka",
  "Hughes",
] as const;
const COMPANY_PREFIXES = [
  "Summit",
  "Brightline",
  "Northwind",
  "Blue Harbor",
  "Redwood",
  "Keystone",
  "Evergreen",
  "Silverleaf",
  "Crescent",
  "Ironbridge",
  "Lakeside",
  "Pioneer",
  "Clearview",
  "Oakmont",
  "Horizon",
  "Riverstone",
  "Granite",
  "Sunrise",
  "Westfield",
  "Maple & Main",
] as const;
const COMPANY_SUFFIXES = [
  "Group",
  "Partners",
  "Co.",
  "Solutions",
  "Holdings",
  "Collective",
  "Associates",
  "Labs",
  "Studio",
  "Ventures",
] as const;

/** {app}, {feature} and {industry} are filled in per review. */
const TEMPLATES = [
  "{app} paid for itself in the first month. Setup was painless and the team walked us through every step.",
  "We went live in under two weeks. The {feature} alone saves my staff hours every single week.",
  "Honestly the best investment we made this year. Our customers noticed the difference right away.",
  "I was sceptical about AI, but {app} just works. Support answered every question within the hour.",
  "The {feature} is exactly what our {industry} business needed. No more spreadsheets.",
  "Our response times dropped from hours to minutes. The trial convinced the whole leadership team.",
  "Clean, fast and easy for my team to learn. We rolled it out to a second location a month later.",
  "{app} fits the way we already work instead of forcing a new process on us. Highly recommend.",
  "We compared four vendors. This was the only one that understood {industry} from day one.",
  "The onboarding call was worth it on its own. We automated three workflows in the first week.",
  "Our revenue is up and our admin time is down. The {feature} is the part I would never give up.",
  "Reliable from the first day. Not a single outage since launch and the reports are spot on.",
  "We replaced two separate tools with {app}. Cheaper, simpler and our clients love it.",
  "It handles the repetitive work so my team can focus on customers. Morale is noticeably better.",
  "Great product, great people. Every feature request we sent was answered with a real plan.",
  "Setup took an afternoon. The {feature} worked out of the box with the systems we already had.",
  "Our customers get answers at 2 a.m. now, and we wake up to booked appointments.",
  "Clear pricing, fast delivery and a product that does what the demo promised. Rare these days.",
  "After the 3-day trial there was no question. {app} is now part of how we run the business.",
  "The insights dashboard showed us problems we did not know we had. Worth every dollar.",
  "I run a small {industry} team and this gave us the reach of a company twice our size.",
  "We saw results in the first week. The {feature} cut our manual follow-ups almost to zero.",
  "Support is outstanding. They tuned the AI to our tone of voice until it sounded like us.",
  "Simple for staff, powerful for managers. The rollout was the smoothest we have ever had.",
  "{app} turned a process that took days into one that takes minutes. Our clients noticed.",
] as const;

/** Fixed time-ago ladder for the first render (newest first); refreshed entries get minutes. */
const TIME_AGO = [
  "2 hours ago",
  "5 hours ago",
  "1 day ago",
  "2 days ago",
  "3 days ago",
  "5 days ago",
  "1 week ago",
  "2 weeks ago",
  "3 weeks ago",
  "1 month ago",
] as const;

function pick<T>(random: () => number, list: readonly T[]): T {
  return list[Math.floor(random() * list.length)]!;
}

/** 'EHR calendar sync' stays, 'Automated reminders' becomes 'automated reminders' mid-sentence. */
function midSentence(feature: string): string {
  return /^[A-Z][a-z]/.test(feature) ? feature[0]!.toLowerCase() + feature.slice(1) : feature;
}

/** 'Sarah Johnson' -> 'SJ'. */
export function initials(name: string): string {
  return name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((part) => part[0]!.toUpperCase())
    .join("");
}

/**
 * The app's deterministic pool of distinct reviewers (seeded by the app id). Entry k never depends
 * on the pool size, so `reviewPool(app, 1)[0]` is the card preview and the dialog's first entry.
 */
export function reviewPool(app: ReviewedApp, size: number = REVIEW_POOL_SIZE): Review[] {
  const random = mulberry32(0x5eed0000 + app.id);
  // The entries shown first get distinct rungs of the time-ago ladder, newest first; the rest only
  // appear after a refresh, which relabels them.
  const rungs = [...TIME_AGO.keys()];
  const firstRungs = Array.from({ length: REVIEWS_SHOWN }, () => rungs.splice(Math.floor(random() * rungs.length), 1)[0]!);
  firstRungs.sort((a, b) => a - b);
  const seen = new Set<string>();
  const pool: Review[] = [];
  while (pool.length < size) {
    const name = `${pick(random, FIRST_NAMES)} ${pick(random, LAST_NAMES)}`;
    if (seen.has(name)) continue;
    seen.add(name);
    const template = pick(random, TEMPLATES);
    const feature = midSentence(pick(random, app.features.length > 0 ? app.features : ["automation"]));
    const company = `${pick(random, COMPANY_PREFIXES)} ${pick(random, COMPANY_SUFFIXES)}`;
    const helpful = randomInt(random, 3, 48);
    const k = pool.length;
    pool.push({
      id: `${app.id}-${pool.length}`,
      name,
      company,
      review: template
        .replaceAll("{app}", app.name)
        .replaceAll("{feature}", feature)
        .replaceAll("{industry}", app.industry.split(" & ")[0]!.toLowerCase()),
      rating: 5,
      verified: true,
      helpful,
      timeAgo: k < REVIEWS_SHOWN ? TIME_AGO[firstRungs[k]!]! : earlierTimeAgo(k),
    });
  }
  return pool;
}

/**
 * The age of a review after the first ones shown: older the further down the list, four to a month
 * from two months back ('2 months ago' ... '1 year ago', '2 years ago'), so the full list reads
 * newest first.
 */
export function earlierTimeAgo(index: number): string {
  const months = 2 + Math.floor(Math.max(0, index - REVIEWS_SHOWN) / 4);
  if (months < 12) return `${months} months ago`;
  const years = Math.floor(months / 12);
  return years === 1 ? "1 year ago" : `${years} years ago`;
}

/**
 * Every review of an app: as many as its card and dialog count ('{n} Verified Reviews'), never
 * more, so the dialog's refresh and its full list only show reviews the count includes. An app
 * with none (a new one an operator added) has none to show.
 */
export function allReviews(app: ReviewedApp & { reviews: number }): Review[] {
  if (app.reviews <= 0) return [];
  return reviewPool(app, Math.max(REVIEWS_SHOWN, app.reviews));
}

/** What the dialog shows when it opens: the first entries of the pool. */
export function initialReviews(app: ReviewedApp): Review[] {
  return reviewPool(app).slice(0, REVIEWS_SHOWN);
}

function minutesAgo(n: number): string {
  return n === 1 ? "1 minute ago" : `${n} minutes ago`;
}

/**
 * One 15-second refresh: three shown entries are swapped for random others from the pool. The
 * newcomers go to the top with fresh labels: the first 'Just now', the others 1-60 minutes ago.
 */
export function refreshReviews(shown: Review[], pool: Review[], random: () => number = Math.random): Review[] {
  const shownIds = new Set(shown.map((r) => r.id));
  const candidates = pool.filter((r) => !shownIds.has(r.id));
  const swaps = Math.min(REVIEWS_SWAPPED, shown.length, candidates.length);
  if (swaps === 0) return shown;
  const kept = [...shown];
  for (let i = 0; i < swaps; i++) kept.splice(Math.floor(random() * kept.length), 1);
  const incoming: Review[] = [];
  for (let i = 0; i < swaps; i++) incoming.push(candidates.splice(Math.floor(random() * candidates.length), 1)[0]!);
  const minutes = incoming
    .slice(1)
    .map(() => randomInt(random, 1, 60))
    .sort((a, b) => a - b);
  const labelled = incoming.map((r, i) => ({ ...r, timeAgo: i === 0 ? "Just now" : minutesAgo(minutes[i - 1]!) }));
  return [...labelled, ...kept];
}
