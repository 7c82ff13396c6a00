// @ts-check
import { createServer } from "node:http";
import { Stripe } from "stripe";

/**
 * A local stand-in for the Stripe API: the official SDK is pointed at it (STRIPE_API_URL), so tests
 * see the exact requests the provider sends and Stripe answers with objects shaped like the real ones.
 * Only the endpoints the app uses exist; anything else answers 404 like Stripe.
 *
 * One module for the Vitest integration tests (TypeScript, through these JSDoc types) and the plain
 * node scripts of tests/reliability (run as they are, so it is JavaScript).
 */

/**
 * @typedef {Record<string, any>} Obj A Stripe object as JSON: tests read and change its fields freely.
 */

/**
 * @typedef {object} RecordedRequest
 * @property {string} method
 * @property {string} path
 * @property {URLSearchParams} query
 * @property {import("node:http").IncomingMessage["headers"]} headers
 * @property {Obj} body The form body decoded into nested objects and arrays (Stripe's bracket encoding).
 */

/**
 * Decodes `a[b][0][c]=1` form fields into `{ a: { b: [{ c: "1" }] } }`.
 * @param {string} raw
 * @returns {Obj}
 */
function decodeStripeForm(raw) {
  /** @type {Obj} */
  const root = {};
  for (const [key, value] of new URLSearchParams(raw)) {
    const parts = key.replace(/\]/g, "").split("[");
    let node = root;
    parts.forEach((part, i) => {
      if (i === parts.length - 1) node[part] = value;
      else node = node[part] ??= {};
    });
  }
  /** @type {(value: unknown) => unknown} */
  const arrays = (value) => {
    if (value === null || typeof value !== "object") return value;
    const entries = Object.entries(value).map(([k, v]) => /** @type {const} */ ([k, arrays(v)]));
    if (entries.length > 0 && entries.every(([k], i) => k === String(i))) return entries.map(([, v]) => v);
    return Object.fromEntries(entries);
  };
  return /** @type {Obj} */ (arrays(root));
}

/**
 * @typedef {object} FakeStripe
 * @property {string} url
 * @property {RecordedRequest[]} requests
 * @property {Map<string, Obj>} sessions
 * @property {Map<string, Obj>} subscriptions Subscriptions `pay` started, answered when a session is
 *   retrieved with `expand[]=subscription` and by `GET /v1/subscriptions/:id`; `POST` with
 *   `trial_end=now` ends a trial.
 * @property {Map<string, Obj[]>} refunds Refunds `GET /v1/refunds?charge=` answers, per charge id.
 * @property {Map<string, string>} invoiceOfPaymentIntent Invoice ids `GET /v1/invoice_payments`
 *   answers, per payment intent id.
 * @property {Map<string, Obj>} paymentIntents PaymentIntents `pay` made for payment-mode sessions:
 *   'requires_capture' when the session asked for `capture_method: manual`, else 'succeeded'.
 *   Answered by `GET /v1/payment_intents/:id`, embedded in a session retrieved with
 *   `expand[]=payment_intent`, and moved by `/capture` and `/cancel`.
 * @property {boolean} captureAtOnce Pays one-time sessions as Stripe did before one-time trials
 *   asked for a manual capture (a session still open from before then): captured at once, the
 *   session 'paid'. For tests of that path, and the reliability scripts' payments.
 * @property {Set<string>} captureRefused Intents whose next capture Stripe refuses (the
 *   authorisation lapsed): the intent becomes 'canceled'.
 * @property {Map<string, Obj>} charges Charges `GET /v1/charges/:id` answers (and a dispute's
 *   `expand[]=charge`).
 * @property {Map<string, Obj>} disputes Disputes `GET /v1/disputes/:id` answers; change one's
 *   `status` as Stripe would.
 * @property {(n?: number, pathPrefix?: string) => void} failNext The next `n` requests answer 500 (a
 *   Stripe outage); with `pathPrefix`, only requests to paths that start with it (so a background
 *   job's request in the meantime does not use up the outage).
 * @property {Map<string, Obj>} products Catalogue Products by id (`POST /v1/products`, `GET` and `POST /v1/products/:id`).
 * @property {Map<string, Obj>} prices Prices by id; `GET /v1/prices?lookup_keys[]=` finds them by lookup key.
 * @property {Map<string, Obj>} invoices Invoices a plan change made (`POST /v1/subscriptions/:id` with items), by id.
 * @property {boolean} declineNextPlanChange The next plan change's proration payment is declined
 *   (Stripe answers 402 and changes nothing).
 * @property {(sessionId: string, changes?: Obj) => Obj} pay Completes a session as Stripe does once
 *   the buyer pays (ids for customer, payment, subscription).
 * @property {() => Promise<void>} close
 */

