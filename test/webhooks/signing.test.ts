// Signed deliveries (a Forgeline extension): a hook with signing_enabled carries a Standard
// Webhooks secret, shown once; deliveries carry webhook-id/-timestamp/-signature beside the GitLab
// headers, verified here with the specification's reference library (standardwebhooks); rotation
// signs with both secrets during the grace period; resends are signed afresh. Group and project
// hooks alike, over REST and /graphql, with the hooks' own access rules.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { Webhook, WebhookVerificationError } from "standardwebhooks";
import { addMember, createGroup, createProject, createUser, type TestUser } from "../helpers/factories.js";
import type { ApiClient } from "../helpers/api.js";
import type { Received } from "./receiver.js";
import { resetHooks, startTestbed, type WebhookTestbed } from "./setup.js";

let bed: WebhookTestbed;
let owner: TestUser, maintainer: TestUser, developer: TestUser, guest: TestUser;
let group: any, project: any;

const HOUR = 3_600_000;
const owners = [
  { kind: "group", base: () => `/groups/${group.id}/hooks`, fields: { push_events: true, member_events: true } },
  { kind: "project", base: () => `/projects/${project.id}/hooks`, fields: { push_events: true } },
] as const;

beforeAll(async () => {
  bed = await startTestbed();
  [owner, maintainer, developer, guest] = await Promise.all([createUser(bed.t), createUser(bed.t), createUser(bed.t), createUser(bed.t)]);
  group = await createGroup(owner.api);
  project = await createProject(owner.api, { namespace_id: group.id });
  for (const [user, level] of [[maintainer, 40], [developer, 30], [guest, 10]] as const) {
    await addMember(owner.api, "groups", group.id, user.id, level);
  }
});
afterAll(() => bed.close());
beforeEach(() => resetHooks(bed));

/** The headers standardwebhooks verifies (the node:http names are lower case already). */
const signed = (request: Received) => ({
  "webhook-id": String(request.headers["webhook-id"]),
  "webhook-timestamp": String(request.headers["webhook-timestamp"]),
  "webhook-signature": String(request.headers["webhook-signature"]),
});
const verifies = (secret: string, request: Received, body = request.body) => {
  try {
    new Webhook(secret).verify(body, signed(request));
    return true;
  } catch (error) {
    expect(error).toBeInstanceOf(WebhookVerificationError);
    return false;
  }
};

