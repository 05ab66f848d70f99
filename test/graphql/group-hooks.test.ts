// Group webhooks over /graphql: the same root fields and domain rules as REST, the same entity,
// the same errors (extensions.http.status and the GitLab body), and no field exposes a secret.
import { beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../helpers/app.js";
import { addMember, createGroup, createUser, type TestUser } from "../helpers/factories.js";

let t: TestApp;
let owner: TestUser, maintainer: TestUser;
let group: any;

const FIELDS = `id url name description created_at push_events tag_push_events merge_requests_events repository_update_events
  enable_ssl_verification alert_status disabled_until url_variables { key } push_events_branch_filter branch_filter_strategy
  custom_webhook_template custom_headers { key } group_id issues_events confidential_issues_events note_events
  confidential_note_events pipeline_events wiki_page_events job_events deployment_events feature_flag_events releases_events
  milestone_events subgroup_events emoji_events resource_access_token_events member_events vulnerability_events project_events
  signing_enabled signing_secret`;

const CREATE = `mutation($id: ID!, $url: String!, $token: String, $vars: [HookKeyValueInput!], $headers: [HookKeyValueInput!], $strategy: BranchFilterStrategy) {
  createGroupHook(id: $id, url: $url, token: $token, url_variables: $vars, custom_headers: $headers, issues_events: true, branch_filter_strategy: $strategy) { ${FIELDS} }
}`;

beforeAll(async () => {
  t = await startTestApp();
  [owner, maintainer] = await Promise.all([createUser(t), createUser(t)]);
  group = await createGroup(owner.api);
  await addMember(owner.api, "groups", group.id, maintainer.id, 40);
});

const errorOf = (res: { body: { errors?: any[] } }) => res.body.errors?.[0]?.extensions;

describe("group hooks over GraphQL", () => {
  it("creates a hook that REST shows identically, then lists, reads, edits and deletes it", async () => {
    const created = await owner.api.graphql(CREATE, {
      id: String(group.id), url: "http://8.8.8.8/{p}", token: "gql-token",
      vars: [{ key: "p", value: "x" }], headers: [{ key: "X-Gql", value: "1" }], strategy: "regex",
    });
    expect(created.body.errors).toBeUndefined();
    const hook = created.body.data.createGroupHook;
    expect(hook).toMatchObject({ url: "http://8.8.8.8/{p}", issues_events: true, url_variables: [{ key: "p" }], custom_headers: [{ key: "X-Gql" }] });
    const rest = await owner.api.get(`/groups/${group.id}/hooks/${hook.id}`);
    expect(rest.body).toEqual(hook);

    const list = await owner.api.graphql(`query($id: ID!) { groupHooks(id: $id) { ${FIELDS} } }`, { id: group.full_path });
    expect(list.body.data.groupHooks).toEqual((await owner.api.get(`/groups/${group.id}/hooks`)).body);
    const one = await owner.api.graphql(`query($id: ID!, $h: Int!) { groupHook(id: $id, hook_id: $h) { id url } }`, { id: String(group.id), h: hook.id });
    expect(one.body.data.groupHook).toEqual({ id: hook.id, url: hook.url });

    const edited = await owner.api.graphql(
      `mutation($id: ID!, $h: Int!) { updateGroupHook(id: $id, hook_id: $h, url: "http://8.8.8.8/{p}", note_events: true, url_variables: [{ key: "q", value: "y" }]) { note_events url_variables { key } } }`,
      { id: String(group.id), h: hook.id },
    );
    expect(edited.body.data.updateGroupHook).toEqual({ note_events: true, url_variables: [{ key: "p" }, { key: "q" }] });

    const setVar = await owner.api.graphql(
      `mutation($id: ID!, $h: Int!) { setGroupHookCustomHeader(id: $id, hook_id: $h, key: "X-Two", value: "2") }`, { id: String(group.id), h: hook.id },
    );
    expect(setVar.body.data).toEqual({ setGroupHookCustomHeader: true });
    const unset = await owner.api.graphql(
      `mutation($id: ID!, $h: Int!) { deleteGroupHookUrlVariable(id: $id, hook_id: $h, key: "q") }`, { id: String(group.id), h: hook.id },
    );
    expect(unset.body.data).toEqual({ deleteGroupHookUrlVariable: true });
    expect((await owner.api.get(`/groups/${group.id}/hooks/${hook.id}`)).body).toMatchObject({
      url_variables: [{ key: "p" }], custom_headers: [{ key: "X-Gql" }, { key: "X-Two" }],
    });

    const removed = await owner.api.graphql(`mutation($id: ID!, $h: Int!) { deleteGroupHook(id: $id, hook_id: $h) }`, { id: String(group.id), h: hook.id });
    expect(removed.body.data).toEqual({ deleteGroupHook: true });
    expect((await owner.api.get(`/groups/${group.id}/hooks/${hook.id}`)).status).toBe(404);
  });

  it("answers REST's errors: 401, 403, 404 and the 422 texts", async () => {
    const anon = await t.anon.graphql(`query($id: ID!) { groupHooks(id: $id) { id } }`, { id: String(group.id) });
    expect(errorOf(anon)).toMatchObject({ http: { status: 401 }, gitlab: { message: "401 Unauthorized" } });
    const denied = await maintainer.api.graphql(`query($id: ID!) { groupHooks(id: $id) { id } }`, { id: String(group.id) });
    expect(errorOf(denied)).toMatchObject({ code: "FORBIDDEN", http: { status: 403 }, gitlab: { message: "403 Forbidden" } });
    const missing = await owner.api.graphql(`query($id: ID!) { groupHook(id: $id, hook_id: 999999) { id } }`, { id: String(group.id) });
    expect(errorOf(missing)).toMatchObject({ http: { status: 404 }, gitlab: { message: "404 Not found" } });
    const local = await owner.api.graphql(CREATE, { id: String(group.id), url: "http://127.0.0.1:8080/" });
    expect(errorOf(local)).toMatchObject({ http: { status: 422 }, gitlab: { error: "Invalid url given" } });
    const filter = await owner.api.graphql(
      `mutation($id: ID!) { createGroupHook(id: $id, url: "http://8.8.8.8/", push_events_branch_filter: "(", branch_filter_strategy: regex) { id } }`,
      { id: String(group.id) },
    );
    expect(errorOf(filter)).toMatchObject({ http: { status: 422 }, gitlab: { error: "Invalid branch filter given" } });
  });

  it("no GraphQL type exposes a token or a variable or header value; the signing secret only in the answer that generated it", async () => {
    const res = await owner.api.graphql(`{ __type(name: "GroupHook") { fields { name } } h: __type(name: "HookKey") { fields { name } } }`);
    const names = res.body.data.__type.fields.map((f: any) => f.name);
    expect(names).not.toContain("token");
    expect(names.filter((n: string) => /secret|value|token$/.test(n))).toEqual(["signing_secret"]);
    expect(res.body.data.h.fields).toEqual([{ name: "key" }]);
    const signed = await owner.api.graphql(`mutation($id: ID!) { createGroupHook(id: $id, url: "http://8.8.8.8/signed", signing_enabled: true) { id signing_enabled signing_secret } }`, { id: String(group.id) });
    expect(signed.body.errors).toBeUndefined();
    expect(signed.body.data.createGroupHook.signing_secret).toMatch(/^whsec_/);
    const read = await owner.api.graphql(`query($id: ID!, $hook: Int!) { groupHook(id: $id, hook_id: $hook) { signing_enabled signing_secret } }`, { id: String(group.id), hook: signed.body.data.createGroupHook.id });
    expect(read.body.data.groupHook).toEqual({ signing_enabled: true, signing_secret: null });
  });
});
