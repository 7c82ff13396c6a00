// Plain-JS stand-ins for Mailchimp and Stripe used by tests/reliability/cluster.js. They follow
// tests/integration/support/fake-mailchimp.ts and fake-stripe.ts (only what the cluster proof needs).
import { createServer } from "node:http";

function listen(server) {
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${server.address().port}`)));
}
async function readBody(req) {
  const chunks = [];
  for await (const c of req) chunks.push(c);
  return Buffer.concat(chunks).toString("utf8");
}
function send(res, status, body) {
  res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
}

/**
 * Mailchimp Marketing API stand-in: PUT /3.0/lists/{list}/members/{md5} (upsert, counted per member)
 * and POST .../tags. Each instance is given its own base path (`/via-a`, `/via-b`) so every request
 * is attributed to the instance whose worker sent it.
 */
export async function startFakeMailchimp({ apiKey, listId }) {
  const members = new Map(); // hash -> { email, puts, tagPosts }
  const byInstance = {};
  let puts = 0;
  let unauthorized = 0;
  const server = createServer(async (req, res) => {
    const text = await readBody(req);
    const m = /^\/(via-[a-z]+)(\/3\.0\/lists\/([^/]+)\/members\/([0-9a-f]{32})(\/tags)?)$/.exec(req.url ?? "");
    if (!m || m[3] !== listId) return send(res, 404, { title: "Resource Not Found", status: 404 });
    if (req.headers.authorization !== `Basic ${Buffer.from(`anystring:${apiKey}`).toString("base64")}`) {
      unauthorized++;
      return send(res, 401, { title: "API Key Invalid", status: 401 });
    }
    const [, via, , , hash, tags] = m;
    const body = text ? JSON.parse(text) : {};
    if (!tags && req.method === "PUT") {
      puts++;
      byInstance[via] = (byInstance[via] ?? 0) + 1;
      const member = members.get(hash) ?? { email: body.email_address, puts: 0, tagPosts: 0, via: [] };
      member.puts++;
      member.via.push(via);
      members.set(hash, member);
      return send(res, 200, { id: hash, email_address: body.email_address });
    }
    if (tags && req.method === "POST") {
      const member = members.get(hash);
      if (!member) return send(res, 404, { title: "Resource Not Found", status: 404 });
      member.tagPosts++;
      res.writeHead(204).end();
      return;
    }
    return send(res, 405, { title: "Method Not Allowed", status: 405 });
  });
  const url = await listen(server);
  return {
    url,
    members,
    byInstance,
    get puts() {
      return puts;
    },
    get unauthorized() {
      return unauthorized;
    },
    close: () => new Promise((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}

/** Decodes Stripe's bracket form encoding `a[b][0][c]=1` into nested objects and arrays. */
export function decodeStripeForm(raw) {
  const root = {};
  for (const [key, value] of new URLSearchParams(raw)) {
    const parts = key.replace(/\]/g, "").split("[");
    let node = root;
    parts.forEach((part, i) => {
      if (i === parts.length - 1) node[part] = value;
      else node = node[part] ??= {};
    });
  }
  const arrays = (value) => {
    if (value === null || typeof value !== "object") return value;
    const entries = Object.entries(value).map(([k, v]) => [k, arrays(v)]);
    if (entries.length > 0 && entries.every(([k], i) => k === String(i))) return entries.map(([, v]) => v);
    return Object.fromEntries(entries);
  };
  return arrays(root);
}

let counter = 0;
const nextId = (prefix) => `${prefix}_rel${Date.now().toString(36)}${(++counter).toString(36)}`;

/**
 * Stripe API stand-in: creates checkout sessions (idempotency keys honoured) and answers their
 * retrieval; `pay(id)` completes a session as Stripe does once the buyer pays.
 */
export async function startFakeStripe() {
  const sessions = new Map();
  const idempotent = new Map();
  const requests = [];
  const catalogue = fakeCatalogue();
  const server = createServer(async (req, res) => {
    const raw = await readBody(req);
    const url = new URL(req.url ?? "/", "http://fake-stripe");
    requests.push(`${req.method} ${url.pathname}`);
    const handled = catalogue.route(req.method, url, decodeStripeForm(raw));
    if (handled) return send(res, handled[0], handled[1]);
    if (req.method === "POST" && url.pathname === "/v1/checkout/sessions") {
      const key = String(req.headers["idempotency-key"] ?? "");
      if (key && idempotent.has(key)) return send(res, 200, idempotent.get(key));
      const body = decodeStripeForm(raw);
      const lineItems = body.line_items ?? [];
      const trial = Boolean(body.subscription_data?.trial_period_days);
      const priceOf = (item) => item.price_data ?? catalogue.prices.get(String(item.price));
      const amountTotal = lineItems.reduce((sum, item) => {
        if (trial && priceOf(item).recurring) return sum;
        return sum + Number(priceOf(item).unit_amount) * Number(item.quantity ?? 1);
      }, 0);
      const id = nextId("cs_test");
      const session = {
        id,
        object: "checkout.session",
        mode: body.mode,
        status: "open",
        payment_status: "unpaid",
        amount_total: amountTotal,
        currency: (lineItems[0] ? priceOf(lineItems[0]) : undefined)?.currency ?? "usd",
        client_reference_id: body.client_reference_id ?? null,
        metadata: body.metadata ?? {},
        customer: body.customer ?? null,
        customer_email: body.customer_email ?? null,
        subscription: null,
        payment_intent: null,
        invoice: null,
        success_url: body.success_url,
        cancel_url: body.cancel_url,
        url: `https://checkout.stripe.test/c/pay/${id}`,
        created: Math.floor(Date.now() / 1000),
      };
      sessions.set(id, session);
      if (key) idempotent.set(key, session);
      return send(res, 200, session);
    }
    const m = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(url.pathname);
    if (req.method === "GET" && m) {
      const session = sessions.get(decodeURIComponent(m[1]));
      if (!session) return send(res, 404, { error: { type: "invalid_request_error", message: "No such checkout.session" } });
      return send(res, 200, session);
    }
    return send(res, 404, { error: { type: "invalid_request_error", message: "No such route" } });
  });
  const url = await listen(server);
  return {
    url,
    sessions,
    requests,
    pay(id) {
      const session = sessions.get(id);
      if (!session) throw new Error(`fake stripe: no session ${id}`);
      if (session.mode !== "payment") throw new Error("fake stripe (reliability): only payment mode is supported");
      Object.assign(session, {
        status: "complete",
        payment_status: session.amount_total === 0 ? "no_payment_required" : "paid",
        customer: session.customer ?? nextId("cus"),
        payment_intent: nextId("pi"),
      });
      return session;
    },
    close: () => new Promise((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}

/**
 * The catalogue Products and Prices checkouts name (Prices found by lookup key, created when
 * missing), apart from the session handlers above. Answers null for any other request.
 */
const catalogueNotFound = (what) => [
  404,
  { error: { type: "invalid_request_error", code: "resource_missing", message: `No such ${what}` } },
];

function fakeCatalogue() {
  const products = new Map();
  const prices = new Map();
  function route(method, url, body) {
    const product = /^\/v1\/products\/([^/]+)$/.exec(url.pathname);
    if (method === "GET" && product) {
      const found = products.get(decodeURIComponent(product[1]));
      return found ? [200, found] : catalogueNotFound("product");
    }
    if (method === "POST" && url.pathname === "/v1/products") {
      const id = String(body.id ?? nextId("prod"));
      if (!products.has(id)) products.set(id, { id, object: "product", name: body.name, metadata: body.metadata ?? {} });
      return [200, products.get(id)];
    }
    if (method === "GET" && url.pathname === "/v1/prices") {
      const keys = [...url.searchParams].filter(([k]) => k.startsWith("lookup_keys")).map(([, v]) => v);
      const data = [...prices.values()].filter((p) => keys.length === 0 || keys.includes(p.lookup_key));
      return [200, { object: "list", data, has_more: false, url: "/v1/prices" }];
    }
    if (method === "POST" && url.pathname === "/v1/prices") {
      const existing = [...prices.values()].find((p) => body.lookup_key && p.lookup_key === body.lookup_key);
      if (existing) return [200, existing];
      const price = {
        id: nextId("price"),
        object: "price",
        active: true,
        product: body.product,
        currency: body.currency,
        unit_amount: Number(body.unit_amount),
        recurring: body.recurring ? { interval: body.recurring.interval } : null,
        lookup_key: body.lookup_key ?? null,
      };
      prices.set(price.id, price);
      return [200, price];
    }
    return null;
  }
  return { prices, route };
}
