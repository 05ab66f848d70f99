// GitLab's device authorization grant (RFC 8628): a device (openid-client) asks for a user code,
// the user enters it on /oauth/device, signs in, confirms and consents; the device's token then
// reads the API. Wrong or reused codes are refused.
import * as oidc from "openid-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser, type TestUser } from "../helpers/factories.js";
import { browserFetch, CookieJar, createApplication, follow, PASSWORD, startOAuthServer, type Application, type OAuthServer } from "./helpers.js";

let t: OAuthServer;
let alice: TestUser;
let app: Application;
let config: oidc.Configuration;

beforeAll(async () => {
  t = await startOAuthServer();
  alice = await createUser(t);
  app = await createApplication(t, { redirect_uri: "https://rp.example/callback", scopes: "read_user openid", confidential: false });
  config = await oidc.discovery(new URL(t.url), app.application_id, undefined, oidc.None(), { execute: [oidc.allowInsecureRequests] });
});
afterAll(async () => {
  await t?.close();
  expect(t?.errors).toEqual([]);
});

const field = (html: string, name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1] ?? "";
const action = (html: string) => /<form[^>]*method="post" action="([^"]+)"/.exec(html)?.[1] ?? "";

async function page(jar: CookieJar, response: Response) {
  const step = await follow(jar, t.url, response);
  if (typeof step === "string") throw new Error(`left the server for ${step}`);
  return { status: step.status, html: await step.text() };
}

/** Posts the page's first form with `fields` added to its own hidden fields. */
async function submit(jar: CookieJar, html: string, fields: Record<string, string>) {
  const hidden: Record<string, string> = {};
  for (const name of ["xsrf", "authenticity_token", "user_code", "confirm"]) if (field(html, name)) hidden[name] = field(html, name);
  return page(jar, await browserFetch(jar, new URL(action(html), t.url).href, { form: { ...hidden, ...fields }, origin: t.url }));
}

const tokenFor = (deviceCode: string) =>
  fetch(`${t.url}/oauth/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ grant_type: "urn:ietf:params:oauth:grant-type:device_code", device_code: deviceCode, client_id: app.application_id }),
  }).then(async (response) => ({ status: response.status, body: await response.json() }));

describe("device authorization grant", () => {
  it("is published in the discovery document at GitLab's paths", () => {
    expect(config.serverMetadata()).toMatchObject({
      device_authorization_endpoint: `${t.url}/oauth/authorize_device`,
      grant_types_supported: expect.arrayContaining(["urn:ietf:params:oauth:grant-type:device_code"]),
    });
  });

  it("signs a device in through the code page, sign-in, confirmation and consent", async () => {
    const device = await oidc.initiateDeviceAuthorization(config, { scope: "openid read_user" });
    expect(device.verification_uri).toBe(`${t.url}/oauth/device`);
    expect(await tokenFor(device.device_code)).toMatchObject({ status: 400, body: { error: "authorization_pending" } });

    const jar = new CookieJar();
    const input = await page(jar, await browserFetch(jar, device.verification_uri));
    expect(input.html).toContain('<label for="user_code">');
    expect(input.html).not.toMatch(/onfocus|<script/);
    const wrong = await submit(jar, input.html, { user_code: "BCDF-GHJK" });
    expect(wrong.html).toContain("The code is not valid");
    const confirm = await submit(jar, wrong.html, { user_code: device.user_code });
    expect(confirm.html).toContain(device.user_code);
    const signIn = await submit(jar, confirm.html, {});
    expect(signIn.html).toContain('name="password"');
    const consent = await submit(jar, signIn.html, { login: alice.username, password: PASSWORD });
    expect(consent.html).toContain("read_user");
    const done = await submit(jar, consent.html, {});
    expect(done.html).toContain("Device connected");

    const issued = await tokenFor(device.device_code);
    expect(issued.status).toBe(200);
    expect(issued.body).toMatchObject({ token_type: "Bearer", expires_in: 7200, scope: "openid read_user" });
    const me = await fetch(`${t.url}/api/v4/user`, { headers: { Authorization: `Bearer ${issued.body.access_token}` } });
    expect((await me.json()).username).toBe(alice.username);
    expect(await tokenFor(device.device_code)).toMatchObject({ status: 400, body: { error: "invalid_grant" } });
    const stored = JSON.stringify(await t.services.db.oauthArtifact.findMany({ where: { model: "DeviceCode" } }));
    expect(stored).not.toContain(device.device_code);
    expect(stored).not.toContain(device.user_code.replace("-", ""));
  });

  it("tells the device when the user cancels", async () => {
    const device = await oidc.initiateDeviceAuthorization(config, { scope: "read_user" });
    const jar = new CookieJar();
    const input = await page(jar, await browserFetch(jar, device.verification_uri));
    const confirm = await submit(jar, input.html, { user_code: device.user_code });
    await submit(jar, confirm.html, { abort: "yes" });
    expect(await tokenFor(device.device_code)).toMatchObject({ status: 400, body: { error: "access_denied" } });
  });
});
