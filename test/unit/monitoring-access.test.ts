// Who may read /-/metrics: loopback always (IPv4, IPv6 and IPv4-mapped), other addresses only
// inside a range of MONITORING_ALLOW_CIDRS, anything unparseable never.
import { describe, expect, it } from "vitest";
import { createMonitoringAccess, isCidrOrAddress } from "../../src/observability/monitoring-access.js";
import { loadConfig } from "../../src/config.js";

describe("createMonitoringAccess", () => {
  const loopbackOnly = createMonitoringAccess([]);

  it.each(["127.0.0.1", "127.8.9.10", "::1", "::ffff:127.0.0.1"])("lets loopback %s read without any setting", (address) => {
    expect(loopbackOnly(address)).toBe(true);
  });

  it.each(["192.0.2.2", "10.0.0.1", "fd00::2", "fe80::1", "::ffff:192.0.2.2", "0.0.0.0", "::"])("refuses %s without a setting", (address) => {
    expect(loopbackOnly(address)).toBe(false);
  });

  it.each([undefined, "", "localhost", "not-an-address", "300.1.1.1"])("refuses an address it cannot read (%s)", (address) => {
    expect(loopbackOnly(address)).toBe(false);
  });

  const widened = createMonitoringAccess(["10.1.0.0/16", "192.0.2.7", "fd00::/64"]);

  it.each([
    ["10.1.255.254", true], ["10.2.0.1", false], ["::ffff:10.1.3.4", true],
    ["192.0.2.7", true], ["192.0.2.8", false], ["::ffff:192.0.2.7", true],
    ["fd00::2", true], ["fd00:0:0:1::2", false], ["127.0.0.1", true], ["::1", true],
  ] as const)("with MONITORING_ALLOW_CIDRS, %s → %s", (address, allowed) => {
    expect(widened(address)).toBe(allowed);
  });

  it("does not match an IPv4 range against an IPv6 address or the other way round", () => {
    const access = createMonitoringAccess(["0.0.0.0/0"]);
    expect(access("203.0.113.9")).toBe(true);
    expect(access("2001:db8::1")).toBe(false);
    expect(createMonitoringAccess(["::/0"])("203.0.113.9")).toBe(false);
  });
});

describe("MONITORING_ALLOW_CIDRS", () => {
  it.each(["10.0.0.0/8", "192.0.2.1", "fd00::/8", "::1"])("accepts %s", (entry) => {
    expect(isCidrOrAddress(entry)).toBe(true);
  });

  it("is read as a comma-separated list, blanks ignored", () => {
    expect(loadConfig({ MONITORING_ALLOW_CIDRS: " 10.0.0.0/8, ,192.0.2.1 " }).monitoringAllowCidrs).toEqual(["10.0.0.0/8", "192.0.2.1"]);
    expect(loadConfig({}).monitoringAllowCidrs).toEqual([]);
  });

  it.each(["10.0.0.0/33", "example.com", "10.0.0.0/8;rm", "*"])("refuses %s", (entry) => {
    expect(() => loadConfig({ MONITORING_ALLOW_CIDRS: entry })).toThrow(`MONITORING_ALLOW_CIDRS must list IP addresses or CIDR ranges, got "${entry}"`);
  });
});
