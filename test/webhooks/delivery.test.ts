// Webhook delivery end to end: domain changes write outbox rows, a worker POSTs them to a real
// loopback receiver. Headers, token, custom headers, URL variables, Basic auth, custom templates,
// which hooks hear which events (ancestors, switches, branch filters), and the payloads of the
// member, subgroup and push events.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { BASE_URL } from "../helpers/app.js";
import { addMember, createGroup, createProject, createUser, type TestUser } from "../helpers/factories.js";
import { createHook, deliveriesOf, startTestbed, type WebhookTestbed } from "./setup.js";

let bed: WebhookTestbed;
let owner: TestUser, member: TestUser;
let group: any, sub: any;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

beforeAll(async () => {
  bed = await startTestbed();
  [owner, member] = await Promise.all([createUser(bed.t), createUser(bed.t)]);
  group = await createGroup(owner.api);
  sub = await createGroup(owner.api, { parent_id: group.id });
});
afterAll(() => bed.close());
beforeEach(async () => {
  await bed.t.services.db.webHook.deleteMany({});
  await bed.drain(); // nothing left from set-up
  bed.receiver.clear();
  bed.receiver.answer = { status: 200, body: "OK" };
});

/** A group member added by the owner: fires member_hooks on the group and its ancestors. */
async function addToGroup(groupId: number, level = 30) {
  const user = await createUser(bed.t);
  await addMember(owner.api, "groups", groupId, user.id, level);
  return user;
}

describe("delivery request", () => {
  it("sends the spec's headers, the token and the custom headers, with URL variables substituted", async () => {
    const hook = await createHook(bed, group.id, {
      url: `${bed.receiver.url}/{path}/hook`, member_events: true, push_events: false, token: "s3cret",
      url_variables: [{ key: "path", value: "team" }], custom_headers: [{ key: "X-Custom", value: "custom-value" }],
    });
    const user = await addToGroup(group.id);
    await bed.drain();
    expect(bed.receiver.requests).toHaveLength(1);
    const [request] = bed.receiver.requests;
    const stored = await bed.t.services.db.webHook.findUniqueOrThrow({ where: { id: hook.id } });
    expect(request!.method).toBe("POST");
    expect(request!.path).toBe("/team/hook");
    expect(request!.headers["content-type"]).toBe("application/json");
    expect(request!.headers["user-agent"]).toBe(`Forgeline/${bed.t.services.config.version}`);
    expect(request!.headers["idempotency-key"]).toMatch(UUID);
    expect(request!.headers["x-service-event"]).toBe("Member Hook");
    expect(request!.headers["x-service-webhook-uuid"]).toBe(stored.uuid);
    expect(request!.headers["x-service-instance"]).toBe(BASE_URL);
    expect(request!.headers["x-service-event-uuid"]).toMatch(UUID);
    expect(request!.headers["x-service-token"]).toBe("s3cret");
    expect(request!.headers["x-custom"]).toBe("custom-value");
    expect(request!.json).toMatchObject({ event_name: "user_add_to_group", group_id: group.id, user_id: user.id, user_username: user.username });
  });

  it("gives every delivery its own Idempotency-Key and event UUID, and keeps the hook's UUID", async () => {
    await createHook(bed, group.id, { member_events: true });
    await addToGroup(group.id);
    await addToGroup(group.id);
    await bed.drain();
    const [a, b] = bed.receiver.requests;
    expect(a!.headers["idempotency-key"]).not.toBe(b!.headers["idempotency-key"]);
    expect(a!.headers["x-service-event-uuid"]).not.toBe(b!.headers["x-service-event-uuid"]);
    expect(a!.headers["x-service-webhook-uuid"]).toBe(b!.headers["x-service-webhook-uuid"]);
    expect(a!.headers["x-service-token"]).toBeUndefined();
  });

  it("sends user info of the URL as Basic auth and records the URL masked", async () => {
    const hook = await createHook(bed, group.id, { url: `http://alice:pa%20ss@127.0.0.1:${bed.receiver.port}/basic`, member_events: true });
    await addToGroup(group.id);
    await bed.drain();
    expect(bed.receiver.requests[0]!.headers.authorization).toBe(`Basic ${Buffer.from("alice:pa ss").toString("base64")}`);
    const events = await bed.t.root.get(`/groups/${group.id}/hooks/${hook.id}/events`);
    expect(events.body[0].url).toBe(`http://*****:*****@127.0.0.1:${bed.receiver.port}/basic`);
  });

  it.each([
    ["a password holding an @", "http://alice:p@ss@127.0.0.1:PORT/at", "alice:p@ss", "http://*****:*****@127.0.0.1:PORT/at"],
    ["backslashes after the scheme", "http:\\\\bob:pw@127.0.0.1:PORT/slash", "bob:pw", "http:\\\\*****:*****@127.0.0.1:PORT/slash"],
  ])("records no credential of a URL with %s", async (_case, url, credentials, recorded) => {
    const port = String(bed.receiver.port);
    const hook = await createHook(bed, group.id, { url: url.replace("PORT", port), member_events: true });
    await addToGroup(group.id);
    await bed.drain();
    expect(bed.receiver.requests[0]!.headers.authorization).toBe(`Basic ${Buffer.from(credentials).toString("base64")}`);
    const events = await bed.t.root.get(`/groups/${group.id}/hooks/${hook.id}/events`);
    expect(events.body[0].url).toBe(recorded.replace("PORT", port));
  });

  it("renders the custom template with nested fields (strings inside the template's quotes)", async () => {
    await createHook(bed, group.id, {
      member_events: true,
      custom_webhook_template: '{"kind":"{{event_name}}","who":{"id":{{user_id}},"name":"{{user_name}}"},"missing":{{nope.deeper}}}',
    });
    const user = await addToGroup(group.id);
    await bed.drain();
    expect(bed.receiver.requests[0]!.json).toEqual({ kind: "user_add_to_group", who: { id: user.id, name: `User ${user.username}` }, missing: null });
  });

  it("records a template that does not render to JSON as an internal error and sends nothing", async () => {
    const hook = await createHook(bed, group.id, { member_events: true, custom_webhook_template: '{"broken": {{event_name}}}' });
    await addToGroup(group.id);
    await bed.drain();
    expect(bed.receiver.requests).toHaveLength(0);
    const log = await bed.t.services.db.webHookLog.findFirstOrThrow({ where: { hookId: hook.id } });
    expect(log.responseStatus).toBe("internal error");
    expect(log.internalErrorMessage).toMatch(/^Error while parsing rendered custom webhook template: /);
    expect(JSON.parse(log.requestData)).toEqual({});
  });

  it("switches to X-Gitlab- header names when the prefix setting says so", async () => {
    const before = bed.t.services.config.webhookHeaderPrefix;
    bed.t.services.config.webhookHeaderPrefix = "X-Gitlab-";
    try {
      await createHook(bed, group.id, { member_events: true, token: "tok" });
      await addToGroup(group.id);
      await bed.drain();
      expect(bed.receiver.requests[0]!.headers["x-gitlab-event"]).toBe("Member Hook");
      expect(bed.receiver.requests[0]!.headers["x-gitlab-token"]).toBe("tok");
    } finally {
      bed.t.services.config.webhookHeaderPrefix = before;
    }
  });
});

