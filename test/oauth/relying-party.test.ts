// A relying party (openid-client 6) that knows only the discovery URL, against the real provider
// over HTTP: discovery, authorization code + PKCE through the sign-in and consent pages, the ID
// token's GitLab claims, refresh, userinfo, token info, introspection and revocation; the tokens
// read the API with exactly their scopes (as personal access tokens).
import * as oidc from "openid-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addMember, createGroup, createUser, type TestUser } from "../helpers/factories.js";
import { createApplication, PASSWORD, signInAndConsent, startOAuthServer, type Application, type OAuthServer } from "./helpers.js";

const REDIRECT = "https://rp.example/callback";
const insecure = { execute: [oidc.allowInsecureRequests] };

let t: OAuthServer;
let alice: TestUser;
let app: Application;
let config: oidc.Configuration;

beforeAll(async () => {
  t = await startOAuthServer();
  alice = await createUser(t);
  app = await createApplication(t, { redirect_uri: REDIRECT, scopes: "api read_user openid profile email" });
  config = await oidc.discovery(new URL(t.url), app.application_id, app.secret, undefined, insecure);
});
afterAll(async () => {
  await t?.close();
  expect(t?.errors).toEqual([]); // no server error along the way
});

/** The whole flow for `user`: returns the token endpoint's answer. */
async function authorize(scope: string, user = alice, configuration = config) {
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const url = oidc.buildAuthorizationUrl(configuration, {
    redirect_uri: REDIRECT, scope, state, code_challenge: await oidc.calculatePKCECodeChallenge(verifier), code_challenge_method: "S256",
  });
  const callback = await signInAndConsent(t.url, url.href, user.username, PASSWORD);
  return oidc.authorizationCodeGrant(configuration, new URL(callback), { pkceCodeVerifier: verifier, expectedState: state });
}

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
const api = (path: string, token: string, init: RequestInit = {}) =>
  fetch(`${t.url}/api/v4${path}`, { ...init, headers: { ...bearer(token), "Content-Type": "application/json", ...(init.headers as object) } });