for (const o of owners) {
  describe(`${o.kind} hooks`, () => {
    const create = async (fields: Record<string, unknown> = {}, by: ApiClient = owner.api) => {
      const res = await by.post(o.base(), { url: `${bed.receiver.url}/hook`, ...o.fields, ...fields });
      expect(res.status, res.text).toBe(201);
      return res.body;
    };
    /** A test delivery (sent at once, through the same code as the worker's). */
    const deliver = async (hookId: number): Promise<Received> => {
      bed.receiver.clear();
      expect((await owner.api.post(`${o.base()}/${hookId}/test/push_events`)).status).toBe(201);
      return bed.receiver.requests.at(-1)!;
    };
    const rotate = (hookId: number, by: ApiClient = owner.api) => by.post(`${o.base()}/${hookId}/signing_secret`);

    it("is off unless asked for: no secret, no signature headers", async () => {
      const hook = await create();
      expect(hook).toMatchObject({ signing_enabled: false, signing_secret: null });
      const request = await deliver(hook.id);
      expect(request.headers["webhook-signature"]).toBeUndefined();
      expect(request.headers["x-service-event"]).toBe("Push Hook");
    });

    it("shows the generated whsec_ secret once and signs deliveries the reference library verifies", async () => {
      const hook = await create({ signing_enabled: true });
      expect(hook.signing_enabled).toBe(true);
      expect(hook.signing_secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
      const shown = await owner.api.get(`${o.base()}/${hook.id}`);
      expect(shown.body).toMatchObject({ signing_enabled: true, signing_secret: null });
      expect(JSON.stringify((await owner.api.get(o.base())).body)).not.toContain(hook.signing_secret);
      const row = await bed.t.services.db.webHook.findUniqueOrThrow({ where: { id: hook.id } });
      expect(JSON.stringify(row)).not.toContain(hook.signing_secret.slice(6)); // sealed at rest

      const request = await deliver(hook.id);
      expect(request.headers["webhook-id"]).toBe(request.headers["idempotency-key"]);
      expect(Number(request.headers["webhook-timestamp"])).toBe(Math.floor(bed.clock.now().getTime() / 1000));
      expect(request.headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
      expect(request.headers["x-service-webhook-uuid"]).toBeDefined();
      expect(verifies(hook.signing_secret, request)).toBe(true);
      expect(verifies(hook.signing_secret, request, request.body.replace("}", ',"tampered":true}'))).toBe(false);
      expect(verifies(`whsec_${Buffer.alloc(32, 7).toString("base64")}`, request)).toBe(false);
    });

    it("a signature with a stale timestamp does not verify", async () => {
      const hook = await create({ signing_enabled: true });
      bed.clock.advance(-10 * 60_000); // the server's clock ten minutes behind: the receiver sees an old delivery
      const request = await deliver(hook.id);
      expect(verifies(hook.signing_secret, request)).toBe(false);
    });

    it("rotation: old and new secrets both verify during the grace period, only the new one after", async () => {
      const hook = await create({ signing_enabled: true });
      const res = await rotate(hook.id);
      expect(res.status, res.text).toBe(201);
      expect(res.body).toMatchObject({ id: hook.id, signing_enabled: true });
      const fresh = res.body.signing_secret;
      expect(fresh).toMatch(/^whsec_/);
      expect(fresh).not.toBe(hook.signing_secret);
      const during = await deliver(hook.id);
      expect(String(during.headers["webhook-signature"]).split(" ")).toHaveLength(2);
      expect(verifies(fresh, during)).toBe(true);
      expect(verifies(hook.signing_secret, during)).toBe(true);

      bed.clock.set(new Date(Date.now() + 24 * HOUR + 60_000));
      const after = await deliver(hook.id);
      // the receiver's clock agrees with the server's for the timestamp check
      const at = Number(after.headers["webhook-timestamp"]);
      const resigned = { ...after, headers: { ...after.headers, "webhook-timestamp": String(at) } };
      expect(String(after.headers["webhook-signature"]).split(" ")).toHaveLength(1);
      const realNow = Date.now;
      Date.now = () => at * 1000;
      try {
        expect(verifies(fresh, resigned)).toBe(true);
        expect(verifies(hook.signing_secret, resigned)).toBe(false);
      } finally {
        Date.now = realNow;
      }
    });

    it("worker deliveries are signed, and a resend is signed afresh with a new timestamp", async () => {
      const hook = await create({ signing_enabled: true });
      await deliver(hook.id);
      const [event] = (await owner.api.get(`${o.base()}/${hook.id}/events`)).body;
      expect(event.request_headers["webhook-signature"]).toMatch(/^v1,/);
      const first = bed.receiver.requests.at(-1)!;
      bed.clock.advance(5_000);
      bed.receiver.clear();
      expect((await owner.api.post(`${o.base()}/${hook.id}/events/${event.id}/resend`)).status).toBe(201);
      const again = bed.receiver.requests.at(-1)!;
      expect(again.headers["webhook-id"]).toBe(first.headers["webhook-id"]);
      expect(Number(again.headers["webhook-timestamp"])).toBe(Number(first.headers["webhook-timestamp"]) + 5);
      expect(again.headers["webhook-signature"]).not.toBe(first.headers["webhook-signature"]);
      bed.clock.set(new Date());
      expect(verifies(hook.signing_secret, { ...again, headers: again.headers })).toBe(true);
    });

    it("PUT signing_enabled turns it on (secret shown once) and off (secrets forgotten)", async () => {
      const hook = await create();
      const on = await owner.api.put(`${o.base()}/${hook.id}`, { url: hook.url, signing_enabled: true });
      expect(on.status, on.text).toBe(200);
      expect(on.body.signing_secret).toMatch(/^whsec_/);
      const again = await owner.api.put(`${o.base()}/${hook.id}`, { url: hook.url, signing_enabled: true });
      expect(again.body).toMatchObject({ signing_enabled: true, signing_secret: null });
      expect(verifies(on.body.signing_secret, await deliver(hook.id))).toBe(true);
      const unchanged = await owner.api.put(`${o.base()}/${hook.id}`, { url: hook.url, name: "renamed" });
      expect(unchanged.body.signing_enabled).toBe(true);
      const off = await owner.api.put(`${o.base()}/${hook.id}`, { url: hook.url, signing_enabled: false });
      expect(off.body).toMatchObject({ signing_enabled: false, signing_secret: null });
      expect((await deliver(hook.id)).headers["webhook-signature"]).toBeUndefined();
      const row = await bed.t.services.db.webHook.findUniqueOrThrow({ where: { id: hook.id } });
      expect([row.encryptedSigningSecret, row.encryptedPreviousSigningSecret]).toEqual([null, null]);
    });

    it("rotating a hook without signing turns it on; bad input answers 400 or 404", async () => {
      const hook = await create();
      const res = await rotate(hook.id);
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ signing_enabled: true, signing_secret: expect.stringMatching(/^whsec_/) });
      expect((await rotate(999_999)).status).toBe(404);
      expect((await owner.api.post(`${o.base()}/abc/signing_secret`)).status).toBe(400);
      const bad = await owner.api.post(o.base(), { url: `${bed.receiver.url}/hook`, signing_enabled: "maybe" });
      expect(bad.status).toBe(400);
      expect(bad.body).toEqual({ error: expect.any(String) });
      expect((await owner.api.put(`${o.base()}/${hook.id}`, { url: hook.url, signing_enabled: [1] })).status).toBe(400);
    });

    it("access: the hooks' own rules (anonymous 401, below the owner's level 403)", async () => {
      const hook = await create();
      const allowed = o.kind === "group" ? [owner, bed.t.root] : [owner, maintainer, bed.t.root];
      const refused = o.kind === "group" ? [maintainer, developer, guest] : [developer, guest];
      expect((await rotate(hook.id, bed.t.anon)).status).toBe(401);
      expect((await bed.t.anon.post(o.base(), { url: `${bed.receiver.url}/x`, signing_enabled: true })).status).toBe(401);
      for (const user of refused) {
        expect((await rotate(hook.id, user.api)).status).toBe(403);
        expect((await user.api.post(o.base(), { url: `${bed.receiver.url}/x`, signing_enabled: true })).status).toBe(403);
        expect((await user.api.put(`${o.base()}/${hook.id}`, { url: hook.url, signing_enabled: true })).status).toBe(403);
      }
      for (const who of allowed) {
        const api = "api" in who ? who.api : who;
        const res = await rotate(hook.id, api);
        expect(res.status, res.text).toBe(201);
        expect(res.body.signing_secret).toMatch(/^whsec_/);
        const made = await create({ signing_enabled: true }, api);
        expect(made.signing_secret).toMatch(/^whsec_/);
      }
    });
  });
}

