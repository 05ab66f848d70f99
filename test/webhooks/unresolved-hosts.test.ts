// Hook URLs whose host name does not resolve: GitLab saves them (AddressableUrlValidator runs the
// UrlBlocker with dns_rebind_protection: false, so a name without addresses passes) and checks
// the addresses when it sends (WebHookService, with DNS rebinding protection). Forgeline: saved
// with 201, refused by the guard at delivery with no connection made.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createUrlGuard, type HostLookup } from "../../src/net/url-guard.js";
import { addMember, createGroup, createUser, type TestUser } from "../helpers/factories.js";
import { startTestbed, type WebhookTestbed } from "./setup.js";

let bed: WebhookTestbed; // local webhooks NOT allowed, as in production
let owner: TestUser;
let group: any;

const notFound: HostLookup = async (name) => {
  throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${name}`), { code: "ENOTFOUND" });
};

beforeAll(async () => {
  bed = await startTestbed({ ALLOW_LOCAL_WEBHOOKS: "false" });
  owner = await createUser(bed.t);
  group = await createGroup(owner.api);
});
afterAll(() => bed.close());
beforeEach(() => bed.receiver.clear());

const hooks = () => `/groups/${group.id}/hooks`;

async function memberEvent() {
  const user = await createUser(bed.t);
  await addMember(owner.api, "groups", group.id, user.id, 30);
}

const lastLog = (hookId: number) => bed.t.services.db.webHookLog.findFirstOrThrow({ where: { hookId }, orderBy: { id: "desc" } });

describe("a host name that does not resolve", () => {
  it("is accepted at save (create and edit) through the system resolver, and refused at delivery", async () => {
    const created = await bed.t.root.post(hooks(), { url: "http://hook.url/receive", member_events: true });
    expect(created.status, created.text).toBe(201);
    expect(created.body.url).toBe("http://hook.url/receive");
    const edited = await bed.t.root.put(`${hooks()}/${created.body.id}`, { url: "https://hook.url:8443/other" });
    expect(edited.status, edited.text).toBe(200);
    await memberEvent();
    await bed.drain(bed.worker({ maxAttempts: 1 }));
    const log = await lastLog(created.body.id);
    expect(log).toMatchObject({ responseStatus: "internal error", internalErrorMessage: "URL is blocked: Host cannot be resolved or invalid" });
  });

  it("is refused at delivery, with no connection made, when it then resolves to a blocked address", async () => {
    const original = bed.t.services.urlGuard;
    try {
      bed.t.services.urlGuard = createUrlGuard({ allowLocal: false, lookup: notFound });
      const url = `http://later.example:${bed.receiver.port}/hook`; // the receiver listens on loopback at that port
      const created = await bed.t.root.post(hooks(), { url, member_events: true });
      expect(created.status, created.text).toBe(201);
      bed.t.services.urlGuard = createUrlGuard({ allowLocal: false, lookup: async () => ["127.0.0.1"] });
      await memberEvent();
      await bed.drain(bed.worker({ maxAttempts: 1 }));
      expect(bed.receiver.requests).toHaveLength(0);
      const log = await lastLog(created.body.id);
      expect(log).toMatchObject({ responseStatus: "internal error", internalErrorMessage: "URL is blocked: Requests to localhost are not allowed" });
    } finally {
      bed.t.services.urlGuard = original;
    }
  });

  it("a name that resolves at save is still checked then: one resolving to a private address is refused (422)", async () => {
    const original = bed.t.services.urlGuard;
    try {
      bed.t.services.urlGuard = createUrlGuard({ allowLocal: false, lookup: async () => ["10.0.0.7"] });
      const res = await bed.t.root.post(hooks(), { url: "http://intranet.example/hook" });
      expect([res.status, res.body]).toEqual([422, { error: "Invalid url given" }]);
    } finally {
      bed.t.services.urlGuard = original;
    }
  });

  it.each(["http://localhost/x", "http://10.1.2.3/x", "http://169.254.169.254/", "http://metadata.google.internal/", "http://x.invalid/", "ftp://hook.url/"])(
    "what is known without DNS is still refused at save: %s",
    async (url) => {
      const res = await bed.t.root.post(hooks(), { url });
      expect([res.status, res.body]).toEqual([422, { error: "Invalid url given" }]);
    },
  );
});
