import { matchRoutes, type RouteObject, type ServerBuild } from "react-router";

type BuildRoute = NonNullable<ServerBuild["routes"][string]>;

/**
 * The deepest route of a React Router build a pathname matches, the route whose module answers it
 * (its loader, action and handle), known before React Router runs.
 */
export function deepestRoute(build: Pick<ServerBuild, "routes" | "basename">): (pathname: string) => BuildRoute | undefined {
  const routes = Object.values(build.routes).filter((r) => r !== undefined);
  const tree = (parentId: string | undefined): RouteObject[] =>
    routes
      .filter((r) => r.parentId === parentId)
      .map((r) =>
        r.index
          ? { id: r.id, index: true, path: r.path, caseSensitive: r.caseSensitive }
          : { id: r.id, path: r.path, caseSensitive: r.caseSensitive, children: tree(r.id) },
      );
  const routeObjects = tree(undefined);
  return (pathname) => {
    const id = matchRoutes(routeObjects, pathname, build.basename)?.at(-1)?.route.id;
    return id === undefined ? undefined : build.routes[id];
  };
}