describe("which hooks hear an event", () => {
  it("the group's and its ancestors' hooks with the switch on; not a sibling's, not one with the switch off", async () => {
    const onParent = await createHook(bed, group.id, { member_events: true });
    const onSub = await createHook(bed, sub.id, { member_events: true });
    const off = await createHook(bed, sub.id, { member_events: false });
    const other = await createGroup(owner.api);
    const elsewhere = await createHook(bed, other.id, { member_events: true });
    await addToGroup(sub.id);
    expect(await deliveriesOf(bed, onParent.id)).toHaveLength(1);
    expect(await deliveriesOf(bed, onSub.id)).toHaveLength(1);
    expect(await deliveriesOf(bed, off.id)).toHaveLength(0);
    expect(await deliveriesOf(bed, elsewhere.id)).toHaveLength(0);
  });

  it("a refused change writes no delivery", async () => {
    const hook = await createHook(bed, group.id, { member_events: true });
    const user = await createUser(bed.t);
    const res = await owner.api.post(`/groups/${group.id}/members`, { user_id: user.id, access_level: 30, expires_at: "2000-01-01" });
    expect(res.status).toBe(400);
    expect(await deliveriesOf(bed, hook.id)).toHaveLength(0);
  });
});

describe("member events", () => {
  it("add, update (level or expiry only) and remove, as GitLab's group member payloads", async () => {
    const hook = await createHook(bed, group.id, { member_events: true });
    const user = await addToGroup(group.id, 10);
    const unchanged = await owner.api.put(`/groups/${group.id}/members/${user.id}`, { access_level: 10 });
    expect(unchanged.status).toBe(200);
    const updated = await owner.api.put(`/groups/${group.id}/members/${user.id}`, { access_level: 40, expires_at: "2099-01-02" });
    expect(updated.status, updated.text).toBe(200);
    const removed = await owner.api.delete(`/groups/${group.id}/members/${user.id}`);
    expect(removed.status, removed.text).toBe(204);
    await bed.drain();
    const payloads = bed.receiver.requests.map((r) => r.json);
    expect(payloads.map((p) => p.event_name)).toEqual(["user_add_to_group", "user_update_for_group", "user_remove_from_group"]);
    expect(payloads[0]).toEqual({
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/), updated_at: expect.any(String),
      group_name: group.name, group_path: group.path, group_id: group.id, user_username: user.username, user_name: `User ${user.username}`,
      user_email: "[REDACTED]", user_id: user.id, group_access: "Guest", group_plan: null, expires_at: null, event_name: "user_add_to_group",
    });
    expect(payloads[1]).toMatchObject({ group_access: "Maintainer", expires_at: "2099-01-02T00:00:00Z" });
    expect(payloads[2]).toMatchObject({ group_access: "Maintainer" });
    expect((await deliveriesOf(bed, hook.id)).every((d) => d.trigger === "member_hooks" && d.status === "done")).toBe(true);
  });

  it("project memberships do not reach group hooks (GitLab sends those to system hooks only)", async () => {
    const project = await createProject(owner.api, { namespace_id: group.id });
    const hook = await createHook(bed, group.id, { member_events: true, push_events: false });
    await addMember(owner.api, "projects", project.id, member.id, 30);
    expect(await deliveriesOf(bed, hook.id)).toHaveLength(0);
  });
});

