// One webhook POST over the network. The URL guard runs again at send time and the connection is
// pinned to the addresses it checked (no second DNS lookup a rebinding trick could answer
// differently); TLS certificates are verified unless the hook says not to; the whole exchange has
// a deadline; redirects are not followed. Failures come back as a message, never as a throw.
// Connections are kept alive between deliveries to the same origin, per set of checked addresses
// and TLS setting (a new DNS answer gets connections of its own).
import { Agent, request } from "undici";
import type { LookupAddress, LookupOptions } from "node:dns";
import { isIP } from "node:net";
import type { UrlGuard } from "../net/url-guard.js";

export interface OutgoingRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
  verifyTls: boolean;
  timeoutMs: number;
}

export type HttpOutcome =
  | { ok: true; status: number; headers: [string, string][]; body: string }
  | { ok: false; error: string };

/** How deliveries reach the network; tests may wrap it. */
export type Transport = (outgoing: OutgoingRequest, guard: UrlGuard) => Promise<HttpOutcome>;

/** Enough of a response body for the history (8 KB are kept) without holding a huge one. */
const MAX_BODY_READ = 64 * 1024;
/** connection pools kept (the least recently used one is closed past this) */
const MAX_AGENTS = 64;
const KEEP_ALIVE_MS = 4000;

const agents = new Map<string, Agent>();

function agentFor(url: string, addresses: string[], verifyTls: boolean): Agent {
  const key = JSON.stringify([new URL(url).origin, addresses, verifyTls]);
  const kept = agents.get(key);
  agents.delete(key);
  const agent = kept ?? new Agent({
    connect: { lookup: pinnedLookup(addresses), rejectUnauthorized: verifyTls },
    keepAliveTimeout: KEEP_ALIVE_MS,
    keepAliveMaxTimeout: KEEP_ALIVE_MS,
  });
  agents.set(key, agent); // the most recently used last
  if (agents.size > MAX_AGENTS) {
    const [oldest, old] = agents.entries().next().value!;
    agents.delete(oldest);
    void old.close().catch(() => {}); // lets its requests in flight finish
  }
  return agent;
}

export const sendOverNetwork: Transport = async (outgoing, guard) => {
  const check = await guard.check(outgoing.url);
  if (!check.ok) return { ok: false, error: `URL is blocked: ${check.reason}` };
  try {
    const response = await request(outgoing.url, {
      method: "POST",
      headers: outgoing.headers,
      body: outgoing.body,
      dispatcher: agentFor(outgoing.url, check.addresses, outgoing.verifyTls),
      headersTimeout: outgoing.timeoutMs,
      bodyTimeout: outgoing.timeoutMs,
      signal: AbortSignal.timeout(outgoing.timeoutMs),
    });
    return { ok: true, status: response.statusCode, headers: headerPairs(response.headers), body: await readLimited(response.body) };
  } catch (error) {
    return { ok: false, error: failureText(error, outgoing.timeoutMs) };
  }
};

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** A dns.lookup replacement that answers with the addresses the guard approved. */
function pinnedLookup(addresses: string[]) {
  const entries = addresses.map((address) => ({ address, family: isIP(address) === 6 ? 6 : 4 }));
  return (_hostname: string, options: LookupOptions, callback: LookupCallback) => {
    const wanted = options.family === 4 || options.family === 6 ? entries.filter((e) => e.family === options.family) : entries;
    const list = wanted.length ? wanted : entries;
    if (options.all) callback(null, list);
    else callback(null, list[0]!.address, list[0]!.family);
  };
}

function headerPairs(headers: Record<string, string | string[] | undefined>): [string, string][] {
  return Object.entries(headers).flatMap(([name, value]) =>
    value === undefined ? [] : [[name, Array.isArray(value) ? value.join(", ") : value] as [string, string]]);
}

async function readLimited(body: AsyncIterable<Buffer> & { destroy(): unknown }): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    chunks.push(chunk);
    size += chunk.length;
    if (size >= MAX_BODY_READ) {
      body.destroy();
      break;
    }
  }
  return Buffer.concat(chunks).subarray(0, MAX_BODY_READ).toString("utf8");
}

function failureText(error: unknown, timeoutMs: number): string {
  const err = error as { name?: string; code?: string; message?: string; cause?: { message?: string; code?: string } };
  if (err.name === "TimeoutError" || err.code === "UND_ERR_HEADERS_TIMEOUT" || err.code === "UND_ERR_BODY_TIMEOUT") {
    return `execution expired (no answer within ${timeoutMs / 1000} s)`;
  }
  const cause = err.cause?.message ?? err.cause?.code;
  return cause && cause !== err.message ? `${err.message}: ${cause}` : (err.message ?? String(error));
}
