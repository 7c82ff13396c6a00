import type { RouteConfigEntry } from "@react-router/dev/routes";
import { matchRoutes, type RouteObject } from "react-router";
import { UNSAFE_decodeViaTurboStream as decodeViaTurboStream } from "react-router";
import routeConfig from "../../../app/routes";

/**
 * The app's route table (app/routes.ts) as the framework sees it: every module with its route id
 * (its file without the extension, as React Router names it), its full path pattern and its
 * parents. Lets a spec enumerate the routes instead of copying the list, so a new route shows up.
 */
export interface AppRoute {
  id: string;
  file: string;
  /** Full pattern, e.g. `/checkout/local/:sessionId`, `/dashboard/*`; a pathless layout has its parent's. */
  path: string;
  index: boolean;
  /** Has children (a layout). */
  layout: boolean;
  /** Ids of the routes around it, outermost first (`root` included). */
  parents: string[];
}

const idOf = (file: string) => file.replace(/\.[^./]+$/, "");

function join(base: string, path: string | undefined) {
  if (!path) return base;
  return `${base.replace(/\/$/, "")}/${path}`;
}

function flatten(entries: RouteConfigEntry[], base: string, parents: string[], out: AppRoute[]) {
  for (const e of entries) {
    const id = e.id ?? idOf(e.file);
    const path = join(base, e.path);
    out.push({ id, file: e.file, path, index: Boolean(e.index), layout: Boolean(e.children?.length), parents });
    if (e.children) flatten(e.children, path, [...parents, id], out);
  }
  return out;
}

export const APP_ROUTES: AppRoute[] = flatten(routeConfig, "/", ["root"], []);

function toRouteObjects(entries: RouteConfigEntry[]): RouteObject[] {
  return entries.map((e) => {
    const id = e.id ?? idOf(e.file);
    if (e.index) return { id, index: true };
    return { id, path: e.path, children: e.children ? toRouteObjects(e.children) : undefined };
  });
}

const ROUTE_OBJECTS: RouteObject[] = [{ id: "root", path: "/", children: toRouteObjects(routeConfig) }];

/** Ids of the routes a URL renders, outermost (`root`) first; empty when nothing matches. */
export function matchedRouteIds(url: string): string[] {
  const { pathname } = new URL(url, "http://x");
  return (matchRoutes(ROUTE_OBJECTS, pathname) ?? []).map((m) => m.route.id!);
}

/**
 * The single-fetch data URL React Router's browser code requests for a page URL: `/x` -> `/x.data`,
 * `/` -> `/_.data`, the query string kept; `routes` adds `_routes=` (only those loaders run).
 */
export function dataUrl(pageUrl: string, routes?: string[]): string {
  const url = new URL(pageUrl, "http://x");
  url.pathname = url.pathname === "/" ? "/_.data" : url.pathname.endsWith("/") ? `${url.pathname}_.data` : `${url.pathname}.data`;
  if (routes) url.searchParams.set("_routes", routes.join(","));
  return url.pathname + url.search;
}

/**
 * The redirect a single-fetch (`.data`) answer carries (status 202), or null: a loader's is wrapped in
 * a SingleFetchRedirect, an action's is a plain `{ redirect, status, … }`.
 */
export function dataRedirect(body: string): string | null {
  const m = body.match(/^\[(?:\["SingleFetchRedirect",\d+\],)?\{[^}]*\},"redirect","((?:[^"\\]|\\.)*)"/);
  return m ? (JSON.parse(`"${m[1]}"`) as string) : null;
}

/** A `.data` body decoded like the browser does: `{ [routeId]: { data } | { error } }`. */
export async function decodeData(body: string): Promise<Record<string, { data?: unknown; error?: unknown }>> {
  const decoded = await decodeViaTurboStream(new Response(body).body!, globalThis as unknown as Window);
  await decoded.done;
  return decoded.value as Record<string, { data?: unknown; error?: unknown }>;
}
