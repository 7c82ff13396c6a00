import http from "node:http";
import type { AddressInfo } from "node:net";
import { freshIp } from "./loopback";

/**
 * An HTTP proxy on 127.0.0.1 that sends a browser context's requests to the test server from a
 * loopback address of its own (see loopback.ts: the server's per-IP limits key on the socket
 * address). Pass `proxy` to `browser.newContext({ proxy })`; the page still talks to
 * http://localhost:PORT, so origins and cookies are the site's. Anything not for that server is
 * refused. Setting `ip` sends the requests that follow from that address.
 */
export async function ipProxy(site: string, ip = freshIp()) {
  const target = new URL(site);
  let source = ip;
  const server = http.createServer((req, res) => {
    let url: URL;
    try {
      url = new URL(req.url ?? "");
    } catch {
      url = new URL("http://invalid/");
    }
    if (url.host !== target.host) {
      res.writeHead(502).end();
      return;
    }
    const headers = { ...req.headers };
    delete headers["proxy-connection"];
    const upstream = http.request(
      {
        host: "127.0.0.1",
        port: target.port,
        localAddress: source,
        method: req.method,
        path: url.pathname + url.search,
        headers,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.rawHeaders);
        answer.pipe(res);
      },
    );
    upstream.on("error", () => res.destroy());
    // A request the browser abandons (a cancelled navigation) is abandoned upstream too.
    res.on("close", () => {
      if (!res.writableFinished) upstream.destroy();
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    get ip() {
      return source;
    },
    set ip(next: string) {
      source = next;
    },
    // Chromium sends loopback requests around a proxy unless told not to.
    proxy: { server: `http://127.0.0.1:${port}`, bypass: "<-loopback>" },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
