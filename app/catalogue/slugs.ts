/**
 * Addresses of the apps' own pages, /apps/{slug} (spec: one page per app). A slug is the name in
 * lower case, accents dropped and every run of other characters a single '-': 'MediScheduler AI'
 * is 'medischeduler-ai'. Pure and deterministic: the seed stores the same slugs on every start.
 */

const MAX_SLUG_LENGTH = 80;

/** The slug a name asks for, before collisions are resolved; '' for a name with no letter or digit. */
export function slugify(name: string): string {
  return name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/&/g, " and ")
    .replace(/[^a-z0-9]+/g, "-")
    .slice(0, MAX_SLUG_LENGTH)
    .replace(/^-+|-+$/g, "");
}

/** A slug's shape, checked before any lookup (anything else is a 404 without a query). */
export function isSlug(value: string): boolean {
  return value.length > 0 && value.length <= MAX_SLUG_LENGTH + 12 && /^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(value);
}

/**
 * One distinct slug per app. Apps are taken in id order and the lowest id keeps the name's slug;
 * a later app whose name gives a slug already taken gets its id appended ('crm-bot-42'), and a
 * name with no letter or digit is 'app-{id}'. Adding an app with a higher id therefore never
 * changes an existing app's address.
 */
export function assignSlugs(apps: readonly { id: number; name: string }[]): Map<number, string> {
  const byId = [...apps].sort((a, b) => a.id - b.id);
  const taken = new Set<string>();
  const out = new Map<number, string>();
  for (const app of byId) {
    const base = slugify(app.name) || "app";
    let slug = base === "app" ? `app-${app.id}` : base;
    if (taken.has(slug)) slug = `${base}-${app.id}`;
    // Only a pathological catalogue gets here ('crm-bot-42' is itself some app's name).
    for (let n = 2; taken.has(slug); n++) slug = `${base}-${app.id}-${n}`;
    taken.add(slug);
    out.set(app.id, slug);
  }
  return out;
}
