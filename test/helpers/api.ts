// A minimal HTTP client for tests: JSON in, { status, headers, body } out.
import type { App } from "../../src/app.js";
import { REST_GRAPH_PATH } from "../../src/app.js";

export const BASE = "http://forgeline.test/api/v4";

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface RequestOptions {
  query?: Record<string, string | number | boolean>;
  json?: unknown;
  form?: URLSearchParams | FormData;
  headers?: Record<string, string>;
  /** raw path and query, used as given (no encoding) */
  raw?: boolean;
}

export class ApiClient {
  constructor(readonly app: App, readonly token?: string) {}

  get<T = any>(path: string, options: RequestOptions = {}) { return this.request<T>("GET", path, options); }
  post<T = any>(path: string, json?: unknown, options: RequestOptions = {}) { return this.request<T>("POST", path, { json, ...options }); }
  put<T = any>(path: string, json?: unknown, options: RequestOptions = {}) { return this.request<T>("PUT", path, { json, ...options }); }
  delete<T = any>(path: string, options: RequestOptions = {}) { return this.request<T>("DELETE", path, options); }

  async request<T = any>(method: string, path: string, options: RequestOptions = {}): Promise<ApiResponse<T>> {
    const url = new URL(BASE + path);
    for (const [key, value] of Object.entries(options.query ?? {})) url.searchParams.set(key, String(value));
    const headers: Record<string, string> = { ...(options.headers ?? {}) };
    if (this.token) headers["PRIVATE-TOKEN"] = this.token;
    let body: BodyInit | undefined;
    if (options.form) body = options.form;
    else if (options.json !== undefined) {
      body = JSON.stringify(options.json);
      headers["Content-Type"] = "application/json";
    }
    const target = options.raw ? BASE + path : url.toString();
    const response = await this.app.fetch(new Request(target, { method, headers, body }));
    const text = await response.text();
    let parsed: unknown = text;
    if (response.headers.get("content-type") === "application/json" && text) parsed = JSON.parse(text);
    return { status: response.status, headers: response.headers, body: parsed as T, text };
  }

  /** GraphQL on the REST facade's schema (REST_GRAPH_PATH) with this client's token. */
  async graphql<T = any>(query: string, variables: Record<string, unknown> = {}) {
    const headers: Record<string, string> = { "Content-Type": "application/json" };
    if (this.token) headers["PRIVATE-TOKEN"] = this.token;
    const response = await this.app.fetch(
      new Request(`http://forgeline.test${REST_GRAPH_PATH}`, { method: "POST", headers, body: JSON.stringify({ query, variables }) }),
    );
    return { status: response.status, body: (await response.json()) as { data?: T; errors?: any[] } };
  }
}

/**
 * A hand-built request (exact headers and body, URL used as given), answered like
 * ApiClient.request. `url` is absolute or a path on http://forgeline.test.
 */
export async function rawRequest<T = any>(
  app: App,
  method: string,
  url: string,
  init: { headers?: Record<string, string>; body?: BodyInit } = {},
): Promise<ApiResponse<T>> {
  const target = /^https?:/.test(url) ? url : `http://forgeline.test${url}`;
  const response = await app.fetch(new Request(target, { method, headers: init.headers, body: init.body }));
  const text = await response.text();
  let parsed: unknown = text;
  if (response.headers.get("content-type")?.startsWith("application/json") && text) parsed = JSON.parse(text);
  return { status: response.status, headers: response.headers, body: parsed as T, text };
}

/** A Link header as { rel: url }, parsed with the strict `<url>; rel="x"` form gitbeaker needs. */
export function parseLinks(header: string | null): Record<string, string> {
  const links: Record<string, string> = {};
  for (const part of (header ?? "").split(", ")) {
    const match = /^<([^>]+)>; rel="(\w+)"$/.exec(part);
    if (match) links[match[2]!] = match[1]!;
  }
  return links;
}
