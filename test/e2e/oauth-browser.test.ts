// "Log in with Forgeline" in a real browser: Debian's chromium, headless, driven by playwright-core,
// against the real server process (npm start). The relying party is this test: it registers an
// application whose redirect URI is a small HTTP server of its own, sends the browser to the
// authorization URL (openid-client builds it, with PKCE), the user signs in and consents on the
// server's pages, the browser lands on the redirect URI, and the code is exchanged for a token
// that reads GET /api/v4/user. The pages load nothing from elsewhere and raise no page error.
// Without /usr/bin/chromium the file is skipped, except in CI (CI set), where it is a failure.
import { existsSync, mkdirSync } from "node:fs";
import { createServer, type Server } from "node:http";
import path from "node:path";
import * as oidc from "openid-client";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { onPostgresql } from "../helpers/test-database.js";
import { createUser, type E2eUser } from "./helpers/fixtures.js";
import { restClient } from "./helpers/rest.js";
import { freePort, REPO_ROOT, startServer, type RunningServer } from "./helpers/server.js";

const CHROMIUM = "/usr/bin/chromium";
const ARTIFACTS = path.join(REPO_ROOT, "test-artifacts");
const database = onPostgresql ? "postgresql" : "sqlite";

const missing = existsSync(CHROMIUM) ? null : `${CHROMIUM} is missing (apt-get install chromium)`;
if (missing) console.warn(`Skipping the OAuth browser test: ${missing}`);
const title = missing ? `OAuth sign-in in a browser (SKIPPED: ${missing})` : `OAuth sign-in in a browser on ${database}`;

if (missing && process.env.CI) {
  it("has a browser (.ci/run installs Debian's chromium)", () => {
    expect.fail(missing);
  });
}

describe.skipIf(missing !== null)(title, () => {
  let server: RunningServer;
  let callbackServer: Server;
  let redirectUri: string;
  let browser: Browser;
  let page: Page;
  let alice: E2eUser;
  const foreignRequests: string[] = [];
  const pageErrors: string[] = [];

  beforeAll(async () => {
    server = await startServer();
    alice = await createUser(server);
    const port = await freePort();
    redirectUri = `http://127.0.0.1:${port}/callback`;
    callbackServer = createServer((req, res) => {
      res.writeHead(200, { "Content-Type": "text/html" }).end("<!DOCTYPE html><title>Relying party</title><h1>Signed in</h1>");
    });
    await new Promise<void>((resolve) => callbackServer.listen(port, "127.0.0.1", resolve));
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking"] });
    page = await browser.newPage();
    const allowed = [new URL(server.url).origin, new URL(redirectUri).origin];
    page.on("request", (request) => {
      if (!allowed.includes(new URL(request.url()).origin)) foreignRequests.push(request.url());
    });
    page.on("pageerror", (error) => pageErrors.push(error.message));
    mkdirSync(ARTIFACTS, { recursive: true });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => (callbackServer ? callbackServer.close(resolve) : resolve(undefined)));
    await server?.stop();
  });

  const screenshot = (name: string) => page.screenshot({ path: path.join(ARTIFACTS, `oauth-${database}-${name}.png`) });

  it("signs in, consents, lands on the redirect URI, and the token reads GET /api/v4/user", async () => {
    const created = await restClient(server).post("/applications", { name: "Browser RP", redirect_uri: redirectUri, scopes: "read_user openid profile" });
    expect(created.status).toBe(200);
    const config = await oidc.discovery(new URL(server.url), created.body.application_id, created.body.secret, undefined, {
      execute: [oidc.allowInsecureRequests],
    });
    const verifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri, scope: "openid profile read_user", state,
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier), code_challenge_method: "S256",
    });

    await page.goto(url.href);
    await page.getByLabel("Username or primary email").fill(alice.username);
    await page.getByLabel("Password").fill("wrong-password");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect.poll(() => page.getByRole("alert").textContent()).toBe("Invalid login or password.");
    await page.getByLabel("Username or primary email").fill(`${alice.username}@example.com`); // the email works too
    await page.getByLabel("Password").fill("password-123456");
    await screenshot("sign-in");
    await page.getByRole("button", { name: "Sign in" }).click();

    await page.getByRole("heading", { name: "Authorize Browser RP?" }).waitFor();
    expect(await page.locator("main").textContent()).toContain("read_user");
    await screenshot("consent");
    await page.getByRole("button", { name: "Authorize" }).click();

    await page.waitForURL((current) => current.href.startsWith(redirectUri));
    await page.getByRole("heading", { name: "Signed in" }).waitFor();
    const tokens = await oidc.authorizationCodeGrant(config, new URL(page.url()), { pkceCodeVerifier: verifier, expectedState: state });
    expect(tokens.claims()).toMatchObject({ sub: String(alice.id), nickname: alice.username });

    const me = await fetch(`${server.apiUrl}/user`, { headers: { Authorization: `Bearer ${tokens.access_token}` } });
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({ id: alice.id, username: alice.username });
    expect(foreignRequests).toEqual([]);
    expect(pageErrors).toEqual([]);
  });

  it("keeps the session: a second application only asks for consent", async () => {
    const created = await restClient(server).post("/applications", { name: "Second RP", redirect_uri: redirectUri, scopes: "read_user" });
    const url = new URL(`${server.url}/oauth/authorize`);
    const challenge = await oidc.calculatePKCECodeChallenge(oidc.randomPKCECodeVerifier());
    const params = { client_id: created.body.application_id, response_type: "code", redirect_uri: redirectUri, scope: "read_user", code_challenge: challenge, code_challenge_method: "S256" };
    for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
    await page.goto(url.href);
    // signed in already: only the consent page for this new application
    await page.getByRole("heading", { name: "Authorize Second RP?" }).waitFor();
    await page.getByRole("button", { name: "Authorize" }).click();
    await page.waitForURL((current) => current.href.startsWith(redirectUri));
    expect(new URL(page.url()).searchParams.get("code")).toEqual(expect.any(String));
  });
});
