// The web sign-in form and GitLab's audit events: a sign-in with a password records
// authenticated_with_password on the user; a wrong password or an unknown login records
// login_failed_with_standard_authentication (no author, the login tried as its name, never the
// password); both carry the client's address. A rate-limited attempt records nothing.
import * as oidc from "openid-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser, uniq, type TestUser } from "../helpers/factories.js";
import { browserFetch, CookieJar, createApplication, follow, formAction, formField, PASSWORD, signInAndConsent, startOAuthServer, type Application, type OAuthServer } from "./helpers.js";

const REDIRECT = "https://rp.example/callback";
const LOOPBACK = /^(127\.0\.0\.1|::1|::ffff:127\.0\.0\.1)$/;

let t: OAuthServer;
let alice: TestUser;
let app: Application;
let config: oidc.Configuration;

beforeAll(async () => {
  t = await startOAuthServer();
  alice = await createUser(t);
  app = await createApplication(t, { redirect_uri: REDIRECT, scopes: "api openid" });
  config = await oidc.discovery(new URL(t.url), app.application_id, app.secret, undefined, { execute: [oidc.allowInsecureRequests] });
});
afterAll(async () => {
  await t?.close();
  expect(t?.errors).toEqual([]);
});

const authorizationUrl = () => oidc.buildAuthorizationUrl(config, {
  redirect_uri: REDIRECT, scope: "openid", state: oidc.randomState(), code_challenge: "x".repeat(43), code_challenge_method: "S256",
}).href;

/** Submits the sign-in form once with these credentials; the page's status. */
async function submitSignIn(login: string, password: string): Promise<number> {
  const jar = new CookieJar();
  const page = await follow(jar, t.url, await browserFetch(jar, authorizationUrl()));
  if (typeof page === "string") throw new Error(`no sign-in page: ${page}`);
  const html = await page.text();
  const action = new URL(formAction(html)!, t.url).toString();
  const answer = await browserFetch(jar, action, { form: { authenticity_token: formField(html, "authenticity_token"), login, password }, origin: t.url });
  await answer.text();
  return answer.status;
}

const instanceEvents = async (name: string) => {
  const res = await t.root.get("/audit_events", { query: { per_page: 100 } });
  expect(res.status).toBe(200);
  return (res.body as any[]).filter((e) => e.event_name === name);
};

describe("web sign-in audit events", () => {
  it("records a sign-in with a password on the user, by the user, from the client's address", async () => {
    const before = await instanceEvents("authenticated_with_password");
    await signInAndConsent(t.url, authorizationUrl(), alice.username, PASSWORD);
    const events = (await instanceEvents("authenticated_with_password")).filter((e) => !before.some((b) => b.id === e.id));
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ author_id: alice.id, entity_type: "User", entity_id: alice.id });
    expect(events[0].details).toMatchObject({
      with: "standard", target_id: alice.id, target_type: "User", target_details: alice.username, entity_path: alice.username,
    });
    expect(events[0].details.ip_address).toMatch(LOOPBACK);
  });

  it("records a wrong password and an unknown login as failed logins, without the password and without signing in", async () => {
    const unknown = uniq("nobody");
    expect(await submitSignIn(alice.username, "wrong-password-1")).toBe(401);
    expect(await submitSignIn(unknown, "wrong-password-2")).toBe(401);
    const events = await instanceEvents("login_failed_with_standard_authentication");
    const mine = events.filter((e) => [alice.username, unknown].includes(e.details.target_details));
    expect(mine.map((e) => [e.author_id, e.entity_type, e.entity_id, e.details.author_name, e.details.failed_login])).toEqual([
      [-1, "User", -1, unknown, "STANDARD"],
      [-1, "User", -1, alice.username, "STANDARD"],
    ]);
    for (const event of mine) expect(event.details.ip_address).toMatch(LOOPBACK);
    expect(JSON.stringify(events)).not.toContain("wrong-password");
    // nothing recorded as a sign-in
    const signIns = await instanceEvents("authenticated_with_password");
    expect(signIns.filter((e) => e.entity_id === alice.id)).toHaveLength(1);
  });
});
