import type { NextFunction, Request, Response } from "express";
import { LRUCache } from "lru-cache";
import type { ServerBuild } from "react-router";
import { labelRoute } from "../logger.server.js";
import { deepestRoute } from "./deepest-route.server";

/**
 * The pattern of each route of a build, from the root: `/apps/:slug`, `/dashboard/billing`, `/*`.
 * Log lines and metric labels name a request by this, never by its URL (URLs are unbounded).
 */
export function routePatterns(build: Pick<ServerBuild, "routes">): Map<string, string> {
  const patterns = new Map<string, string>();
  const patternOf = (id: string): string => {
    const known = patterns.get(id);
    if (known !== undefined) return known;
    const route = build.routes[id];
    if (!route) return "";
    const parent = route.parentId ? patternOf(route.parentId) : "";
    const own = route.path ? route.path.replace(/^\/+/, "") : "";
    const pattern = own ? `${parent.replace(/\/+$/, "")}/${own}` : parent;
    patterns.set(id, pattern);
    return pattern;
  };
  for (const id of Object.keys(build.routes)) patternOf(id);
  return new Map([...patterns].map(([id, pattern]) => [id, pattern || "/"]));
}

/**
 * The route pattern a pathname renders, or "unmatched". Paths are remembered (bounded): matching
 * costs more than a cache hit.
 */
export function routeLabeller(build: Pick<ServerBuild, "routes" | "basename">): (pathname: string) => string {
  const routeOf = deepestRoute(build);
  const patterns = routePatterns(build);
  const known = new LRUCache<string, string>({ max: 1_000 });
  return (pathname) => {
    let label = known.get(pathname);
    if (label === undefined) {
      const leaf = routeOf(pathname);
      label = leaf ? (patterns.get(leaf.id) ?? "unmatched") : "unmatched";
      known.set(pathname, label);
    }
    return label;
  };
}

/** Express middleware: names the route of each request for its log line and metrics. */
export function labelRoutes(build: Pick<ServerBuild, "routes" | "basename">) {
  const labelOf = routeLabeller(build);
  return (req: Request, res: Response, next: NextFunction) => {
    labelRoute(res, labelOf(req.path));
    next();
  };
}
