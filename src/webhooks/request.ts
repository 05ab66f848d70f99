// What a delivery sends (WebHookService's request): the interpolated URL (user info moved to Basic
// auth), the body (the payload, or the custom template rendered with it), and the headers: the
// hook's custom headers under the delivery headers, which they can never replace. Also the
// redacted forms the history keeps.
import { Webhook } from "standardwebhooks";
import type { Config } from "../config.js";
import type { WebHook } from "../generated/prisma/client.js";
import { interpolate, type HookState } from "../domain/web-hooks/rules.js";
import { eventHeaderOf } from "../domain/web-hooks/triggers.js";
import { currentRequest } from "../observability/request-scope.js";

export const REDACTED = "[REDACTED]";
export const SERVICE_NAME = "Forgeline";

export class TemplateError extends Error {}

export interface DeliveryIds {
  trigger: string;
  idempotencyKey: string;
  eventUuid: string;
  /** the X-Request-Id of the request that fired the event; a test or resend sent now takes its own request's */
  correlationId?: string | null;
}

export interface BuiltHeaders {
  sent: Record<string, string>;
  /** as recorded: custom header values and the token replaced by [REDACTED] */
  recorded: Record<string, string>;
}

/** `signed`: the Standard Webhooks headers of a signed delivery (`signatureHeaders`). */
export function buildHeaders(config: Config, hook: WebHook, state: HookState, ids: DeliveryIds, signed: Record<string, string> = {}): BuiltHeaders {
  const prefix = config.webhookHeaderPrefix;
  const standard: Record<string, string> = {
    "Content-Type": "application/json",
    "User-Agent": `${SERVICE_NAME}/${config.version}`,
    "Idempotency-Key": ids.idempotencyKey,
    [`${prefix}Event`]: eventHeaderOf(ids.trigger),
    [`${prefix}Webhook-UUID`]: hook.uuid,
    [`${prefix}Instance`]: config.publicUrl,
    [`${prefix}Event-UUID`]: ids.eventUuid,
    ...correlationHeader(ids.correlationId ?? currentRequest()?.correlationId),
    ...signed,
  };
  const token = state.token ? { [`${prefix}Token`]: state.token.replace(/[\r\n]/g, "") } : {};
  const redactedCustom = Object.fromEntries(Object.keys(state.customHeaders).map((key) => [key, REDACTED]));
  const redactedToken = state.token ? { [`${prefix}Token`]: REDACTED } : {};
  return {
    sent: withoutOverrides(state.customHeaders, { ...standard, ...token }),
    recorded: withoutOverrides(redactedCustom, { ...standard, ...redactedToken }),
  };
}

/** The receiver can tie a delivery to the request (and its log line) that caused it. */
function correlationHeader(correlationId: string | null | undefined): Record<string, string> {
  return correlationId ? { "X-Request-Id": correlationId } : {};
}

/**
 * Standard Webhooks: `webhook-id` (the Idempotency-Key), `webhook-timestamp` (seconds) and
 * `webhook-signature`, one `v1,<base64 HMAC-SHA256 of id.timestamp.body>` per secret, space-separated.
 */
export function signatureHeaders(secrets: string[], id: string, at: Date, body: string): Record<string, string> {
  if (!secrets.length) return {};
  const signatures = secrets.map((secret) => new Webhook(secret).sign(id, at, body));
  return { "webhook-id": id, "webhook-timestamp": String(Math.floor(at.getTime() / 1000)), "webhook-signature": signatures.join(" ") };
}

/** Custom headers first, delivery headers over them (names compared without case). */
function withoutOverrides(custom: Record<string, string>, delivery: Record<string, string>): Record<string, string> {
  const taken = new Set(Object.keys(delivery).map((key) => key.toLowerCase()));
  const kept = Object.entries(custom).filter(([key]) => !taken.has(key.toLowerCase()));
  return { ...Object.fromEntries(kept), ...delivery };
}

export interface Target {
  /** where to POST (user info removed) */
  url: string;
  /** Basic auth from user info in the URL */
  authorization?: string;
  /** SHA-256 input: the interpolated URL */
  interpolated: string;
  /** the URL as the history shows it: placeholders kept, user info masked */
  recorded: string;
}

export function targetOf(state: HookState): Target {
  const interpolated = interpolate(state.url, state.urlVariables) ?? state.url;
  const parsed = new URL(interpolated);
  let authorization: string | undefined;
  if (parsed.username || parsed.password) {
    const credentials = `${decodeURIComponent(parsed.username)}:${decodeURIComponent(parsed.password)}`;
    authorization = `Basic ${Buffer.from(credentials).toString("base64")}`;
    parsed.username = "";
    parsed.password = "";
  }
  return { url: parsed.toString(), authorization, interpolated, recorded: maskUserInfo(state.url) };
}

/**
 * GitLab's sanitize_masked_url: user and password shown as *****. The URL keeps its placeholders,
 * so it is cut as WHATWG parsing cuts an http(s) URL: any slashes or backslashes after the scheme,
 * then the authority up to `/`, `\`, `?` or `#`, whose user info ends at its LAST `@`.
 */
function maskUserInfo(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:[/\\]*)([^/\\?#]*)@/i, (_m, scheme: string, info: string) => {
    const [user, password] = info.split(/:(.*)/s);
    return `${scheme}${user ? "*****" : ""}${password !== undefined ? ":*****" : ""}@`;
  });
}

const PLACEHOLDER = /\{\{(.+?)\}\}/g;

/**
 * The custom template rendered with the payload: each `{{a.b.c}}` becomes the JSON of the value
 * found along those keys (strings without their quotes, so they sit inside the template's own
 * quotes), and the result must be JSON.
 */
export function renderTemplate(template: string, payload: unknown): unknown {
  const rendered = template.replace(PLACEHOLDER, (_m, path: string) => {
    const value = dig(payload, path.split("."));
    const json = JSON.stringify(value ?? null);
    return typeof value === "string" ? json.slice(1, -1) : json;
  });
  try {
    return JSON.parse(rendered);
  } catch (error) {
    throw new TemplateError(`Error while parsing rendered custom webhook template: ${(error as Error).message}`);
  }
}

function dig(value: unknown, keys: string[]): unknown {
  let current = value;
  for (const key of keys) {
    if (current === null || current === undefined) return null;
    if (typeof current !== "object" || Array.isArray(current)) {
      throw new TemplateError(
        "Error while parsing rendered custom webhook template: You may be trying to access an array value, which is not supported.",
      );
    }
    // Hash#dig: only the payload's own keys (never `constructor` or `__proto__`)
    current = Object.hasOwn(current, key) ? (current as Record<string, unknown>)[key] : null;
  }
  return current;
}