describe("subgroup events", () => {
  it("a new subgroup reaches the parent's and the grandparent's hooks", async () => {
    const parentHook = await createHook(bed, sub.id, { subgroup_events: true });
    const topHook = await createHook(bed, group.id, { subgroup_events: true });
    const child = await createGroup(owner.api, { parent_id: sub.id });
    await bed.drain();
    expect(bed.receiver.requests).toHaveLength(2);
    expect(bed.receiver.requests[0]!.headers["x-service-event"]).toBe("Subgroup Hook");
    expect(bed.receiver.requests[0]!.json).toEqual({
      created_at: expect.any(String), updated_at: expect.any(String), event_name: "subgroup_create",
      name: child.name, path: child.path, full_path: child.full_path, group_id: child.id,
      parent_group_id: sub.id, parent_name: sub.name, parent_path: sub.path, parent_full_path: sub.full_path,
    });
    expect(await deliveriesOf(bed, parentHook.id)).toHaveLength(1);
    expect(await deliveriesOf(bed, topHook.id)).toHaveLength(1);
  });

  it("the creator becoming Owner of the new subgroup is a member event for the ancestors' hooks", async () => {
    const hook = await createHook(bed, group.id, { member_events: true });
    const child = await createGroup(owner.api, { parent_id: sub.id });
    await bed.drain();
    expect(bed.receiver.requests.map((r) => r.json)).toEqual([
      expect.objectContaining({ event_name: "user_add_to_group", group_id: child.id, user_id: owner.id, group_access: "Owner" }),
    ]);
    expect(await deliveriesOf(bed, hook.id)).toHaveLength(1);
  });
});