describe("discovery", () => {
  it("publishes GitLab's endpoints, scopes and signing keys", async () => {
    const metadata = config.serverMetadata();
    expect(metadata).toMatchObject({
      issuer: t.url,
      authorization_endpoint: `${t.url}/oauth/authorize`,
      token_endpoint: `${t.url}/oauth/token`,
      revocation_endpoint: `${t.url}/oauth/revoke`,
      introspection_endpoint: `${t.url}/oauth/introspect`,
      userinfo_endpoint: `${t.url}/oauth/userinfo`,
      jwks_uri: `${t.url}/oauth/discovery/keys`,
      code_challenge_methods_supported: ["S256"],
    });
    expect(metadata.scopes_supported).toEqual(expect.arrayContaining(["api", "read_api", "read_user", "openid", "profile", "email"]));
    const jwks = await (await fetch(`${t.url}/oauth/discovery/keys`)).json();
    expect(jwks.keys).toEqual([expect.objectContaining({ kty: "RSA", alg: "RS256", use: "sig" })]);
    expect(JSON.stringify(jwks)).not.toMatch(/"d"|"p"|"q"/); // public parts only
  });


  it("lets single-page clients call the token endpoint cross-origin (GitLab's CORS rules), without credentials", async () => {
    const preflight = await fetch(`${t.url}/oauth/token`, {
      method: "OPTIONS", headers: { Origin: "https://spa.example", "Access-Control-Request-Method": "POST" },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe("https://spa.example");
    expect(preflight.headers.get("access-control-allow-credentials")).toBeNull();
  });
});

describe("authorization code + PKCE", () => {
  it("signs in, consents, and gets tokens whose ID token carries GitLab's claims", async () => {
    const group = await createGroup(t.root);
    await addMember(t.root, "groups", group.id, alice.id, 50);
    const tokens = await authorize("openid profile email read_user");
    expect(tokens.token_type.toLowerCase()).toBe("bearer");
    expect(tokens.expires_in).toBe(7200);
    expect(tokens.created_at).toEqual(expect.any(Number));
    expect(tokens.refresh_token).toEqual(expect.any(String));
    expect(tokens.scope?.split(" ").sort()).toEqual(["email", "openid", "profile", "read_user"]);
    expect(tokens.claims()).toMatchObject({
      iss: t.url,
      aud: app.application_id,
      sub: String(alice.id),
      name: `User ${alice.username}`,
      nickname: alice.username,
      preferred_username: alice.username,
      email: `${alice.username}@example.com`,
      email_verified: true,
      profile: `${t.url}/${alice.username}`,
      groups: [group.full_path],
      groups_direct: [group.full_path],
      "https://gitlab.org/claims/groups/owner": [group.full_path],
    });
  });

  it("gives tokens that read the API with their scopes, and refuses writes GitLab's way", async () => {
    const tokens = await authorize("read_user");
    const me = await api("/user", tokens.access_token);
    expect(me.status).toBe(200);
    expect((await me.json()).username).toBe(alice.username);
    const write = await api("/projects", tokens.access_token, { method: "POST", body: JSON.stringify({ name: "nope" }) });
    expect(write.status).toBe(403);
    expect(await write.json()).toMatchObject({ error: "insufficient_scope", scope: "api" });
    const graphql = await fetch(`${t.url}/graphql`, {
      method: "POST", headers: { ...bearer(tokens.access_token), "Content-Type": "application/json" }, body: JSON.stringify({ query: "{ currentUser { username } }" }),
    });
    expect((await graphql.json()).errors?.[0]?.extensions).toMatchObject({ http: { status: 403 } });
  });

  it("gives an api token that writes through REST and GraphQL", async () => {
    const tokens = await authorize("api");
    const created = await api("/projects", tokens.access_token, { method: "POST", body: JSON.stringify({ name: `oauth-${Date.now()}` }) });
    expect(created.status).toBe(201);
    const graphql = await fetch(`${t.url}/graphql`, {
      method: "POST", headers: { ...bearer(tokens.access_token), "Content-Type": "application/json" }, body: JSON.stringify({ query: "{ currentUser { username } }" }),
    });
    expect((await graphql.json()).data).toEqual({ currentUser: { username: alice.username } });
  });
});

describe("token life", () => {
  it("refreshes, serves userinfo, token info and introspection, and revokes", async () => {
    const tokens = await authorize("openid email read_user");
    const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token!);
    expect(refreshed.access_token).not.toBe(tokens.access_token);
    expect(refreshed.expires_in).toBe(7200);
    expect(refreshed.claims()?.sub).toBe(String(alice.id));

    const userinfo = await oidc.fetchUserInfo(config, refreshed.access_token, String(alice.id));
    expect(userinfo).toMatchObject({ sub: String(alice.id), email: `${alice.username}@example.com`, nickname: alice.username });

    const info = await fetch(`${t.url}/oauth/token/info`, { headers: bearer(refreshed.access_token) });
    expect(info.status).toBe(200);
    expect(await info.json()).toEqual({
      resource_owner_id: alice.id,
      scope: ["openid", "email", "read_user"],
      scopes: ["openid", "email", "read_user"],
      expires_in: expect.any(Number),
      expires_in_seconds: expect.any(Number),
      application: { uid: app.application_id },
      created_at: expect.any(Number),
    });

    const introspection = await oidc.tokenIntrospection(config, refreshed.access_token);
    expect(introspection).toMatchObject({ active: true, client_id: app.application_id, sub: String(alice.id), scope: "openid email read_user" });

    await oidc.tokenRevocation(config, refreshed.access_token);
    expect((await oidc.tokenIntrospection(config, refreshed.access_token)).active).toBe(false);
    expect((await api("/user", refreshed.access_token)).status).toBe(401);
    const gone = await fetch(`${t.url}/oauth/token/info`, { headers: bearer(refreshed.access_token) });
    expect(gone.status).toBe(401);
    expect(await gone.json()).toEqual({ error: "invalid_token", error_description: "The access token is invalid" });
  });

  it("rotates refresh tokens: a replayed one is refused and ends the tokens issued from it", async () => {
    const tokens = await authorize("read_user");
    const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token!);
    expect((await api("/user", refreshed.access_token)).status).toBe(200);
    await expect(oidc.refreshTokenGrant(config, tokens.refresh_token!)).rejects.toMatchObject({ error: "invalid_grant" });
    expect((await api("/user", refreshed.access_token)).status).toBe(401);
    await expect(oidc.refreshTokenGrant(config, refreshed.refresh_token!)).rejects.toMatchObject({ error: "invalid_grant" });
  });

  it("refuses a refresh that asks for more scopes than granted", async () => {
    const tokens = await authorize("read_user");
    await expect(oidc.refreshTokenGrant(config, tokens.refresh_token!, { scope: "read_user api" })).rejects.toMatchObject({ error: "invalid_scope" });
  });

  it("stores codes and tokens only as digests", async () => {
    const tokens = await authorize("read_user");
    const rows = await t.services.db.oauthArtifact.findMany();
    const stored = JSON.stringify(rows) + JSON.stringify(await t.services.db.accessToken.findMany());
    expect(stored).not.toContain(tokens.access_token);
    expect(stored).not.toContain(tokens.refresh_token);
    expect(JSON.stringify(await t.services.db.oauthKeySet.findMany())).not.toMatch(/"kty"|"RSA"/);
  });
});

describe("public applications", () => {
  it("use PKCE without a secret", async () => {
    const publicApp = await createApplication(t, { redirect_uri: REDIRECT, scopes: "read_user", confidential: false });
    const configuration = await oidc.discovery(new URL(t.url), publicApp.application_id, undefined, oidc.None(), insecure);
    const tokens = await authorize("read_user", alice, configuration);
    expect((await api("/user", tokens.access_token)).status).toBe(200);
  });
});
