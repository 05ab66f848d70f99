// The one URL guard (SSRF) for webhooks: checked when a hook is saved and again by delivery at send
// time. Only http(s); at send time the host must resolve, and every address it resolves to must be
// public unicast (ipaddr.js range "unicast"). At save a host name that does not resolve (yet) is
// accepted, as GitLab saves hooks without DNS rebinding protection (AddressableUrlValidator's
// `dns_rebind_protection: false`): delivery checks it again. Loopback, private, link-local, unique-local, unspecified,
// multicast, carrier-grade NAT, reserved and other special ranges are refused unless local requests
// are allowed (ALLOW_LOCAL_WEBHOOKS). Cloud metadata endpoints are refused even then, also when an
// address embeds one (IPv4-mapped, NAT64, 6to4, Teredo). Reasons never contain the URL (it may hold
// credentials).
import { lookup as dnsLookup } from "node:dns/promises";
import { isIP } from "node:net";
import ipaddr from "ipaddr.js";

export type UrlCheck =
  | { ok: true; url: URL; /** the addresses checked, for delivery to connect to (no second lookup) */ addresses: string[] }
  | { ok: false; reason: string };

export interface UrlGuard {
  /** at send time: the addresses the request will connect to */
  check(url: string): Promise<UrlCheck>;
  /** when a hook is saved: as `check`, but a host name that resolves to nothing passes (addresses: []) */
  checkAtSave(url: string): Promise<UrlCheck>;
}

/** Every address a host name resolves to. */
export type HostLookup = (hostname: string) => Promise<string[]>;

export interface UrlGuardOptions {
  allowLocal: boolean;
  /** host name resolution; the system resolver (getaddrinfo, so /etc/hosts counts) by default */
  lookup?: HostLookup;
  lookupTimeoutMs?: number;
}

export const REFUSED = {
  scheme: "Only allowed schemes are http, https",
  invalid: "URL is invalid",
  localhost: "Requests to localhost are not allowed",
  localNetwork: "Requests to the local network are not allowed",
  metadata: "Requests to cloud metadata endpoints are not allowed",
  unresolved: "Host cannot be resolved or invalid",
} as const;

/** Instance metadata services (AWS incl. ECS/EKS and IPv6, GCP, Azure incl. wireserver, Alibaba, Oracle). */
const METADATA_RANGES = [
  "169.254.169.254/32", "169.254.170.2/32", "169.254.170.23/32", "100.100.100.200/32", "192.0.0.192/32",
  "168.63.129.16/32", "fd00:ec2::254/128", "fd00:ec2::23/128",
].map((cidr) => ipaddr.parseCIDR(cidr));

const METADATA_HOSTS = new Set([
  "metadata", "metadata.google.internal", "metadata.goog", "instance-data", "instance-data.ec2.internal",
  "metadata.tencentyun.com",
]);

export const systemLookup: HostLookup = async (hostname) =>
  (await dnsLookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address);

export function createUrlGuard(options: UrlGuardOptions): UrlGuard {
  const lookup = options.lookup ?? systemLookup;
  const timeoutMs = options.lookupTimeoutMs ?? 5000;

  async function resolve(hostname: string): Promise<string[]> {
    if (isIP(hostname)) return [hostname];
    if (hostname === "localhost" || hostname.endsWith(".localhost")) return ["127.0.0.1"]; // RFC 6761
    if (hostname.endsWith(".invalid")) return [];
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<string[]>((resolve) => (timer = setTimeout(() => resolve([]), timeoutMs)));
    try {
      return await Promise.race([lookup(hostname).catch(() => []), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** `unresolvedPasses`: a host name without addresses is accepted (saving) rather than refused (sending). */
  async function inspect(raw: string, unresolvedPasses: boolean): Promise<UrlCheck> {
    // WHATWG parsing silently drops tabs and newlines and trims spaces: refuse them instead
    if (/[\u0000-\u0020\u007f]/.test(raw)) return refuse(REFUSED.invalid);
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      return refuse(REFUSED.invalid);
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") return refuse(REFUSED.scheme);
    if (url.port === "0") return refuse(REFUSED.invalid);
    const hostname = url.hostname.replace(/^\[|\]$/g, "").replace(/\.$/, "").toLowerCase();
    if (!hostname) return refuse(REFUSED.invalid);
    if (METADATA_HOSTS.has(hostname)) return refuse(REFUSED.metadata);
    const addresses = await resolve(hostname);
    // `.invalid` names (RFC 6761) are known never to resolve, without asking DNS
    if (addresses.length === 0) {
      return unresolvedPasses && !hostname.endsWith(".invalid") ? { ok: true, url, addresses } : refuse(REFUSED.unresolved);
    }
    for (const address of addresses) {
      const problem = addressProblem(address, options.allowLocal);
      if (problem) return refuse(problem);
    }
    return { ok: true, url, addresses };
  }

  return {
    check: (raw) => inspect(raw, false),
    checkAtSave: (raw) => inspect(raw, true),
  };
}

const refuse = (reason: string): UrlCheck => ({ ok: false, reason });

/** Why an address may not be a webhook target, or null when it may. */
export function addressProblem(address: string, allowLocal: boolean): string | null {
  if (!ipaddr.isValid(address)) return REFUSED.unresolved;
  const ip = ipaddr.process(address); // IPv4-mapped IPv6 becomes IPv4
  const candidates = [ip, ...embeddedIPv4(ip)];
  if (candidates.some(isMetadata)) return REFUSED.metadata;
  if (allowLocal || isPublic(ip)) return null;
  return candidates.some((c) => ["loopback", "unspecified"].includes(c.range())) ? REFUSED.localhost : REFUSED.localNetwork;
}

function isPublic(ip: ipaddr.IPv4 | ipaddr.IPv6): boolean {
  if (ip.range() !== "unicast") return false;
  // IPv4-compatible IPv6 (::a.b.c.d, deprecated) counts as "unicast" in ipaddr.js
  return !(ip.kind() === "ipv6" && (ip as ipaddr.IPv6).parts.slice(0, 6).every((part) => part === 0));
}

function isMetadata(ip: ipaddr.IPv4 | ipaddr.IPv6): boolean {
  return METADATA_RANGES.some(([range, bits]) => range.kind() === ip.kind() && ip.match(range, bits));
}

/** IPv4 addresses carried inside an IPv6 address (SIIT, NAT64, 6to4, Teredo, IPv4-compatible). */
function embeddedIPv4(ip: ipaddr.IPv4 | ipaddr.IPv6): ipaddr.IPv4[] {
  if (ip.kind() !== "ipv6") return [];
  const bytes = (ip as ipaddr.IPv6).toByteArray();
  const v4 = (b: number[]) => new ipaddr.IPv4(b);
  const found: ipaddr.IPv4[] = [];
  const range = ip.range();
  const zeroPrefix = bytes.slice(0, 12).every((b) => b === 0);
  if (range === "rfc6052" || range === "rfc6145" || zeroPrefix) found.push(v4(bytes.slice(12, 16)));
  if (range === "6to4") found.push(v4(bytes.slice(2, 6)));
  if (range === "teredo") found.push(v4(bytes.slice(12, 16).map((b) => b ^ 0xff)));
  return found;
}
