// Rendering REST answers: exact `application/json`, GitLab error bodies, pagination headers, raw files.
import qs from "qs";
import { AppError } from "../errors.js";
import { Readable } from "node:stream";
import type { RestBag } from "../context.js";
import { contentDisposition, type Download } from "../domain/shared/downloads.js";
import { collapseSlashes } from "./match.js";

const SECURITY_HEADERS = { "X-Frame-Options": "SAMEORIGIN", "X-Content-Type-Options": "nosniff" };

export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { ...SECURITY_HEADERS, ...headers, "Content-Type": "application/json" },
  });
}

export function errorResponse(error: AppError): Response {
  if (error.status === 304) return new Response(null, { status: 304, headers: { ...SECURITY_HEADERS, ...error.headers } });
  return jsonResponse(error.status, error.body, error.headers);
}

export function noContent(): Response {
  return new Response(null, { status: 204, headers: SECURITY_HEADERS });
}

export function textResponse(status: number, text: string, headers: Record<string, string> = {}): Response {
  return new Response(text, { status, headers: { ...SECURITY_HEADERS, "Content-Type": "text/plain", ...headers } });
}

/** A file as GitLab sends a text blob: Workhorse's type for text content, shown inline under its name. */
export function blobResponse(status: number, blob: { file_name: string; content: string }): Response {
  return textResponse(status, blob.content, {
    "Content-Type": "text/plain; charset=utf-8",
    "Content-Disposition": contentDisposition("inline", blob.file_name),
  });
}

/** A `download` route's file, streamed; a HEAD request gets its headers without opening it. */
export function downloadResponse(status: number, download: Download | undefined, headOnly: boolean): Response {
  if (!download) throw new Error("a download route's root field left no file in ctx.rest.download");
  const headers = { ...SECURITY_HEADERS, ...download.headers };
  if (headOnly) return new Response(null, { status, headers });
  const body = download.open();
  return new Response(Buffer.isBuffer(body) ? new Uint8Array(body) : (Readable.toWeb(body) as ReadableStream<Uint8Array>), { status, headers });
}

/** Ruby's String#<=> (what `to_query` sorts with): code units, upper case before lower case. */
const byteOrder = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** A URL on the request's own host carrying the given params, keys sorted (Rails `to_query`). */
export function linkUrl(request: Request, params: Record<string, unknown>): string {
  const url = new URL(request.url);
  const query = qs.stringify(params, { arrayFormat: "brackets", sort: byteOrder, encodeValuesOnly: false });
  return `${url.origin}${collapseSlashes(url.pathname)}?${query}`;
}

/** x-page, x-per-page, x-next-page, x-prev-page, x-total, x-total-pages and Link. */
export function paginationHeaders(request: Request, query: Record<string, unknown>, bag: RestBag): Record<string, string> {
  if (bag.keysetNext !== undefined) {
    if (!bag.keysetNext) return {};
    const params = { ...withoutKeys(query, ["cursor", "id_after", "id_before", "page", "page_token"]), ...bag.keysetNext };
    return { Link: `<${linkUrl(request, params)}>; rel="next"` };
  }
  const info = bag.page;
  if (!info) return {};
  const base = { ...withoutKeys(query, ["page", "per_page"]), per_page: String(info.perPage) };
  const link = (page: number, rel: string) => `<${linkUrl(request, { ...base, page: String(page) })}>; rel="${rel}"`;
  const totalPages = info.total === null ? null : Math.max(1, Math.ceil(info.total / info.perPage));
  const links: string[] = [];
  if (info.hasPrev) links.push(link(info.page - 1, "prev"));
  if (info.hasNext) links.push(link(info.page + 1, "next"));
  links.push(link(1, "first"));
  if (totalPages !== null) links.push(link(totalPages, "last"));
  const headers: Record<string, string> = {
    "X-Page": String(info.page),
    "X-Per-Page": String(info.perPage),
    "X-Next-Page": info.hasNext ? String(info.page + 1) : "",
    "X-Prev-Page": info.hasPrev ? String(info.page - 1) : "",
    Link: links.join(", "),
  };
  if (info.total !== null && totalPages !== null) {
    headers["X-Total"] = String(info.total);
    headers["X-Total-Pages"] = String(totalPages);
  }
  return headers;
}

function withoutKeys(params: Record<string, unknown>, keys: string[]) {
  return Object.fromEntries(Object.entries(params).filter(([key]) => !keys.includes(key)));
}
