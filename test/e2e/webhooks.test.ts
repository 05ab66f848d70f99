// Webhook delivery end to end against the real server process, whose own worker delivers: a group
// hook made with @gitbeaker/rest (GroupHooks.add), an issue made with Issues.create, the delivery
// awaited at a loopback receiver, then the hook's events listed and one resent through gitbeaker's
// raw requester (gitbeaker has no methods for them). The server runs with ALLOW_LOCAL_WEBHOOKS=true.
import { Gitlab } from "@gitbeaker/rest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startReceiver, type Receiver } from "../webhooks/receiver.js";
import { failure } from "./helpers/gitbeaker.js";
import { uniqueName } from "./helpers/fixtures.js";
import { useServer } from "./helpers/suite.js";

const suite = useServer({ env: { ALLOW_LOCAL_WEBHOOKS: "true" } });
const gitlab = () => new Gitlab({ host: suite.server.url, token: suite.server.rootToken! });
const DELIVERY_TIMEOUT_MS = 15_000;

let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.close());

describe("@gitbeaker/rest", () => {
  it("an issue reaches the group hook; its event is listed and resent with the same Idempotency-Key", async () => {
    const api = gitlab();
    const path = uniqueName("gb-wh").toLowerCase().replace(/_/g, "-");
    const group = await api.Groups.create(`Webhooks ${path}`, path);
    const project = await api.Projects.create({ name: uniqueName("gbwh"), namespaceId: group.id as number });
    const hook = await api.GroupHooks.add(group.id as number, `${receiver.url}/gitbeaker`, { issuesEvents: true, pushEvents: false, token: "gb-secret" } as any);

    const issue = await api.Issues.create(project.id, "Delivered by the server's worker");
    await receiver.waitFor(1, DELIVERY_TIMEOUT_MS);
    const [delivered] = receiver.requests;
    expect(delivered!.path).toBe("/gitbeaker");
    expect(delivered!.headers).toMatchObject({ "x-service-event": "Issue Hook", "x-service-token": "gb-secret", "content-type": "application/json" });
    expect(delivered!.json).toMatchObject({
      object_kind: "issue", event_type: "issue", project: { id: project.id, path_with_namespace: project.path_with_namespace },
      object_attributes: { id: issue.id, iid: issue.iid, title: "Delivered by the server's worker", action: "open", url: issue.web_url },
    });

    const base = `groups/${group.id}/hooks/${hook.id}/events`;
    // the worker records the attempt once the receiver has answered: a moment after it arrived
    let listed = (await api.requester.get(base)) as any;
    for (const until = Date.now() + 10_000; listed.body.length === 0 && Date.now() < until;) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      listed = (await api.requester.get(base)) as any;
    }
    expect(listed.status).toBe(200);
    expect(listed.body).toHaveLength(1);
    const [event] = listed.body;
    expect(event).toMatchObject({
      url: `${receiver.url}/gitbeaker`, trigger: "issue_hooks", response_status: "200", request_data: delivered!.json,
      request_headers: { "X-Service-Event": "Issue Hook", "X-Service-Token": "[REDACTED]", "Idempotency-Key": delivered!.headers["idempotency-key"] },
    });

    const resent = (await api.requester.post(`${base}/${event.id}/resend`, { body: {} })) as any;
    expect([resent.status, resent.body]).toEqual([201, { response_status: 200 }]);
    expect(receiver.requests).toHaveLength(2);
    expect(receiver.requests[1]!.headers["idempotency-key"]).toBe(delivered!.headers["idempotency-key"]);
    expect(receiver.requests[1]!.json).toEqual(delivered!.json);
    expect(((await api.requester.get(base)) as any).body).toHaveLength(2);
    expect(await failure(api.requester.post(`${base}/999999/resend`, { body: {} }))).toEqual({ status: 404, message: "404 Not found" });
  });
});
