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
export function decodeStripeForm(raw) {
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
 * @property {(n?: number) => void} failNext The next `n` requests answer 500 (a Stripe outage).
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

  /** @type {(body: Obj) => Obj} */
  const createSession = (body) => {
    /** @type {Obj[]} */
    const lineItems = body.line_items ?? [];
    const trial = Boolean(body.subscription_data?.trial_period_days);
    // Like Stripe: during a trial the recurring price is free today; one-time items are charged.
    const amountTotal = lineItems.reduce((sum, item) => {
      const price = item.price_data;
      if (trial && price.recurring) return sum;
      return sum + Number(price.unit_amount) * Number(item.quantity ?? 1);
    }, 0);
    const id = nextId("cs_test");
    trialDaysOf.set(id, Number(body.subscription_data?.trial_period_days ?? 0));
    if (body.payment_intent_data?.capture_method === "manual") manualCapture.add(id);
    return {
      id,
      object: "checkout.session",
      mode: body.mode,
      status: "open",
      payment_status: "unpaid",
      amount_total: amountTotal,
      currency: lineItems[0]?.price_data?.currency ?? "usd",
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
      if (failures > 0) {
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
    failNext(n = 1) {
      failures = n;
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
            data: [{ id: `si_${subscriptionId}`, object: "subscription_item", current_period_end: periodEnd }],
          },
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
