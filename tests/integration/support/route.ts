/**
 * Calling a route module's loader or action directly, as React Router would: its arguments, and what
 * it answered, whichever way it answered (data() with a status, a plain object, a returned Response
 * or a thrown one: a redirect, and a thrown data(): a 404 or 403).
 *
 * An answer's own fields are its status and body, so tests compare it whole with toEqual; its
 * headers and a redirect's target are read through getters.
 */
export class RouteAnswer<B> {
  readonly #headers: Headers;

  constructor(
    readonly status: number,
    /** The data a loader or action returned; null for a Response. */
    readonly body: B | null,
    headers: Headers,
  ) {
    this.#headers = headers;
  }

  get headers(): Headers {
    return this.#headers;
  }

  /** A redirect's target. */
  get location(): string | null {
    return this.#headers.get("location");
  }
}

/** What `data()` makes (returned, or thrown as a 404 or 403). */
const isData = (value: unknown) => !!value && typeof value === "object" && "init" in value && "data" in value;

export async function routeAnswer<B = Record<string, unknown>>(run: unknown): Promise<RouteAnswer<B>> {
  let result: unknown;
  try {
    result = await run;
  } catch (thrown) {
    if (!(thrown instanceof Response) && !isData(thrown)) throw thrown;
    result = thrown;
  }
  if (result instanceof Response) return new RouteAnswer<B>(result.status, null, result.headers);
  if (isData(result)) {
    const { data, init } = result as { data: B; init: ResponseInit | null };
    return new RouteAnswer(init?.status ?? 200, data, new Headers(init?.headers));
  }
  return new RouteAnswer(200, result as B, new Headers());
}

/** A loader's or action's arguments for `request` (and the route's `params`). */
export const routeArgs = (request: Request, params: Record<string, string> = {}) =>
  ({ request, url: new URL(request.url), params, context: {} }) as never;

/** The site the route tests' requests are addressed to (the test server's default origin). */
export const SITE = "http://localhost:3000";

/**
 * Requests as a browser sends them: a GET with the session's cookie (none when empty), and a form
 * POST from the site's own origin and from `clientIp` (per-address limits key on it).
 */
export function siteRequests(clientIp: string) {
  return {
    get: (cookie: string, path: string) => new Request(`${SITE}${path}`, { headers: cookie ? { cookie } : {} }),
    post: (cookie: string, path: string, form: Record<string, string>) =>
      new Request(`${SITE}${path}`, {
        method: "POST",
        headers: { origin: SITE, "content-type": "application/x-www-form-urlencoded", cookie, "x-client-ip": clientIp },
        body: new URLSearchParams(form),
      }),
  };
}
