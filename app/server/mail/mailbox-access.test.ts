import { describe, expect, it, vi } from "vitest";
import { CLIENT_IP_HEADER, PEER_IP_HEADER } from "../http/client-ip.server";
import { isLoopbackClient } from "./mail.server";

vi.mock("../env.server", () => ({ env: () => ({ NODE_ENV: "production" }) }));

const from = (ip: string) => new Request("http://localhost/dev/mailbox", { headers: { [PEER_IP_HEADER]: ip } });

describe("isLoopbackClient (the dev mailbox of a production build)", () => {
  it("answers only clients on this machine", () => {
    const loopback = ["127.0.0.1", "127.3.4.5", "::1", "::ffff:127.0.0.1"];
    const others = ["10.0.0.2", "192.168.1.20", "::ffff:10.0.0.2", "128.0.0.1", "fe80::1", ""];
    expect(loopback.filter((ip) => !isLoopbackClient(from(ip)))).toEqual([]);
    expect(others.filter((ip) => isLoopbackClient(from(ip)))).toEqual([]);
    expect(isLoopbackClient(new Request("http://localhost/dev/mailbox"))).toBe(false);
    // What proxies say of the client does not count: the peer is the machine that connected.
    const forwarded = new Request("http://localhost/dev/mailbox", {
      headers: { [PEER_IP_HEADER]: "127.0.0.1", [CLIENT_IP_HEADER]: "203.0.113.9" },
    });
    expect(isLoopbackClient(forwarded)).toBe(true);
  });
});
