import { createElement, useEffect, type ComponentType } from "react";
import { hydrateRoot } from "react-dom/client";
import { NavBarIsland } from "~/components/NavBar";
import { Ticker } from "~/components/Ticker";
import { AssistantDemo } from "~/components/marketing/AssistantDemo";
import { ReviewCarousel } from "~/components/marketing/ReviewCarousel";
import type { IslandName } from "~/lib/islands";

/**
 * The only script of an islands page's document (docs/decisions/0019): React hydrates each
 * <Island> of the server-rendered page on its own root. No React Router is loaded: links in the
 * page are plain links, and a click loads the next page as a document.
 */
// Each island takes its own props; the server wrote them into data-props from the same component.
const ISLANDS: Record<IslandName, ComponentType<never>> = {
  nav: NavBarIsland,
  ticker: Ticker,
  demo: AssistantDemo,
  reviews: ReviewCarousel,
};

const roots = [...document.querySelectorAll<HTMLElement>("[data-island]")];
let pending = roots.length;

/** Marks the document once every island has hydrated, as root.tsx does for a whole page. */
function Hydrated({ children }: { children: React.ReactNode }) {
  useEffect(() => {
    pending -= 1;
    if (pending === 0) document.documentElement.dataset.hydrated = "true";
  }, []);
  return children;
}

for (const element of roots) {
  const Component = ISLANDS[element.dataset.island as IslandName];
  if (!Component) {
    pending -= 1;
    continue;
  }
  const props: object = JSON.parse(element.dataset.props ?? "{}");
  hydrateRoot(element, <Hydrated>{createElement(Component as ComponentType<object>, props)}</Hydrated>);
}
if (pending === 0) document.documentElement.dataset.hydrated = "true";