describe("over /graphql", () => {
  it("createGroupHook(signing_enabled) and rotateProjectHookSigningSecret answer the secret once", async () => {
    const created = await owner.api.graphql(
      `mutation($id: ID!, $url: String!) { createGroupHook(id: $id, url: $url, signing_enabled: true) { id signing_enabled signing_secret } }`,
      { id: String(group.id), url: `${bed.receiver.url}/g` },
    );
    expect(created.body.errors).toBeUndefined();
    expect(created.body.data.createGroupHook).toMatchObject({ signing_enabled: true, signing_secret: expect.stringMatching(/^whsec_/) });
    const read = await owner.api.graphql(`query($id: ID!, $hook: Int!) { groupHook(id: $id, hook_id: $hook) { signing_enabled signing_secret } }`,
      { id: String(group.id), hook: created.body.data.createGroupHook.id });
    expect(read.body.data.groupHook).toEqual({ signing_enabled: true, signing_secret: null });

    const hook = (await owner.api.post(`/projects/${project.id}/hooks`, { url: `${bed.receiver.url}/p` })).body;
    const rotate = `mutation($id: ID!, $hook: Int!) { rotateProjectHookSigningSecret(id: $id, hook_id: $hook) { signing_enabled signing_secret } }`;
    const rotated = await owner.api.graphql(rotate, { id: String(project.id), hook: hook.id });
    expect(rotated.body.data.rotateProjectHookSigningSecret).toMatchObject({ signing_enabled: true, signing_secret: expect.stringMatching(/^whsec_/) });
    const sealed = async () => (await bed.t.services.db.webHook.findUniqueOrThrow({ where: { id: hook.id } })).encryptedSigningSecret;
    const before = await sealed();
    const refused = await developer.api.graphql(rotate, { id: String(project.id), hook: hook.id });
    expect(refused.body).toMatchObject({ data: null, errors: [{ message: "403 Forbidden", path: ["rotateProjectHookSigningSecret"] }] });
    expect(await sealed()).toBe(before);
  });
});
