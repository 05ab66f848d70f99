// Bad input and attacks against the provider get OAuth's errors: unknown or unauthenticated
// clients, foreign redirect URIs, PKCE mismatches, scope escalation, replayed codes, renewed
// secrets, deleted applications; the sign-in form limits failed attempts without saying whether
// the login exists, and refuses forms without a valid CSRF token or from another origin.
import * as oidc from "openid-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser, type TestUser } from "../helpers/factories.js";
import {
  browserFetch, CookieJar, createApplication, follow, formAction, formField, PASSWORD, signInAndConsent, startOAuthServer,
  type Application, type OAuthServer,
} from "./helpers.js";

const REDIRECT = "https://rp.example/callback";
const insecure = { execute: [oidc.allowInsecureRequests] };

let t: OAuthServer;
let alice: TestUser;
let app: Application;

beforeAll(async () => {
  t = await startOAuthServer();
  alice = await createUser(t);
  app = await createApplication(t, { redirect_uri: REDIRECT, scopes: "api read_user openid" });
  await oidc.discovery(new URL(t.url), app.application_id, app.secret, undefined, insecure);
});
afterAll(async () => {
  await t?.close();
  expect(t?.errors).toEqual([]); // no server error along the way
});

async function pkce() {
  const verifier = oidc.randomPKCECodeVerifier();
  return { verifier, challenge: await oidc.calculatePKCECodeChallenge(verifier) };
}

function authorizationUrl(params: Record<string, string>, clientId = app.application_id) {
  const url = new URL(`${t.url}/oauth/authorize`);
  for (const [key, value] of Object.entries({ client_id: clientId, response_type: "code", redirect_uri: REDIRECT, scope: "read_user", ...params })) {
    url.searchParams.set(key, value);
  }
  return url.href;
}

/** A code for alice (through the forms); its PKCE verifier. */
async function codeFor(scope = "read_user", jar = new CookieJar()) {
  const { verifier, challenge } = await pkce();
  const callback = new URL(await signInAndConsent(t.url, authorizationUrl({ scope, code_challenge: challenge, code_challenge_method: "S256" }), alice.username, PASSWORD, jar));
  return { code: callback.searchParams.get("code")!, verifier, callback };
}

async function tokenRequest(fields: Record<string, string>, auth: { id: string; secret?: string } = { id: app.application_id, secret: app.secret }) {
  const headers: Record<string, string> = { "content-type": "application/x-www-form-urlencoded" };
  if (auth.secret) headers.authorization = `Basic ${Buffer.from(`${encodeURIComponent(auth.id)}:${encodeURIComponent(auth.secret)}`).toString("base64")}`;
  const body = new URLSearchParams(auth.secret ? fields : { client_id: auth.id, ...fields });
  const response = await fetch(`${t.url}/oauth/token`, { method: "POST", headers, body });
  return { status: response.status, body: await response.json() };
}

const userWith = (token: string) => fetch(`${t.url}/api/v4/user`, { headers: { Authorization: `Bearer ${token}` } });

/** The sign-in page of a new authorization request. */
async function signInPage(jar: CookieJar) {
  const { challenge } = await pkce();
  const page = await follow(jar, t.url, await browserFetch(jar, authorizationUrl({ code_challenge: challenge, code_challenge_method: "S256" })));
  if (typeof page === "string") throw new Error(`unexpected redirect to ${page}`);
  const html = await page.text();
  return { html, action: new URL(formAction(html)!, t.url).href, csrf: formField(html, "authenticity_token") };
}