describe("push events", () => {
  async function commit(projectId: number, branch: string, extra: Record<string, unknown> = {}) {
    const res = await owner.api.post(`/projects/${projectId}/repository/commits`, {
      branch, commit_message: `Change on ${branch}\n\nbody`, actions: [{ action: "create", file_path: `${branch}-${Date.now()}.txt`, content: "x" }], ...extra,
    });
    expect(res.status, res.text).toBe(201);
    return res.body;
  }

  it("sends the spec's push payload for a branch that advanced", async () => {
    const project = await createProject(owner.api, { namespace_id: sub.id });
    await createHook(bed, group.id, { push_events: true });
    const created = await commit(project.id, "main");
    await bed.drain();
    expect(bed.receiver.requests).toHaveLength(1);
    const [request] = bed.receiver.requests;
    expect(request!.headers["x-service-event"]).toBe("Push Hook");
    const web = `${BASE_URL}/${project.path_with_namespace}`;
    const sshUrl = `git@${new URL(BASE_URL).host}:${project.path_with_namespace}.git`;
    expect(request!.json).toEqual({
      object_kind: "push", event_name: "push", before: expect.stringMatching(/^[0-9a-f]{40}$/), after: created.id, ref: "refs/heads/main",
      ref_protected: false, checkout_sha: created.id, message: null, user_id: owner.id, user_name: `User ${owner.username}`,
      user_username: owner.username, user_email: null, user_avatar: expect.stringMatching(/^https:/), project_id: project.id,
      project: {
        id: project.id, name: project.name, description: project.description, web_url: web, avatar_url: null, git_ssh_url: sshUrl,
        git_http_url: `${web}.git`, namespace: sub.name, visibility_level: 0, path_with_namespace: project.path_with_namespace,
        default_branch: "main", ci_config_path: null, homepage: web, url: sshUrl, ssh_url: sshUrl, http_url: `${web}.git`,
      },
      commits: [{
        id: created.id, message: created.message, title: created.title, timestamp: expect.stringMatching(/\+00:00$/),
        url: `${web}/-/commit/${created.id}`, author: { name: created.author_name, email: created.author_email },
        added: [expect.stringMatching(/^main-\d+\.txt$/)], modified: [], removed: [],
      }],
      total_commits_count: 1, push_options: {},
      repository: { name: project.name, url: sshUrl, description: project.description, homepage: web, git_http_url: `${web}.git`, git_ssh_url: sshUrl, visibility_level: 0 },
    });
  });

  it.each([
    ["wildcard", "release/*", ["release/1.0"], ["main", "feature"]],
    ["wildcard (exact name)", "main", ["main"], ["release/1.0", "feature"]],
    ["regex", "^(feature|release/.*)$", ["feature", "release/1.0"], ["main"]],
    ["all_branches", null, ["main", "feature", "release/1.0"], []],
  ])("branch filter %s", async (strategy, filter, heard, ignored) => {
    const project = await createProject(owner.api, { namespace_id: group.id });
    await owner.api.post(`/projects/${project.id}/repository/branches`, { branch: "feature", ref: "main" });
    await owner.api.post(`/projects/${project.id}/repository/branches`, { branch: "release/1.0", ref: "main" });
    const hook = await createHook(bed, group.id, {
      push_events: true, branch_filter_strategy: strategy.split(" ")[0], push_events_branch_filter: filter,
    });
    for (const branch of ["main", "feature", "release/1.0"]) await commit(project.id, branch);
    await bed.drain();
    const refs = bed.receiver.requests.map((r) => r.json.ref).sort();
    expect(refs).toEqual(heard.map((b) => `refs/heads/${b}`).sort());
    for (const branch of ignored) expect(refs).not.toContain(`refs/heads/${branch}`);
    expect((await deliveriesOf(bed, hook.id)).length).toBe(heard.length);
  });

  it("a wildcard filter with many * is matched at once (no backtracking on a long branch name)", async () => {
    const project = await createProject(owner.api, { namespace_id: group.id });
    const [long, matching] = ["a".repeat(80), `${"a".repeat(12)}b`];
    for (const branch of [long, matching]) await owner.api.post(`/projects/${project.id}/repository/branches`, { branch, ref: "main" });
    await createHook(bed, group.id, { push_events: true, branch_filter_strategy: "wildcard", push_events_branch_filter: `${"*a".repeat(12)}*b` });
    for (const branch of [long, matching]) await commit(project.id, branch);
    await bed.drain();
    expect(bed.receiver.requests.map((r) => r.json.ref)).toEqual([`refs/heads/${matching}`]);
  });

  it("projects in a personal namespace reach no group hook", async () => {
    const hook = await createHook(bed, group.id, { push_events: true });
    const project = await createProject(owner.api);
    await commit(project.id, "main");
    expect(await deliveriesOf(bed, hook.id)).toHaveLength(0);
  });
});

describe("a worker round", () => {
  it("sends a batch of 20 at once and records it in a fixed number of statements", async () => {
    const hook = await createHook(bed, group.id, { issues_events: true });
    const project = await createProject(owner.api, { namespace_id: group.id });
    await bed.drain(); // the project's own events
    for (let i = 0; i < 20; i++) expect((await owner.api.post(`/projects/${project.id}/issues`, { title: `Batch ${i}` })).status).toBe(201);
    const sql: string[] = [];
    const stats = bed.t.services.sqlStats;
    stats.trace = (text) => sql.push(text);
    const before = stats.statements;
    const delivered = await bed.worker().runOnce().finally(() => (stats.trace = undefined));
    expect(delivered).toBe(20);
    // due rows, the claim (Prisma commits it as a transaction), their hooks; then one
    // transaction: the history rows, the rows done, COMMIT
    expect(stats.statements - before, sql.join("\n")).toBeLessThanOrEqual(7);
    const issueRequests = bed.receiver.requests.filter((r) => r.json.object_kind === "issue");
    expect(issueRequests.map((r) => r.json.object_attributes.title).sort()).toEqual(Array.from({ length: 20 }, (_, i) => `Batch ${i}`).sort());
    const rows = await deliveriesOf(bed, hook.id);
    expect(rows.map((row) => [row.status, row.attempts])).toEqual(rows.map(() => ["done", 1]));
    expect(await bed.t.services.db.webHookLog.count({ where: { hookId: hook.id, trigger: "issue_hooks", responseCode: 200 } })).toBe(20);
  });
});