let counter = 0;
/** @param {string} prefix */
const nextId = (prefix) => `${prefix}_fake${Date.now().toString(36)}${(++counter).toString(36)}`;

/**
 * Starts the stand-in and points the app at it: test keys, `webhookSecret` for the signatures.
 * @param {string} webhookSecret
 * @returns {Promise<FakeStripe>}
 */
export async function startFakeStripeForApp(webhookSecret) {
  const stripe = await startFakeStripe();
  process.env.STRIPE_SECRET_KEY = "sk_test_fake_key";
  process.env.STRIPE_WEBHOOK_SECRET = webhookSecret;
  process.env.STRIPE_API_URL = stripe.url;
  return stripe;
}

/** @returns {Promise<FakeStripe>} */
export async function startFakeStripe() {
  /** @type {RecordedRequest[]} */
  const requests = [];
  /** @type {Map<string, Obj>} */
  const sessions = new Map();
  /** @type {Map<string, Obj>} */
  const idempotent = new Map();
  /** @type {Map<string, Obj[]>} */
  const refunds = new Map();
  /** @type {Map<string, string>} */
  const invoiceOfPaymentIntent = new Map();
  /** @type {Map<string, Obj>} */
  const charges = new Map();
  /** @type {Map<string, Obj>} */
  const disputes = new Map();
  /** @type {Map<string, Obj>} */
  const subscriptions = new Map();
  /** @type {Map<string, number>} */
  const trialDaysOf = new Map();
  /** @type {Set<string>} */
  const manualCapture = new Set();
  /** @type {Map<string, Obj>} */
  const paymentIntents = new Map();
  /** @type {Set<string>} */
  const captureRefused = new Set();
  let failures = 0;
  let failingPath = "";
  const catalogue = catalogueState();

  /** @type {(body: Obj) => Obj} */
  const createSession = (body) => {
    /** @type {Obj[]} */
    const lineItems = body.line_items ?? [];
    const trial = Boolean(body.subscription_data?.trial_period_days);
    // Like Stripe: during a trial the recurring price is free today; one-time items are charged.
    const amountTotal = lineItems.reduce((sum, item) => {
      const price = item.price_data ?? catalogue.prices.get(String(item.price));
      if (trial && price.recurring) return sum;
      return sum + Number(price.unit_amount) * Number(item.quantity ?? 1);
    }, 0);
    const id = nextId("cs_test");
    catalogue.sessionPrice.set(id, catalogue.recurringPriceOf(lineItems));
    trialDaysOf.set(id, Number(body.subscription_data?.trial_period_days ?? 0));
    if (body.payment_intent_data?.capture_method === "manual") manualCapture.add(id);
    return {
      id,
      object: "checkout.session",
      mode: body.mode,
      status: "open",
      payment_status: "unpaid",
      amount_total: amountTotal,
      currency: (lineItems[0]?.price_data ?? catalogue.prices.get(String(lineItems[0]?.price)))?.currency ?? "usd",
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
  };

  /**
   * One `if (method === … && path …)` block per endpoint, answering `[status, body]`.
   * @type {(req: RecordedRequest) => Answer}
   */
  const route = (req) => {
    const handled = catalogue.route(req, subscriptions, api);
    if (handled) return handled;
    const { method, path } = req;
    if (method === "POST" && path === "/v1/checkout/sessions") {
      const key = String(req.headers["idempotency-key"] ?? "");
      const existing = key ? idempotent.get(key) : undefined;
      if (existing) return [200, existing];
      const session = createSession(req.body);
      sessions.set(String(session.id), session);
      if (key) idempotent.set(key, session);
      return [200, session];
    }
    const sessionMatch = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(path);
    if (method === "GET" && sessionMatch) {
      const session = sessions.get(decodeURIComponent(sessionMatch[1] ?? ""));
      if (!session) return notFound("checkout.session");
      const expand = [...req.query].filter(([k]) => k.startsWith("expand")).map(([, v]) => v);
      const subscription = typeof session.subscription === "string" ? subscriptions.get(session.subscription) : undefined;
      const intent = typeof session.payment_intent === "string" ? paymentIntents.get(session.payment_intent) : undefined;
      return [
        200,
        {
          ...session,
          ...(expand.includes("subscription") && subscription ? { subscription } : {}),
          ...(expand.includes("payment_intent") && intent ? { payment_intent: intent } : {}),
        },
      ];
    }
    const subscriptionMatch = /^\/v1\/subscriptions\/([^/]+)$/.exec(path);
    if (method === "GET" && subscriptionMatch) {
      const subscription = subscriptions.get(decodeURIComponent(subscriptionMatch[1] ?? ""));
      return subscription ? [200, subscription] : notFound("subscription");
    }
    if (method === "POST" && subscriptionMatch) {
      const subscription = subscriptions.get(decodeURIComponent(subscriptionMatch[1] ?? ""));
      if (!subscription) return notFound("subscription");
      if (req.body.trial_end === "now") {
        // Stricter than Stripe on purpose: the provider must only end a trial that is still running.
        if (subscription.status !== "trialing")
          return [400, { error: { type: "invalid_request_error", message: "The subscription is not trialing" } }];
        const now = Math.floor(Date.now() / 1000);
        const item = subscription.items.data[0];
        Object.assign(subscription, { status: "active", trial_end: now });
        item.current_period_end = now + 30 * 86_400;
      }
      return [200, subscription];
    }
    if (method === "DELETE" && subscriptionMatch) {
      const subscription = subscriptions.get(decodeURIComponent(subscriptionMatch[1] ?? ""));
      if (!subscription || subscription.status === "canceled") return notFound("subscription");
      subscription.status = "canceled";
      return [200, subscription];
    }
    /**
     * @param {string} rawId
     * @returns {Answer}
     */
    function chargeIntent(rawId) {
      const id = decodeURIComponent(rawId);
      const charge = [...charges.values()].find((c) => c.payment_intent === id);
      if (!charge) return notFound("payment_intent");
      const expand = [...req.query].filter(([k]) => k.startsWith("expand")).map(([, v]) => v);
      return [
        200,
        {
          id,
          object: "payment_intent",
          status: "succeeded",
          latest_charge: expand.includes("latest_charge") ? charge : charge.id,
        },
      ];
    }
    const intentMatch = /^\/v1\/payment_intents\/([^/]+)(?:\/(capture|cancel))?$/.exec(path);
    if (intentMatch) {
      const intent = paymentIntents.get(decodeURIComponent(intentMatch[1] ?? ""));
      const action = intentMatch[2];
      // An intent `pay` did not make (a charge set up by a test) is answered from its charge (chargeIntent).
      if (!intent && action) return notFound("payment_intent");
      if (intent && method === "GET" && !action) {
        const charge = [...charges.values()].find((c) => c.payment_intent === intent.id);
        const expand = [...req.query].filter(([k]) => k.startsWith("expand")).map(([, v]) => v);
        return [200, { ...intent, latest_charge: charge ? (expand.includes("latest_charge") ? charge : charge.id) : null }];
      }
      if (!intent) return chargeIntent(intentMatch[1] ?? "");
      if (method === "POST" && action === "capture") {
        if (intent.status !== "requires_capture") return unexpectedState(intent, "captured");
        if (captureRefused.delete(String(intent.id))) {
          Object.assign(intent, { status: "canceled", amount_capturable: 0, cancellation_reason: "automatic" });
          return [
            400,
            { error: { type: "invalid_request_error", code: "charge_expired_for_capture", message: "The charge has expired." } },
          ];
        }
        Object.assign(intent, { status: "succeeded", amount_received: intent.amount, amount_capturable: 0 });
        return [200, intent];
      }
      if (method === "POST" && action === "cancel") {
        if (intent.status !== "requires_capture") return unexpectedState(intent, "canceled");
        Object.assign(intent, { status: "canceled", amount_capturable: 0, cancellation_reason: "requested_by_customer" });
        return [200, intent];
      }
    }
    if (method === "POST" && path === "/v1/billing_portal/sessions") {
      const id = nextId("bps");
      return [
        200,
        {
          id,
          object: "billing_portal.session",
          customer: req.body.customer,
          return_url: req.body.return_url,
          url: `https://billing.stripe.test/p/session/${id}`,
        },
      ];
    }
    if (method === "POST" && path === "/v1/refunds") {
      const key = String(req.headers["idempotency-key"] ?? "");
      const existing = key ? idempotent.get(key) : undefined;
      if (existing) return [200, existing];
      const charge = [...charges.values()].find((c) => c.payment_intent === req.body.payment_intent);
      if (!charge) return notFound("payment_intent");
      const amount = Number(req.body.amount ?? Number(charge.amount) - Number(charge.amount_refunded ?? 0));
      if (amount > Number(charge.amount) - Number(charge.amount_refunded ?? 0))
        return [
          400,
          {
            error: {
              type: "invalid_request_error",
              code: "amount_too_large",
              message: "Refund amount is greater than unrefunded amount on charge",
            },
          },
        ];
      charge.amount_refunded = Number(charge.amount_refunded ?? 0) + amount;
      const refund = {
        id: nextId("re"),
        object: "refund",
        amount,
        currency: charge.currency ?? "usd",
        status: "succeeded",
        charge: charge.id,
        payment_intent: charge.payment_intent,
        reason: req.body.reason ?? null,
        metadata: req.body.metadata ?? {},
      };
      refunds.set(String(charge.id), [...(refunds.get(String(charge.id)) ?? []), refund]);
      if (key) idempotent.set(key, refund);
      return [200, refund];
    }
    if (method === "GET" && path === "/v1/refunds") {
      const data = refunds.get(req.query.get("charge") ?? "") ?? [];
      return [200, { object: "list", data, has_more: false, url: "/v1/refunds" }];
    }
    const chargeMatch = /^\/v1\/charges\/([^/]+)$/.exec(path);
    if (method === "GET" && chargeMatch) {
      const charge = charges.get(decodeURIComponent(chargeMatch[1] ?? ""));
      return charge ? [200, charge] : notFound("charge");
    }
    const disputeMatch = /^\/v1\/disputes\/([^/]+)$/.exec(path);
    if (method === "GET" && disputeMatch) {
      const dispute = disputes.get(decodeURIComponent(disputeMatch[1] ?? ""));
      if (!dispute) return notFound("dispute");
      const expand = [...req.query].filter(([k]) => k.startsWith("expand")).map(([, v]) => v);
      const charge = typeof dispute.charge === "string" ? charges.get(dispute.charge) : undefined;
      return [200, expand.includes("charge") && charge ? { ...dispute, charge } : dispute];
    }
    if (method === "GET" && path === "/v1/invoice_payments") {
      const byInvoice = req.query.get("invoice");
      const paymentIntent = byInvoice
        ? [...invoiceOfPaymentIntent].find(([, invoice]) => invoice === byInvoice)?.[0]
        : (req.query.get("payment[payment_intent]") ?? "");
      const invoice = byInvoice ?? invoiceOfPaymentIntent.get(paymentIntent ?? "");
      const data =
        invoice && paymentIntent
          ? [
              {
                id: nextId("inpay"),
                object: "invoice_payment",
                invoice,
                status: "paid",
                payment: { type: "payment_intent", payment_intent: paymentIntent },
              },
            ]
          : [];
      return [200, { object: "list", data, has_more: false, url: "/v1/invoice_payments" }];
    }
    return notFound("route");
  };

  const server = createServer((req, res) => {
    /** @type {Buffer[]} */
    const chunks = [];
    req.on("data", (/** @type {Buffer} */ c) => chunks.push(c));
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "http://fake-stripe");
      const raw = Buffer.concat(chunks).toString("utf8");
      /** @type {RecordedRequest} */
      const recorded = {
        method: req.method ?? "GET",
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        body: decodeStripeForm(raw),
      };
      requests.push(recorded);
      /** @type {number} */
      let status;
      /** @type {unknown} */
      let payload;
      if (failures > 0 && recorded.path.startsWith(failingPath)) {
        failures -= 1;
        [status, payload] = [500, { error: { type: "api_error", message: "Fake outage" } }];
      } else [status, payload] = route(recorded);
      res.writeHead(status, { "content-type": "application/json", "request-id": nextId("req") });
      res.end(JSON.stringify(payload));
    });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(undefined)));
  const { port } = /** @type {import("node:net").AddressInfo} */ (server.address());

  /** @type {FakeStripe} */
  const api = {
    url: `http://127.0.0.1:${port}`,
    requests,
    sessions,
    subscriptions,
    refunds,
    invoiceOfPaymentIntent,
    paymentIntents,
    captureRefused,
    captureAtOnce: false,
    charges,
    disputes,
    products: catalogue.products,
    prices: catalogue.prices,
    invoices: catalogue.invoices,
    declineNextPlanChange: false,
    failNext(n = 1, pathPrefix = "") {
      failures = n;
      failingPath = pathPrefix;
    },
    pay(sessionId, changes = {}) {
      const session = sessions.get(sessionId);
      if (!session) throw new Error(`fake stripe: no session ${sessionId}`);
      const subscription = session.mode === "subscription";
      const subscriptionId = subscription ? nextId("sub") : null;
      if (subscriptionId) {
        const trialDays = trialDaysOf.get(sessionId) ?? 0;
        const periodEnd = Math.floor(Date.now() / 1000) + (trialDays > 0 ? trialDays : 30) * 86_400 + 3_600;
        subscriptions.set(subscriptionId, {
          id: subscriptionId,
          object: "subscription",
          status: trialDays > 0 ? "trialing" : "active",
          trial_end: trialDays > 0 ? periodEnd : null,
          cancel_at_period_end: false,
          cancel_at: null,
          items: {
            object: "list",
            data: [
              {
                id: `si_${subscriptionId}`,
                object: "subscription_item",
                current_period_end: periodEnd,
                current_period_start: Math.floor(Date.now() / 1000),
                price: catalogue.sessionPrice.get(sessionId) ?? null,
              },
            ],
          },
          metadata: session.metadata ?? {},
          latest_invoice: null,
        });
      }
      const intentId = subscription ? null : nextId("pi");
      const held = manualCapture.has(sessionId) && !api.captureAtOnce;
      if (intentId) {
        const amount = Number(session.amount_total);
        paymentIntents.set(intentId, {
          id: intentId,
          object: "payment_intent",
          amount,
          amount_capturable: held ? amount : 0,
          amount_received: held ? 0 : amount,
          capture_method: held ? "manual" : "automatic",
          currency: session.currency,
          status: held ? "requires_capture" : "succeeded",
          metadata: session.metadata,
        });
      }
      const chargeId = intentId ? nextId("ch") : null;
      if (intentId && chargeId) {
        charges.set(chargeId, {
          id: chargeId,
          object: "charge",
          amount: session.amount_total,
          amount_refunded: 0,
          currency: session.currency,
          customer: session.customer ?? null,
          payment_intent: intentId,
          disputed: false,
        });
      }
      Object.assign(session, {
        status: "complete",
        // Like Stripe: a held (manually captured) payment leaves the session unpaid until it is captured.
        payment_status: session.amount_total === 0 ? "no_payment_required" : held ? "unpaid" : "paid",
        customer: session.customer ?? nextId("cus"),
        subscription: subscriptionId,
        invoice: subscription ? nextId("in") : null,
        payment_intent: intentId,
        ...changes,
      });
      const charge = chargeId ? charges.get(chargeId) : undefined;
      if (charge) charge.customer = session.customer;
      return session;
    },
    // Keep-alive connections (the SDK's agent, node's fetch) would hold close() open.
    close: () =>
      new Promise((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve(undefined)));
      }),
  };
  return api;
}