describe("client authentication", () => {
  it("refuses a wrong secret, an unknown client and a missing secret with invalid_client", async () => {
    const { code, verifier } = await codeFor();
    const fields = { grant_type: "authorization_code", code, redirect_uri: REDIRECT, code_verifier: verifier };
    expect(await tokenRequest(fields, { id: app.application_id, secret: "gloas-wrong" })).toMatchObject({ status: 401, body: { error: "invalid_client" } });
    expect(await tokenRequest(fields, { id: "unknown-client", secret: "x" })).toMatchObject({ status: 401, body: { error: "invalid_client" } });
    expect(await tokenRequest(fields, { id: app.application_id })).toMatchObject({ status: 401, body: { error: "invalid_client" } });
    // the secret also works in the body (client_secret_post), as GitLab's docs show it
    const posted = await tokenRequest({ ...fields, client_id: app.application_id, client_secret: app.secret }, { id: app.application_id, secret: undefined });
    expect(posted.status).toBe(200);
  });

  it("refuses the old secret once it is renewed", async () => {
    const renewed = await t.root.post(`/applications/${app.id}/renew-secret`);
    expect(renewed.status).toBe(200);
    const { code, verifier } = await codeFor();
    const fields = { grant_type: "authorization_code", code, redirect_uri: REDIRECT, code_verifier: verifier };
    expect(await tokenRequest(fields)).toMatchObject({ status: 401, body: { error: "invalid_client" } });
    const ok = await tokenRequest(fields, { id: app.application_id, secret: renewed.body.secret });
    expect(ok.status).toBe(200);
    app = { ...app, secret: renewed.body.secret };
  });

  it("shows an error page (no redirect) for an unknown client", async () => {
    const response = await fetch(authorizationUrl({}, "no-such-client"), { redirect: "manual" });
    expect(response.status).toBe(400);
    expect(response.headers.get("location")).toBeNull();
    expect(await response.text()).toContain("invalid_client");
  });
});

describe("authorization requests", () => {
  it("never redirects to an unregistered redirect_uri", async () => {
    const response = await fetch(authorizationUrl({ redirect_uri: "https://evil.example/callback" }), { redirect: "manual" });
    expect(response.status).toBe(400);
    expect(response.headers.get("location")).toBeNull();
    expect(await response.text()).toContain("redirect_uri");
  });

  it("refuses scopes the application was not registered with (invalid_scope)", async () => {
    const { challenge } = await pkce();
    const response = await fetch(authorizationUrl({ scope: "read_user sudo", code_challenge: challenge, code_challenge_method: "S256" }), { redirect: "manual" });
    expect(response.status).toBe(303);
    const location = new URL(response.headers.get("location")!);
    expect(location.origin + location.pathname).toBe(REDIRECT);
    expect(location.searchParams.get("error")).toBe("invalid_scope");
  });

  it("accepts a native application's custom-scheme redirect URI", async () => {
    const native = await createApplication(t, { redirect_uri: "com.example.app:/oauth/callback https://rp.example/native", scopes: "read_user", confidential: false });
    const { challenge } = await pkce();
    const jar = new CookieJar();
    const url = authorizationUrl({ redirect_uri: "com.example.app:/oauth/callback", code_challenge: challenge, code_challenge_method: "S256" }, native.application_id);
    const callback = new URL(await signInAndConsent(t.url, url, alice.username, PASSWORD, jar));
    expect(callback.protocol).toBe("com.example.app:");
    expect(callback.searchParams.get("code")).toEqual(expect.any(String));
  });

  it("still serves an application registered with a dynamic scope (user:*), for its other scopes", async () => {
    const dynamic = await createApplication(t, { redirect_uri: REDIRECT, scopes: "read_user user:custom", confidential: false });
    const { challenge } = await pkce();
    const url = authorizationUrl({ code_challenge: challenge, code_challenge_method: "S256" }, dynamic.application_id);
    expect(new URL(await signInAndConsent(t.url, url, alice.username, PASSWORD)).searchParams.get("code")).toEqual(expect.any(String));
  });

  it("requires PKCE from public applications", async () => {
    const publicApp = await createApplication(t, { redirect_uri: REDIRECT, scopes: "read_user", confidential: false });
    const response = await fetch(authorizationUrl({}, publicApp.application_id), { redirect: "manual" });
    const location = new URL(response.headers.get("location")!);
    expect(location.searchParams.get("error")).toBe("invalid_request");
    expect(location.searchParams.get("error_description")).toMatch(/PKCE|code_challenge/);
  });

  it("redirects with access_denied when the user denies", async () => {
    const jar = new CookieJar();
    const { action, csrf } = await signInPage(jar);
    const consent = await follow(jar, t.url, await browserFetch(jar, action, { form: { authenticity_token: csrf, login: alice.username, password: PASSWORD }, origin: t.url }));
    const html = await (consent as Response).text();
    const deny = new URL(formAction(html, 1)!, t.url).href;
    const location = await follow(jar, t.url, await browserFetch(jar, deny, { form: { authenticity_token: formField(html, "authenticity_token") }, origin: t.url }));
    expect(new URL(location as string).searchParams.get("error")).toBe("access_denied");
  });
});

