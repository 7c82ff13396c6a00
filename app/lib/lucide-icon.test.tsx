import { icons, Icon as LucideIcon, LucideProvider } from "lucide-react";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import CachedIcon from "./lucide-icon";

type IconData = NonNullable<Parameters<typeof LucideIcon>[0]["icon"]>;
type IconComponent = { render: (props: object, ref: null) => { props: { icon: IconData } } };
/** Every icon lucide ships, as its data (what lucide's own icon component hands to Icon). */
const ALL = [...new Set(Object.values(icons))].map((c) => ({
  name: (c as { displayName?: string }).displayName ?? "?",
  icon: (c as unknown as IconComponent).render({}, null).props.icon,
}));
const bot = ALL.find((i) => i.name === "Bot")!.icon;

const VARIANTS: Record<string, unknown>[] = [
  {},
  { className: "size-4 shrink-0", "aria-hidden": true },
  { className: "size-5 text-primary", "aria-hidden": "true" },
  { size: 20, strokeWidth: 1.5, color: "#ff0000", absoluteStrokeWidth: true },
  { "aria-label": 'Close <menu> & "more"' },
  { nonScalingStroke: true, className: "x" },
];

/** `el` inside a LucideProvider that sets a size, as an app would. */
const provided = (el: ReturnType<typeof createElement>) => <LucideProvider size={40}>{el}</LucideProvider>;

describe("cached lucide icon", () => {
  it("writes lucide's own markup for every icon, first render and cached", () => {
    expect(ALL.length).toBeGreaterThan(1000);
    const differences: string[] = [];
    let compared = 0;
    // Every icon with the props the app passes; every prop variant on every 25th icon.
    ALL.forEach(({ name, icon }, i) => {
      for (const props of i % 25 === 0 ? VARIANTS : VARIANTS.slice(0, 2)) {
        const expected = renderToStaticMarkup(createElement(LucideIcon, { icon, ...props }));
        for (const pass of ["first", "cached"]) {
          const actual = renderToStaticMarkup(createElement(CachedIcon, { icon, ...props }));
          if (actual !== expected) differences.push(`${name} ${JSON.stringify(props)} ${pass}: ${actual} != ${expected}`);
          compared++;
        }
      }
    });
    expect(differences).toEqual([]);
    expect(compared).toBeGreaterThan(ALL.length * 4);
    // Thousands of renders: more than Vitest's default 5 s on a busy machine.
  }, 120_000);

  it("renders children and provider values through lucide", () => {
    const icon = bot;
    const withTitle = createElement(CachedIcon, { icon }, createElement("title", null, "Robot"));
    expect(renderToStaticMarkup(withTitle)).toContain("<title>Robot</title>");
    expect(renderToStaticMarkup(provided(createElement(CachedIcon, { icon })))).toBe(
      renderToStaticMarkup(provided(createElement(LucideIcon, { icon }))),
    );
    expect(renderToStaticMarkup(provided(createElement(CachedIcon, { icon })))).toContain('width="40"');
  });

  it("keeps a function prop out of the cache and on the element", () => {
    const icon = bot;
    const markup = renderToStaticMarkup(createElement(CachedIcon, { icon, onClick: () => {}, className: "a" }));
    expect(markup).toBe(renderToStaticMarkup(createElement(LucideIcon, { icon, onClick: () => {}, className: "a" })));
  });
});
