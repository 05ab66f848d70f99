// A small HTTP client for the real server (over the socket): JSON in, status/headers/body out.
import type { RunningServer } from "./server.js";

export interface HttpAnswer<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export class RestClient {
  constructor(readonly apiUrl: string, readonly token?: string) {}

  get<T = any>(path: string) { return this.request<T>("GET", path); }
  post<T = any>(path: string, json: unknown = {}) { return this.request<T>("POST", path, json); }
  put<T = any>(path: string, json: unknown = {}) { return this.request<T>("PUT", path, json); }
  delete<T = any>(path: string) { return this.request<T>("DELETE", path); }

  async request<T = any>(method: string, path: string, json?: unknown): Promise<HttpAnswer<T>> {
    const headers: Record<string, string> = {};
    if (this.token) headers["PRIVATE-TOKEN"] = this.token;
    if (json !== undefined) headers["Content-Type"] = "application/json";
    const response = await fetch(this.apiUrl + path, { method, headers, body: json === undefined ? undefined : JSON.stringify(json) });
    const text = await response.text();
    const isJson = response.headers.get("content-type") === "application/json" && text !== "";
    return { status: response.status, headers: response.headers, body: (isJson ? JSON.parse(text) : text) as T };
  }
}

export const restClient = (server: RunningServer, token = server.rootToken) => new RestClient(server.apiUrl, token);
