import {
  ArrowRight,
  Briefcase,
  Code,
  GraduationCap,
  HeartPulse,
  House,
  Megaphone,
  Scale,
  Shield,
  ShoppingCart,
  Sparkles,
  Utensils,
  Wrench,
  type LucideIcon,
} from "lucide-react";
import { Link } from "react-router";
import type { IndustryCategory } from "~/catalogue/categories";
import { cn } from "~/lib/utils";
import { goalsHref } from "~/catalogue/funnel-params";

const ICONS: Record<IndustryCategory["icon"], LucideIcon> = {
  Briefcase,
  Home: House,
  Shield,
  Utensils,
  HeartPulse,
  Sparkles,
  ShoppingCart,
  Megaphone,
  Code,
  Scale,
  GraduationCap,
  Wrench,
};

/** Static class strings per catalogue colour (Tailwind only ships classes it can see in the source). */
const ACCENTS: Record<string, { bar: string; icon: string }> = {
  violet: { bar: "bg-violet-500", icon: "bg-violet-100 text-violet-700" },
  emerald: { bar: "bg-emerald-500", icon: "bg-emerald-100 text-emerald-700" },
  sky: { bar: "bg-sky-500", icon: "bg-sky-100 text-sky-700" },
  orange: { bar: "bg-orange-500", icon: "bg-orange-100 text-orange-700" },
  rose: { bar: "bg-rose-500", icon: "bg-rose-100 text-rose-700" },
  pink: { bar: "bg-pink-500", icon: "bg-pink-100 text-pink-700" },
  amber: { bar: "bg-amber-500", icon: "bg-amber-100 text-amber-700" },
  fuchsia: { bar: "bg-fuchsia-500", icon: "bg-fuchsia-100 text-fuchsia-700" },
  indigo: { bar: "bg-indigo-500", icon: "bg-indigo-100 text-indigo-700" },
  slate: { bar: "bg-slate-500", icon: "bg-slate-200 text-slate-700" },
  teal: { bar: "bg-teal-500", icon: "bg-teal-100 text-teal-700" },
  lime: { bar: "bg-lime-500", icon: "bg-lime-100 text-lime-800" },
};
const FALLBACK_ACCENT = { bar: "bg-primary", icon: "bg-secondary text-secondary-foreground" };

/**
 * One industry category. The category name is the card's only link, stretched over the whole card,
 * so screen readers hear a short link name and everyone else can click anywhere.
 */
export function CategoryCard({ category }: { category: IndustryCategory }) {
  const Icon = ICONS[category.icon];
  const accent = ACCENTS[category.colour] ?? FALLBACK_ACCENT;
  const shown = category.industries.slice(0, 3);
  const more = category.industries.length - shown.length;
  const id = `category-${category.category.replace(/[^a-z0-9]+/gi, "-").toLowerCase()}`;

  return (
    <li className="group relative flex flex-col overflow-hidden rounded-xl border bg-card shadow-sm transition hover:-translate-y-0.5 hover:shadow-md has-[a:focus-visible]:ring-2 has-[a:focus-visible]:ring-ring has-[a:focus-visible]:ring-offset-2">
      <span aria-hidden className={cn("h-1.5 w-full", accent.bar)} />
      <div className="flex flex-1 flex-col gap-4 p-5">
        <div className="flex items-start gap-3">
          <span className={cn("grid size-11 shrink-0 place-items-center rounded-lg", accent.icon)}>
            <Icon className="size-6" aria-hidden />
          </span>
          <div className="min-w-0">
            <h2 id={id} className="text-lg font-semibold leading-snug">
              <Link
                to={goalsHref({ industry: category.category })}
                prefetch="intent"
                className="after:absolute after:inset-0 after:content-[''] focus-visible:outline-none"
              >
                {category.category}
              </Link>
            </h2>
            <p className="text-sm text-muted-foreground">{category.industries.length} industry types</p>
          </div>
        </div>

        <ul className="flex flex-wrap gap-1.5" aria-label={`Industries in ${category.category}`}>
          {shown.map((i) => (
            <li key={i} className="rounded-full bg-muted px-2.5 py-1 text-xs font-medium text-foreground">
              {i}
            </li>
          ))}
          {more > 0 && <li className="rounded-full px-2.5 py-1 text-xs font-medium text-muted-foreground">+{more} more</li>}
        </ul>

        <div className="mt-auto">
          <h3 className="text-xs font-semibold uppercase tracking-wider text-muted-foreground">Recommended add-ons</h3>
          <ul className="mt-2 space-y-1 text-sm">
            {category.recommendedAddons.slice(0, 3).map((a) => (
              <li key={a} className="flex items-center gap-2">
                <Sparkles className="size-3.5 shrink-0 text-primary" aria-hidden />
                {a}
              </li>
            ))}
          </ul>
        </div>

        <span className="inline-flex items-center gap-1 text-sm font-semibold text-primary" aria-hidden>
          Choose this industry
          <ArrowRight className="size-4 transition-transform group-hover:translate-x-0.5" />
        </span>
      </div>
    </li>
  );
}
