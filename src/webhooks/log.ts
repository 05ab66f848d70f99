// The delivery history row of one attempt (GitLab's WebHookLog): e-mail-like values of the
// request data redacted, response headers capitalised (at most 50, values cut to 1 KB), the
// response body cut to 8 KB as Rails' truncate_bytes cuts (ending in "…"), and the SHA-256 of the
// interpolated URL so that resend can tell whether the hook still points at the same target.
import { Prisma } from "../generated/prisma/client.js";
import type { Tx } from "../domain/shared/events.js";
import { digest } from "../domain/shared/secrets.js";
import { INTERNAL_ERROR } from "../domain/web-hooks/delivery.js";
import { REDACTED } from "./request.js";

const RESPONSE_BODY_LIMIT = 8 * 1024;
const RESPONSE_HEADERS_COUNT_LIMIT = 50;
const RESPONSE_HEADER_SIZE_LIMIT = 1024;

export interface AttemptRecord {
  hookId: number;
  trigger: string;
  url: string;
  interpolatedUrl: string | null;
  requestHeaders: Record<string, string>;
  requestData: unknown;
  /** null: no response (network error, timeout, refused URL, template error) */
  response: { status: number; headers: [string, string][]; body: string } | null;
  internalErrorMessage: string | null;
  executionDuration: number;
  idempotencyKey: string;
  createdAt: Date;
}

export async function recordAttempt(db: Tx, attempt: AttemptRecord): Promise<number> {
  const row = await db.webHookLog.create({ data: logRow(attempt), select: { id: true } });
  return row.id;
}

/**
 * Several attempts' history rows in one statement (the worker's batch). Raw portable SQL (a
 * multi-row VALUES list): every delivery writes one, and a Prisma model createMany costs several
 * times the statement's own CPU.
 */
export async function recordAttempts(db: Tx, attempts: AttemptRecord[]): Promise<void> {
  if (!attempts.length) return;
  const rows = attempts.map(logRow).map((row) => Prisma.sql`(${row.hookId}, ${row.trigger}, ${row.url}, ${row.urlHash}, ${row.requestHeaders},
    ${row.requestData}, ${row.responseHeaders}, ${row.responseBody}, ${row.responseStatus}, ${row.responseCode}, ${row.executionDuration},
    ${row.internalErrorMessage}, ${row.idempotencyKey}, ${row.createdAt})`);
  await db.$executeRaw`INSERT INTO "WebHookLog" ("hookId", "trigger", "url", "urlHash", "requestHeaders", "requestData", "responseHeaders",
    "responseBody", "responseStatus", "responseCode", "executionDuration", "internalErrorMessage", "idempotencyKey", "createdAt")
    VALUES ${Prisma.join(rows)}`;
}

function logRow(attempt: AttemptRecord) {
  const { response } = attempt;
  return {
    hookId: attempt.hookId,
    trigger: attempt.trigger,
    url: attempt.url,
    urlHash: attempt.interpolatedUrl === null ? null : digest(attempt.interpolatedUrl),
    requestHeaders: JSON.stringify(attempt.requestHeaders),
    requestData: JSON.stringify(redactEmails(attempt.requestData) ?? {}),
    responseHeaders: JSON.stringify(response ? capitalisedHeaders(response.headers) : {}),
    responseBody: response ? truncateBytes(response.body, RESPONSE_BODY_LIMIT) : "",
    responseStatus: response ? String(response.status) : INTERNAL_ERROR,
    responseCode: response?.status ?? null,
    executionDuration: attempt.executionDuration,
    internalErrorMessage: attempt.internalErrorMessage,
    idempotencyKey: attempt.idempotencyKey,
    createdAt: attempt.createdAt,
  };
}

/** URI::MailTo::EMAIL_REGEXP */
const EMAIL = /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;

export function redactEmails(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactEmails);
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, redactEmails(inner)]));
  }
  // only text can be an address (a number's or boolean's never is), and only text with an "@"
  return typeof value === "string" && value.includes("@") && EMAIL.test(value) ? REDACTED : value;
}

/** Net::HTTPHeader#each_capitalized: "content-type" -> "Content-Type". */
function capitalisedHeaders(headers: [string, string][]): Record<string, string> {
  return Object.fromEntries(
    headers.slice(0, RESPONSE_HEADERS_COUNT_LIMIT).map(([name, value]) => [
      name.split("-").map((part) => part.charAt(0).toUpperCase() + part.slice(1).toLowerCase()).join("-"),
      truncateBytes(value, RESPONSE_HEADER_SIZE_LIMIT),
    ]),
  );
}

/** ActiveSupport's String#truncate_bytes: at most `limit` bytes, whole characters, "…" appended when cut. */
export function truncateBytes(text: string, limit: number): string {
  if (Buffer.byteLength(text) <= limit) return text;
  const omission = "…";
  const budget = limit - Buffer.byteLength(omission);
  let bytes = 0;
  let end = 0;
  for (const char of text) {
    const size = Buffer.byteLength(char);
    if (bytes + size > budget) break;
    bytes += size;
    end += char.length;
  }
  return text.slice(0, end) + omission;
}
