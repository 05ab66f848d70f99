// An OAuth access token as a git password (`oauth2:<token>`, as GitLab documents it): obtained by
// the authorization code flow of a real relying party, it clones with the `api` scope, is refused
// without a repository scope, and stops working once revoked.
import { execFile } from "node:child_process";
import { createServer, type Server } from "node:http";
import { createServerAdapter } from "@whatwg-node/server";
import * as oidc from "openid-client";
import { afterAll, beforeAll, expect, it } from "vitest";
import { withGitHttp } from "../../src/git-http/handler.js";
import { withOAuth } from "../../src/oauth/index.js";
import { startTestApp, type TestApp } from "../helpers/app.js";
import { createProject, createUser, type TestUser } from "../helpers/factories.js";
import { freePort } from "../e2e/helpers/server.js";
import { createApplication, PASSWORD, signInAndConsent } from "./helpers.js";

const REDIRECT = "https://rp.example/callback";
const insecure = { execute: [oidc.allowInsecureRequests] };

let t: TestApp;
let url: string;
let server: Server;
let alice: TestUser;
let project: { path_with_namespace: string };
let config: oidc.Configuration;

beforeAll(async () => {
  const port = await freePort();
  url = `http://127.0.0.1:${port}`;
  t = await startTestApp({ PUBLIC_URL: url });
  const app = createServerAdapter((request: Request) => t.app.fetch(request));
  server = createServer(withGitHttp(t.services, withOAuth(t.services, app)));
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  alice = await createUser(t);
  project = await createProject(alice.api);
  const application = await createApplication(t, { redirect_uri: REDIRECT, scopes: "api read_user" });
  config = await oidc.discovery(new URL(url), application.application_id, application.secret, undefined, insecure);
});
afterAll(() => new Promise<void>((resolve) => {
  server?.closeAllConnections();
  server?.close(() => resolve());
}));

async function accessToken(scope: string): Promise<string> {
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const authorization = oidc.buildAuthorizationUrl(config, {
    redirect_uri: REDIRECT, scope, state, code_challenge: await oidc.calculatePKCECodeChallenge(verifier), code_challenge_method: "S256",
  });
  const callback = await signInAndConsent(url, authorization.href, alice.username, PASSWORD);
  return (await oidc.authorizationCodeGrant(config, new URL(callback), { pkceCodeVerifier: verifier, expectedState: state })).access_token;
}

function lsRemote(password: string): Promise<{ code: number; stderr: string }> {
  const remote = `http://oauth2:${password}@127.0.0.1:${new URL(url).port}/${project.path_with_namespace}.git`;
  return new Promise((resolve) => {
    execFile("git", ["ls-remote", remote], { env: { ...process.env, GIT_TERMINAL_PROMPT: "0", GIT_CONFIG_NOSYSTEM: "1" } }, (error, _out, stderr) =>
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stderr }));
  });
}

it("clones with an `api` token, refuses a token without a repository scope, and a revoked one", async () => {
  const api = await accessToken("api");
  expect(await lsRemote(api)).toMatchObject({ code: 0 });
  const userOnly = await accessToken("read_user");
  const refused = await lsRemote(userOnly);
  expect(refused.code).not.toBe(0);
  expect(refused.stderr).toContain("remote: You are not allowed to download code.");
  await oidc.tokenRevocation(config, api);
  const revoked = await lsRemote(api);
  expect(revoked.code).not.toBe(0);
  expect(revoked.stderr).toContain("HTTP Basic: Access denied");
});
