// The OAuth provider over real HTTP: the test app (its own database) listening on a loopback port
// with the server's Node request path (src/oauth: oidc-provider and the sign-in pages in front of
// the app). `signInAndConsent` drives the HTML forms with fetch and a cookie jar, as a browser would.
import { createServer, type Server } from "node:http";
import { createServerAdapter } from "@whatwg-node/server";
import { expect } from "vitest";
import { withOAuth } from "../../src/oauth/index.js";
import { startTestApp, type TestApp } from "../helpers/app.js";
import { freePort } from "../e2e/helpers/server.js";

export interface OAuthServer extends TestApp {
  url: string;
  /** what the provider logged as unexpected (server errors) */
  errors: unknown[];
  close(): Promise<void>;
}

/** `publicUrl`: PUBLIC_URL when the server is reached through a proxy (default: the loopback address). */
export async function startOAuthServer(options: { publicUrl?: string } = {}): Promise<OAuthServer> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const t = await startTestApp({ PUBLIC_URL: options.publicUrl ?? url });
  const errors: unknown[] = [];
  const server: Server = createServer(withOAuth(t.services, createServerAdapter((request: Request) => t.app.fetch(request)), (e) => errors.push(e)));
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const close = () => new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
  return { ...t, url, errors, close };
}

export interface Application {
  id: number;
  application_id: string;
  secret: string;
}

export async function createApplication(t: TestApp, fields: { redirect_uri: string; scopes: string; confidential?: boolean; name?: string }): Promise<Application> {
  const created = await t.root.post("/applications", { name: fields.name ?? "Test RP", ...fields });
  expect(created.status, created.text).toBe(200); // GitLab answers 200 here
  return created.body;
}

/** A tiny cookie jar: name=value pairs by name (one host). */
export class CookieJar {
  readonly cookies = new Map<string, string>();
  readonly raw: string[] = [];
  store(response: Response) {
    for (const line of response.headers.getSetCookie()) {
      this.raw.push(line);
      const [pair] = line.split(";");
      const eq = pair!.indexOf("=");
      const value = pair!.slice(eq + 1);
      if (value === "" || /expires=Thu, 01 Jan 1970/i.test(line)) this.cookies.delete(pair!.slice(0, eq));
      else this.cookies.set(pair!.slice(0, eq), value);
    }
  }
  header() {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }
}

export async function browserFetch(jar: CookieJar, url: string, init: { method?: string; form?: Record<string, string>; origin?: string } = {}) {
  const headers: Record<string, string> = { cookie: jar.header() };
  let body: string | undefined;
  if (init.form) {
    headers["content-type"] = "application/x-www-form-urlencoded";
    body = new URLSearchParams(init.form).toString();
  }
  if (init.origin) headers.origin = init.origin;
  const response = await fetch(url, { method: init.method ?? (body ? "POST" : "GET"), headers, body, redirect: "manual" });
  jar.store(response);
  return response;
}

/** Follows redirects within the server until one leaves it (or a page is shown). */
export async function follow(jar: CookieJar, server: string, response: Response): Promise<Response | string> {
  let current = response;
  for (let hops = 0; hops < 10; hops++) {
    if (current.status < 300 || current.status >= 400) return current;
    const location = new URL(current.headers.get("location")!, server).toString();
    if (!location.startsWith(server)) return location;
    current = await browserFetch(jar, location);
  }
  throw new Error("too many redirects");
}

export const formField = (html: string, name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1] ?? "";
export const formAction = (html: string, index = 0) => [...html.matchAll(/<form method="post" action="([^"]+)"/g)][index]?.[1];

/**
 * From the authorization URL to the redirect back to the client: signs in with `login` and
 * `password`, then consents (when asked). Returns the final redirect URL.
 */
export async function signInAndConsent(server: string, authorizationUrl: string, login: string, password: string, jar = new CookieJar()): Promise<string> {
  let step = await follow(jar, server, await browserFetch(jar, authorizationUrl));
  for (let pages = 0; pages < 3 && typeof step !== "string"; pages++) {
    const html = await step.text();
    expect(step.status, html).toBe(200);
    const csrf = formField(html, "authenticity_token");
    const action = new URL(formAction(html)!, server).toString();
    const form: Record<string, string> = html.includes('name="password"') ? { authenticity_token: csrf, login, password } : { authenticity_token: csrf };
    step = await follow(jar, server, await browserFetch(jar, action, { form, origin: server }));
  }
  if (typeof step !== "string") throw new Error(`no redirect to the client: ${step.status} ${await step.text()}`);
  return step;
}

export const PASSWORD = "password-123456";
