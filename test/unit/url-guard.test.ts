// The webhook URL guard (SSRF) on its own: address classes through ipaddr.js, cloud metadata
// endpoints refused even when local requests are allowed, and host names checked by every address
// they resolve to (a resolver returning a public and a private address is refused as a whole).
import { describe, expect, it } from "vitest";
import { addressProblem, createUrlGuard, REFUSED, systemLookup, type HostLookup } from "../../src/net/url-guard.js";

/** A resolver answering from a fixed table (names not in it do not resolve). */
const table = (entries: Record<string, string[]>): HostLookup => async (name) => {
  if (!entries[name]) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${name}`), { code: "ENOTFOUND" });
  return entries[name]!;
};

const DNS = table({
  "hooks.example.com": ["93.184.215.14", "2606:2800:21f:cb07:6820:80da:af6b:8b2c"],
  "rebind.example.com": ["93.184.215.14", "10.0.0.7"],
  "internal.example.com": ["192.168.10.20"],
  "meta.example.com": ["169.254.169.254"],
  "v6meta.example.com": ["fd00:ec2::254"],
});

const strict = createUrlGuard({ allowLocal: false, lookup: DNS });
const relaxed = createUrlGuard({ allowLocal: true, lookup: DNS });

describe("addressProblem", () => {
  it.each([
    ["8.8.8.8", null], ["2606:4700:4700::1111", null], ["168.63.129.16", REFUSED.metadata],
    ["127.0.0.1", REFUSED.localhost], ["::1", REFUSED.localhost], ["0.0.0.0", REFUSED.localhost], ["::", REFUSED.localhost],
    ["::ffff:127.0.0.1", REFUSED.localhost], ["::127.0.0.1", REFUSED.localhost], ["64:ff9b::7f00:1", REFUSED.localhost],
    ["10.1.2.3", REFUSED.localNetwork], ["172.31.255.255", REFUSED.localNetwork], ["192.168.0.1", REFUSED.localNetwork],
    ["169.254.1.1", REFUSED.localNetwork], ["fe80::1", REFUSED.localNetwork], ["fc00::1", REFUSED.localNetwork],
    ["100.64.0.1", REFUSED.localNetwork], ["224.0.0.251", REFUSED.localNetwork], ["ff02::fb", REFUSED.localNetwork],
    ["255.255.255.255", REFUSED.localNetwork], ["198.18.0.1", REFUSED.localNetwork], ["2001:db8::1", REFUSED.localNetwork],
    ["::ffff:0:a00:1", REFUSED.localNetwork], ["2001::1", REFUSED.localNetwork],
    ["169.254.169.254", REFUSED.metadata], ["fd00:ec2::254", REFUSED.metadata], ["100.100.100.200", REFUSED.metadata],
    ["::ffff:169.254.169.254", REFUSED.metadata], ["64:ff9b::a9fe:a9fe", REFUSED.metadata], ["2002:a9fe:a9fe::", REFUSED.metadata],
    ["not-an-ip", REFUSED.unresolved],
  ])("%s: %s", (address, problem) => {
    expect(addressProblem(address, false)).toBe(problem);
  });

  it("with local requests allowed only metadata endpoints stay refused", () => {
    for (const address of ["127.0.0.1", "::1", "10.1.2.3", "fe80::1", "fd12::1", "100.64.0.1"]) expect(addressProblem(address, true)).toBeNull();
    for (const address of ["169.254.169.254", "fd00:ec2::254", "100.100.100.200", "192.0.0.192", "169.254.170.2", "::ffff:a9fe:a9fe"]) {
      expect(addressProblem(address, true)).toBe(REFUSED.metadata);
    }
  });
});

describe("createUrlGuard", () => {
  it("accepts a public host and hands back the addresses it checked", async () => {
    const result = await strict.check("https://hooks.example.com/path?q=1");
    expect(result).toEqual({ ok: true, url: new URL("https://hooks.example.com/path?q=1"), addresses: ["93.184.215.14", "2606:2800:21f:cb07:6820:80da:af6b:8b2c"] });
  });

  it.each([
    ["http://rebind.example.com/", REFUSED.localNetwork, null],
    ["http://internal.example.com/", REFUSED.localNetwork, null],
    ["http://meta.example.com/", REFUSED.metadata, REFUSED.metadata],
    ["http://v6meta.example.com/", REFUSED.metadata, REFUSED.metadata],
    ["http://metadata.google.internal/", REFUSED.metadata, REFUSED.metadata],
    ["http://unknown.example.com/", REFUSED.unresolved, REFUSED.unresolved],
    ["http://x.invalid/", REFUSED.unresolved, REFUSED.unresolved],
    ["http://localhost:3000/", REFUSED.localhost, null],
    ["http://a.b.localhost/", REFUSED.localhost, null],
    ["ftp://hooks.example.com/", REFUSED.scheme, REFUSED.scheme],
    ["hooks.example.com/x", REFUSED.invalid, REFUSED.invalid],
    ["http://hooks.example.com/\tx", REFUSED.invalid, REFUSED.invalid],
  ])("%s: %s (allowing local: %s)", async (url, strictReason, relaxedReason) => {
    expect(await strict.check(url)).toEqual({ ok: false, reason: strictReason });
    const relaxedResult = await relaxed.check(url);
    if (relaxedReason === null) expect(relaxedResult.ok).toBe(true);
    else expect(relaxedResult).toEqual({ ok: false, reason: relaxedReason });
  });

  it("never puts the url (it may hold credentials) in a reason", async () => {
    const result = await strict.check("http://admin:hunter2@10.0.0.1/");
    expect(result).toEqual({ ok: false, reason: REFUSED.localNetwork });
  });

  it("gives up on a resolver that does not answer", async () => {
    const guard = createUrlGuard({ allowLocal: false, lookup: () => new Promise(() => {}), lookupTimeoutMs: 50 });
    expect(await guard.check("http://slow.example.com/")).toEqual({ ok: false, reason: REFUSED.unresolved });
  });

  it("the system resolver reads the hosts file: localhost is loopback", async () => {
    const addresses = await systemLookup("localhost");
    expect(addresses.length).toBeGreaterThan(0);
    for (const address of addresses) expect(addressProblem(address, false)).toBe(REFUSED.localhost);
  });
});

// GitLab saves hooks with the UrlBlocker's dns_rebind_protection off (AddressableUrlValidator):
// a host name without addresses passes then; whatever resolves, or needs no DNS, is checked as at send time.
describe("checkAtSave", () => {
  it("accepts a host name that does not resolve (or whose resolver does not answer), with no addresses", async () => {
    expect(await strict.checkAtSave("http://unknown.example.com/x")).toEqual({ ok: true, url: new URL("http://unknown.example.com/x"), addresses: [] });
    const slow = createUrlGuard({ allowLocal: false, lookup: () => new Promise(() => {}), lookupTimeoutMs: 50 });
    expect((await slow.checkAtSave("http://slow.example.com/")).ok).toBe(true);
    // at send time the same URLs are refused
    expect(await strict.check("http://unknown.example.com/x")).toEqual({ ok: false, reason: REFUSED.unresolved });
  });

  it.each([
    ["http://rebind.example.com/", REFUSED.localNetwork],
    ["http://internal.example.com/", REFUSED.localNetwork],
    ["http://meta.example.com/", REFUSED.metadata],
    ["http://metadata.google.internal/", REFUSED.metadata],
    ["http://x.invalid/", REFUSED.unresolved],
    ["http://localhost:3000/", REFUSED.localhost],
    ["http://10.0.0.1/", REFUSED.localNetwork],
    ["http://[::ffff:169.254.169.254]/", REFUSED.metadata],
    ["ftp://unknown.example.com/", REFUSED.scheme],
    ["unknown.example.com/x", REFUSED.invalid],
  ])("refuses %s as at send time: %s", async (url, reason) => {
    expect(await strict.checkAtSave(url)).toEqual({ ok: false, reason });
    expect(await strict.check(url)).toEqual({ ok: false, reason });
  });

  it("accepts a public host as check does", async () => {
    expect(await strict.checkAtSave("https://hooks.example.com/p")).toEqual(await strict.check("https://hooks.example.com/p"));
  });
});