describe("token requests", () => {
  it("refuses an unknown code, a wrong redirect_uri and a wrong PKCE verifier with invalid_grant", async () => {
    const base = { grant_type: "authorization_code", redirect_uri: REDIRECT };
    expect(await tokenRequest({ ...base, code: "made-up", code_verifier: "x".repeat(43) })).toMatchObject({ status: 400, body: { error: "invalid_grant" } });
    const first = await codeFor();
    expect(await tokenRequest({ ...base, code: first.code, code_verifier: first.verifier, redirect_uri: "https://rp.example/other" }))
      .toMatchObject({ status: 400, body: { error: "invalid_grant" } });
    const second = await codeFor();
    expect(await tokenRequest({ ...base, code: second.code, code_verifier: oidc.randomPKCECodeVerifier() }))
      .toMatchObject({ status: 400, body: { error: "invalid_grant" } });
  });

  it("revokes the tokens issued with a code when the code is replayed", async () => {
    const { code, verifier } = await codeFor();
    const fields = { grant_type: "authorization_code", code, redirect_uri: REDIRECT, code_verifier: verifier };
    const issued = await tokenRequest(fields);
    expect(issued.status).toBe(200);
    expect((await userWith(issued.body.access_token)).status).toBe(200);
    expect(await tokenRequest(fields)).toMatchObject({ status: 400, body: { error: "invalid_grant" } });
    expect((await userWith(issued.body.access_token)).status).toBe(401);
    expect(await tokenRequest({ grant_type: "refresh_token", refresh_token: issued.body.refresh_token })).toMatchObject({ status: 400, body: { error: "invalid_grant" } });
  });

  it("ends every token of a deleted application", async () => {
    const doomed = await createApplication(t, { redirect_uri: REDIRECT, scopes: "read_user" });
    const configuration = await oidc.discovery(new URL(t.url), doomed.application_id, doomed.secret, undefined, insecure);
    const { verifier, challenge } = await pkce();
    const url = oidc.buildAuthorizationUrl(configuration, { redirect_uri: REDIRECT, scope: "read_user", code_challenge: challenge, code_challenge_method: "S256" });
    const tokens = await oidc.authorizationCodeGrant(configuration, new URL(await signInAndConsent(t.url, url.href, alice.username, PASSWORD)), { pkceCodeVerifier: verifier });
    expect((await userWith(tokens.access_token)).status).toBe(200);
    expect((await t.root.delete(`/applications/${doomed.id}`)).status).toBe(204);
    expect((await userWith(tokens.access_token)).status).toBe(401);
    expect(await t.services.db.oauthArtifact.count({ where: { clientId: doomed.application_id } })).toBe(0);
    await expect(oidc.refreshTokenGrant(configuration, tokens.refresh_token!)).rejects.toMatchObject({ error: "invalid_client" });
  });

  it("expires access tokens after two hours", async () => {
    const { code, verifier } = await codeFor();
    const issued = await tokenRequest({ grant_type: "authorization_code", code, redirect_uri: REDIRECT, code_verifier: verifier });
    const row = await t.services.db.accessToken.findFirstOrThrow({ where: { kind: "oauth" }, orderBy: { id: "desc" } });
    expect(row.expiresAt!.getTime() - row.createdAt.getTime()).toBeGreaterThan(7195_000);
    expect(row.expiresAt!.getTime() - row.createdAt.getTime()).toBeLessThanOrEqual(7200_000 + 1000);
    await t.services.db.accessToken.update({ where: { id: row.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const expired = await userWith(issued.body.access_token);
    expect(expired.status).toBe(401);
    expect(await expired.json()).toMatchObject({ error: "invalid_token", error_description: expect.stringMatching(/expired/) });
  });
});

describe("sign-in form", () => {
  it("sets the session cookies HttpOnly and SameSite=Lax", async () => {
    const jar = new CookieJar();
    await codeFor("read_user", jar);
    const session = jar.raw.filter((line) => line.startsWith("_forgeline_oauth_session="));
    expect(session.length).toBeGreaterThan(0);
    for (const line of session) expect(line).toMatch(/httponly/i), expect(line).toMatch(/samesite=lax/i);
  });

  it("marks the cookies Secure when PUBLIC_URL is https", async () => {
    const secure = await startOAuthServer({ publicUrl: "https://forgeline.example" });
    try {
      const client = await createApplication(secure, { redirect_uri: REDIRECT, scopes: "read_user" });
      const { challenge } = await pkce();
      const url = new URL(`${secure.url}/oauth/authorize`);
      const params = { client_id: client.application_id, response_type: "code", redirect_uri: REDIRECT, scope: "read_user", code_challenge: challenge, code_challenge_method: "S256" };
      for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
      const response = await fetch(url, { redirect: "manual", headers: { host: "forgeline.example" } }); // the proxy may not say https
      expect(response.status).toBe(303);
      const cookies = response.headers.getSetCookie();
      expect(cookies.length).toBeGreaterThan(0);
      for (const line of cookies) expect(line).toMatch(/; secure/i);
    } finally {
      await secure.close();
    }
  });

  it("says the same for an unknown login and a wrong password, and limits failed attempts", async () => {
    const victim = await createUser(t);
    const attempt = async (login: string, password: string) => {
      const jar = new CookieJar();
      const { action, csrf } = await signInPage(jar);
      const response = await browserFetch(jar, action, { form: { authenticity_token: csrf, login, password }, origin: t.url });
      return { status: response.status, text: await response.text() };
    };
    const unknown = await attempt("nobody-here", "whatever-123");
    const wrong = await attempt(victim.username, "wrong-password");
    expect(unknown.status).toBe(401);
    expect(wrong.status).toBe(401);
    const message = (html: string) => /role="alert">([^<]*)</.exec(html)?.[1];
    expect(message(unknown.text)).toBe("Invalid login or password.");
    expect(message(wrong.text)).toBe(message(unknown.text));
    for (let i = 0; i < 4; i++) expect((await attempt(victim.username, "wrong-password")).status).toBe(401);
    const limited = await attempt(victim.username, PASSWORD); // right password, too late
    expect(limited.status).toBe(429);
    expect(message(limited.text)).toMatch(/Too many/);
    for (let i = 0; i < 5; i++) await attempt("nobody-else", "x");
    expect(message((await attempt("nobody-else", "x")).text)).toBe(message(limited.text));
    // counted in the database (every server process shares it), under digests only
    const counted = JSON.stringify(await t.services.db.oauthSignInAttempt.findMany());
    expect(counted).toMatch(/"points":5/);
    expect(counted).not.toContain(victim.username);
    expect(counted).not.toContain("127.0.0.1");
  });

  it("refuses a post without the CSRF token or from another origin", async () => {
    const jar = new CookieJar();
    const { action, csrf } = await signInPage(jar);
    const noToken = await browserFetch(jar, action, { form: { login: alice.username, password: PASSWORD }, origin: t.url });
    expect(noToken.status).toBe(422);
    const forged = await browserFetch(jar, action, { form: { authenticity_token: "forged", login: alice.username, password: PASSWORD }, origin: t.url });
    expect(forged.status).toBe(422);
    const foreign = await browserFetch(jar, action, { form: { authenticity_token: csrf, login: alice.username, password: PASSWORD }, origin: "https://evil.example" });
    expect(foreign.status).toBe(403);
    const noCookie = await browserFetch(new CookieJar(), action, { form: { authenticity_token: csrf, login: alice.username, password: PASSWORD }, origin: t.url });
    expect(noCookie.status).toBe(400);
  });

  it("serves plain pages that load nothing from elsewhere and cannot be framed", async () => {
    const jar = new CookieJar();
    const { challenge } = await pkce();
    const page = await follow(jar, t.url, await browserFetch(jar, authorizationUrl({ code_challenge: challenge, code_challenge_method: "S256" })));
    const response = page as Response;
    expect(response.headers.get("content-security-policy")).toContain("default-src 'none'");
    expect(response.headers.get("x-frame-options")).toBe("DENY");
    const html = await response.text();
    expect(html).toContain('<label for="login">');
    expect(html).toContain('<label for="password">');
    expect(html).not.toMatch(/<script|src="http|href="http/);
  });

  it("does not let a blocked user sign in", async () => {
    const blocked = await createUser(t);
    expect((await t.root.post(`/users/${blocked.id}/block`)).status).toBe(201);
    const jar = new CookieJar();
    const { action, csrf } = await signInPage(jar);
    const response = await browserFetch(jar, action, { form: { authenticity_token: csrf, login: blocked.username, password: PASSWORD }, origin: t.url });
    expect(response.status).toBe(401);
  });
});
