import { describe, expect, it } from "vitest";
import { isValidHost } from "./host-header.server";

describe("isValidHost", () => {
  it("takes names, addresses and ports a URL can be built on", () => {
    const hosts = [
      "localhost",
      "localhost:3000",
      "example.com",
      "shop.example.co.uk:443",
      "127.0.0.1:8080",
      "[::1]:3000",
      "[::1]",
      "my_host.internal",
    ];
    expect(hosts.filter((host) => !isValidHost(host))).toEqual([]);
  });

  it("refuses what made React Router's adapter throw, and what is no host at all", () => {
    const hosts = [
      undefined,
      "",
      "exa mple.com",
      "[",
      "%",
      "localhost:99999",
      "localhost:",
      "a/b",
      "user@host",
      "host:80:80",
      "é.example",
    ];
    expect(hosts.filter((host) => isValidHost(host))).toEqual([]);
  });
});