/**
 * @typedef {[number, unknown]} Answer An endpoint's answer: HTTP status and JSON body.
 */

/**
 * A capture or cancel of an intent in the wrong state, as Stripe refuses it.
 * @type {(intent: Obj, action: string) => Answer}
 */
const unexpectedState = (intent, action) => [
  400,
  {
    error: {
      type: "invalid_request_error",
      code: "payment_intent_unexpected_state",
      message: `This PaymentIntent could not be ${action} because it has a status of ${String(intent.status)}.`,
    },
  },
];

/**
 * @param {string} what
 * @returns {Answer}
 */
function notFound(what) {
  return [404, { error: { type: "invalid_request_error", code: "resource_missing", message: `No such ${what}` } }];
}

/**
 * A webhook delivery as Stripe sends it: JSON body and its Stripe-Signature header.
 * @param {string} secret
 * @param {{ id?: string; type: string; object: unknown; created?: number }} event
 * @param {{ timestamp?: number }} [opts]
 * @returns {{ body: string; signature: string; id: string }}
 */
export function signedEvent(secret, event, opts = {}) {
  const id = event.id ?? nextId("evt");
  const body = JSON.stringify({
    id,
    object: "event",
    api_version: Stripe.API_VERSION,
    created: event.created ?? Math.floor(Date.now() / 1000),
    type: event.type,
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    data: { object: event.object },
  });
  const signature = Stripe.webhooks.generateTestHeaderString({ payload: body, secret, timestamp: opts.timestamp });
  return { body, signature, id };
}

