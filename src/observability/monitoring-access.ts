// Who may read the monitoring endpoints (/-/metrics): loopback always, other addresses only inside
// a range of MONITORING_ALLOW_CIDRS (GitLab's monitoring IP allowlist); everyone else gets 404.
import ipaddr from "ipaddr.js";

type Range = [ipaddr.IPv4 | ipaddr.IPv6, number];

export function isCidrOrAddress(entry: string): boolean {
  return ipaddr.isValidCIDR(entry) || ipaddr.isValid(entry);
}

function rangeOf(entry: string): Range {
  if (ipaddr.isValidCIDR(entry)) return ipaddr.parseCIDR(entry);
  const address = ipaddr.parse(entry);
  return [address, address.kind() === "ipv4" ? 32 : 128];
}

export function createMonitoringAccess(allowCidrs: readonly string[]): (remoteAddress: string | undefined) => boolean {
  const ranges = allowCidrs.map(rangeOf);
  return (remoteAddress) => {
    if (!remoteAddress || !ipaddr.isValid(remoteAddress)) return false;
    const parsed = ipaddr.process(remoteAddress); // an IPv4-mapped IPv6 address as the IPv4 one
    if (parsed.range() === "loopback") return true;
    return ranges.some(([base, bits]) => base.kind() === parsed.kind() && parsed.match(base, bits));
  };
}
