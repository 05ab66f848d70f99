// The hook event root fields over /graphql: the same rules and answers as REST.
import { afterAll, beforeAll, expect, it } from "vitest";
import { createGroup, createProject, createUser, type TestUser } from "../helpers/factories.js";
import { createHook, startTestbed, type WebhookTestbed } from "./setup.js";

let bed: WebhookTestbed;
let owner: TestUser, stranger: TestUser;
let group: any, hook: any;

beforeAll(async () => {
  bed = await startTestbed();
  [owner, stranger] = await Promise.all([createUser(bed.t), createUser(bed.t)]);
  group = await createGroup(owner.api);
  await createProject(owner.api, { namespace_id: group.id });
  hook = await createHook(bed, group.id, { token: "tok" });
});
afterAll(() => bed.close());

it("tests a hook, lists its events and resends one", async () => {
  const tested = await owner.api.graphql(`mutation($id: ID!, $hook: Int!) { testGroupHook(id: $id, hook_id: $hook, trigger: push_events) { message } }`,
    { id: String(group.id), hook: hook.id });
  expect(tested.body).toEqual({ data: { testGroupHook: { message: "201 Created" } } });
  const listed = await owner.api.graphql(
    `query($id: ID!, $hook: Int!) { groupHookEvents(id: $id, hook_id: $hook, status: ["successful"]) { id trigger response_status request_headers } }`,
    { id: String(group.id), hook: hook.id },
  );
  const [event] = listed.body.data.groupHookEvents;
  expect(event).toMatchObject({ trigger: "push_hooks", response_status: "200" });
  expect(event.request_headers["X-Service-Token"]).toBe("[REDACTED]");
  const resent = await owner.api.graphql(
    `mutation($id: ID!, $hook: Int!, $event: Int!) { resendGroupHookEvent(id: $id, hook_id: $hook, hook_event_id: $event) { response_status } }`,
    { id: String(group.id), hook: hook.id, event: event.id },
  );
  expect(resent.body).toEqual({ data: { resendGroupHookEvent: { response_status: 200 } } });
  expect(bed.receiver.requests[1]!.headers["idempotency-key"]).toBe(bed.receiver.requests[0]!.headers["idempotency-key"]);
});

it("hides a private group's hooks from a non-member (404) as REST does", async () => {
  const res = await stranger.api.graphql(`query($id: ID!, $hook: Int!) { groupHookEvents(id: $id, hook_id: $hook) { id } }`, { id: String(group.id), hook: hook.id });
  expect(res.body.errors?.[0]).toMatchObject({ message: "404 Group Not Found", extensions: { http: { status: 404 } } });
});