/**
 * @param {string} body
 * @param {string} [signature]
 * @returns {Request}
 */
export function webhookRequest(body, signature) {
  /** @type {Record<string, string>} */
  const headers = { "content-type": "application/json" };
  if (signature !== undefined) headers["stripe-signature"] = signature;
  return new Request("http://localhost:3000/api/webhooks/stripe", { method: "POST", headers, body });
}

/**
 * Catalogue Products and Prices, invoice previews and plan changes (subscription updates with
 * proration), kept apart from the handlers above: Products with our fixed ids, Prices found by
 * lookup key (a taken key is refused like Stripe does), `POST /v1/invoices/create_preview` and
 * `POST /v1/subscriptions/:id` with `items` prorating the rest of the period on each price, each
 * side rounded to the cent, and invoicing it at once ('always_invoice').
 */
const nowSeconds = () => Math.floor(Date.now() / 1000);

/** @type {(message: string, code?: string) => Answer} */
const invalid = (message, code) => [400, { error: { type: "invalid_request_error", message, ...(code ? { code } : {}) } }];

/**
 * @param {Obj} subscription
 * @param {Obj} newPrice
 * @param {number} at
 */
function proration(subscription, newPrice, at) {
  /** @type {Obj} */
  const item = subscription.items.data[0];
  const oldAmount = Number(item.price?.unit_amount ?? 0);
  const start = Number(item.current_period_start ?? at);
  const end = Number(item.current_period_end);
  const period = Math.max(1, end - start);
  const remaining = Math.min(period, Math.max(0, end - at));
  const credit = Math.round((oldAmount * remaining) / period);
  const charge = Math.round((Number(newPrice.unit_amount) * remaining) / period);
  return { item, credit, charge, total: charge - credit };
}

