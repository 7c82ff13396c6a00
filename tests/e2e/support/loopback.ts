import http from "node:http";
import { expect, test } from "@playwright/test";

/**
 * HTTP from a loopback source address of its own. The server keys its per-IP rate limits on the
 * socket address (it overwrites X-Client-Ip), and every browser and `request` call of a test run
 * comes from 127.0.0.1: a test that exhausts a limit, or signs up accounts it needs, would slow
 * every other test down. Binding the client socket to another 127.x.y.z address (all of 127/8 is
 * the loopback interface on Linux) gives a test a client IP, and rate-limit bucket, of its own.
 */
const byte = () => 1 + Math.floor(Math.random() * 253);

export function freshIp(): string {
  return `127.${byte()}.${byte()}.${byte()}`;
}

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  setCookies: string[];
  text: string;
  json<T = unknown>(): T;
}

export interface RawRequest {
  method?: string;
  /** A path on the test server, or an absolute URL on it (mail links). */
  path: string;
  /** Source address; defaults to a fresh one. */
  ip?: string;
  headers?: Record<string, string>;
  /** An object is sent as JSON; a string as is. */
  body?: unknown;
}

const baseURL = () => new URL(String(test.info().project.use.baseURL));

export function raw({ method = "GET", path, ip = freshIp(), headers = {}, body }: RawRequest): Promise<RawResponse> {
  const base = baseURL();
  const url = new URL(path, base);
  const payload = body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body);
  const allHeaders: Record<string, string> = { ...headers };
  if (
    payload !== undefined &&
    typeof body !== "string" &&
    !Object.keys(allHeaders).some((h) => h.toLowerCase() === "content-type")
  ) {
    allHeaders["content-type"] = "application/json";
  }
  // Like a browser: a Content-Length, not a chunked body.
  if (payload !== undefined) allHeaders["content-length"] = String(Buffer.byteLength(payload));
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: "127.0.0.1",
        port: base.port,
        path: url.pathname + url.search,
        method,
        localAddress: ip,
        headers: { host: base.host, ...allHeaders },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (text += chunk));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            setCookies: res.headers["set-cookie"] ?? [],
            text,
            json: <T>() => JSON.parse(text) as T,
          }),
        );
      },
    );
    req.on("error", reject);
    if (payload !== undefined) req.write(payload);
    req.end();
  });
}

/** `name=value` pairs of Set-Cookie headers, as a Cookie request header (later values win). */
export function cookieHeader(setCookies: string[], previous = ""): string {
  const jar = new Map(
    previous
      .split(/;\s*/)
      .filter(Boolean)
      .map((pair) => [pair.split("=")[0]!, pair] as const),
  );
  for (const cookie of setCookies) {
    const pair = cookie.split(";")[0]!.trim();
    const name = pair.split("=")[0]!;
    if (/max-age=0/i.test(cookie) || pair.endsWith("=")) jar.delete(name);
    else jar.set(name, pair);
  }
  return [...jar.values()].join("; ");
}

/** The newest link in the newest dev-mailbox email to `to` whose subject matches. */
export async function mailLink(to: string, subject: RegExp): Promise<string> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const res = await raw({ path: `/dev/mailbox.json?to=${encodeURIComponent(to)}` });
    expect(res.status).toBe(200);
    const mail = res.json<{ subject: string; text: string }[]>().find((m) => subject.test(m.subject));
    const link = mail?.text.match(/https?:\/\/\S+/)?.[0];
    if (link) return link;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no mail matching ${subject} for ${to}`);
}

/**
 * Creates and verifies an account from an address of its own (so it spends no one else's
 * sign-up budget). Returns the session cookie the verification link set.
 */
export async function createVerifiedAccount(
  email: string,
  password: string,
  origin: string,
  extra: Record<string, unknown> = {},
) {
  const ip = freshIp();
  const res = await raw({
    method: "POST",
    path: "/api/auth/sign-up/email",
    ip,
    headers: { origin },
    body: { email, password, name: email, ...extra },
  });
  expect(res.status, res.text).toBe(200);
  const verify = await raw({ path: await mailLink(email, /verify/i), ip });
  expect([200, 302]).toContain(verify.status);
  return { cookie: cookieHeader(verify.setCookies) };
}
