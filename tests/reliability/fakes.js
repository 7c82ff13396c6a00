// Plain-JS stand-in for Mailchimp used by tests/reliability/cluster.js. It follows
// tests/integration/support/fake-mailchimp.ts (only what the cluster proof needs). Stripe's stand-in
// is the one the integration tests use: tests/support/fake-stripe.js.
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