/**
 * @param {Obj} subscription
 * @param {number} total
 * @param {number} prorationDate
 * @param {Obj} metadata
 * @returns {Obj}
 */
function invoiceOf(subscription, total, prorationDate, metadata) {
  return {
    id: nextId("in"),
    object: "invoice",
    billing_reason: "subscription_update",
    total,
    amount_due: Math.max(0, total),
    amount_paid: Math.max(0, total),
    currency: "usd",
    status: "paid",
    customer: subscription.customer ?? null,
    parent: {
      type: "subscription_details",
      subscription_details: { subscription: subscription.id, metadata, subscription_proration_date: prorationDate },
    },
  };
}

function catalogueState() {
  /** @type {Map<string, Obj>} */
  const products = new Map();
  /** @type {Map<string, Obj>} */
  const prices = new Map();
  /** @type {Map<string, Obj>} */
  const invoices = new Map();
  /** @type {Map<string, Answer>} */
  const idempotent = new Map();
  /** The recurring Price (object) of each session's lines, given to the subscription `pay` starts. */
  /** @type {Map<string, Obj | null>} */
  const sessionPrice = new Map();

  /**
   * @param {Obj[]} lineItems
   * @returns {Obj | null}
   */
  function recurringPriceOf(lineItems) {
    for (const item of lineItems) {
      if (item.price) {
        const price = prices.get(String(item.price));
        if (price?.recurring) return price;
      } else if (item.price_data?.recurring) {
        const data = item.price_data;
        return {
          id: nextId("price"),
          object: "price",
          unit_amount: Number(data.unit_amount),
          currency: data.currency,
          recurring: data.recurring,
        };
      }
    }
    return null;
  }

  /**
   * @param {RecordedRequest} req
   * @param {Map<string, Obj>} subscriptions
   * @param {{ declineNextPlanChange: boolean }} api
   * @returns {Answer | null}
   */
  function route(req, subscriptions, api) {
    const { method, path } = req;
    const key = String(req.headers["idempotency-key"] ?? "");
    const remembered = method === "POST" && key ? idempotent.get(`${path} ${key}`) : undefined;
    if (remembered) return remembered;
    /** @type {(answer: Answer) => Answer} */
    const remember = (answer) => {
      if (key) idempotent.set(`${path} ${key}`, answer);
      return answer;
    };

    const productMatch = /^\/v1\/products\/([^/]+)$/.exec(path);
    if (method === "GET" && productMatch) {
      const product = products.get(decodeURIComponent(productMatch[1] ?? ""));
      return product ? [200, product] : notFound("product");
    }
    if (method === "POST" && productMatch) {
      const product = products.get(decodeURIComponent(productMatch[1] ?? ""));
      if (!product) return notFound("product");
      if (req.body.name !== undefined) product.name = req.body.name;
      return [200, product];
    }
    if (method === "POST" && path === "/v1/products") {
      const id = String(req.body.id ?? nextId("prod"));
      if (products.has(id)) return invalid(`Product already exists.`, "resource_already_exists");
      const product = { id, object: "product", active: true, name: req.body.name, metadata: req.body.metadata ?? {} };
      products.set(id, product);
      return remember([200, product]);
    }
    if (method === "GET" && path === "/v1/prices") {
      const keys = [...req.query].filter(([k]) => k.startsWith("lookup_keys")).map(([, v]) => v);
      const data = [...prices.values()].filter((p) => p.active && (keys.length === 0 || keys.includes(String(p.lookup_key))));
      return [200, { object: "list", data, has_more: false, url: "/v1/prices" }];
    }
    const priceMatch = /^\/v1\/prices\/([^/]+)$/.exec(path);
    if (method === "GET" && priceMatch) {
      const price = prices.get(decodeURIComponent(priceMatch[1] ?? ""));
      return price ? [200, price] : notFound("price");
    }
    if (method === "POST" && path === "/v1/prices") {
      const product = products.get(String(req.body.product));
      if (!product) return notFound("product");
      const lookupKey = req.body.lookup_key ? String(req.body.lookup_key) : null;
      if (lookupKey && [...prices.values()].some((p) => p.lookup_key === lookupKey))
        return invalid(`A price (\`${lookupKey}\`) already uses that lookup key.`);
      const recurring = req.body.recurring;
      const price = {
        id: nextId("price"),
        object: "price",
        active: true,
        product: product.id,
        currency: req.body.currency,
        unit_amount: Number(req.body.unit_amount),
        recurring: recurring ? { interval: recurring.interval } : null,
        type: recurring ? "recurring" : "one_time",
        lookup_key: lookupKey,
        metadata: req.body.metadata ?? {},
      };
      prices.set(price.id, price);
      return remember([200, price]);
    }
    if (method === "POST" && path === "/v1/invoices/create_preview") {
      const subscription = subscriptions.get(String(req.body.subscription));
      if (!subscription) return notFound("subscription");
      const details = req.body.subscription_details ?? {};
      const wanted = (details.items ?? [])[0];
      const price = prices.get(String(wanted?.price));
      if (!price) return notFound("price");
      const at = Number(details.proration_date ?? nowSeconds());
      const { total } = proration(subscription, price, at);
      return [
        200,
        {
          ...invoiceOf(subscription, total, at, subscription.metadata ?? {}),
          id: null,
          status: "draft",
          amount_paid: 0,
        },
      ];
    }
    const subscriptionMatch = /^\/v1\/subscriptions\/([^/]+)$/.exec(path);
    if (method === "POST" && subscriptionMatch && req.body.items) {
      const subscription = subscriptions.get(decodeURIComponent(subscriptionMatch[1] ?? ""));
      if (!subscription) return notFound("subscription");
      const wanted = req.body.items[0];
      const price = prices.get(String(wanted.price));
      if (!price) return notFound("price");
      const at = Number(req.body.proration_date ?? nowSeconds());
      const { item, total } = proration(subscription, price, at);
      if (String(wanted.id) !== item.id) return notFound("subscription_item");
      if (api.declineNextPlanChange) {
        api.declineNextPlanChange = false;
        // 'error_if_incomplete': the unpaid proration invoice refuses the whole update.
        return remember([
          402,
          {
            error: {
              type: "card_error",
              code: "card_declined",
              decline_code: "generic_decline",
              message: "Your card was declined.",
            },
          },
        ]);
      }
      const metadata = { ...subscription.metadata, ...req.body.metadata };
      const invoice = invoiceOf(subscription, total, at, metadata);
      invoices.set(String(invoice.id), invoice);
      Object.assign(item, { price });
      Object.assign(subscription, { metadata, latest_invoice: invoice.id });
      /** @type {string[]} */
      const expand = req.body.expand ?? [];
      return remember([200, { ...subscription, ...(expand.includes("latest_invoice") ? { latest_invoice: invoice } : {}) }]);
    }
    return null;
  }

  return { products, prices, invoices, sessionPrice, recurringPriceOf, route };
}
