// Two real server processes on one SQLite file: what one process caches (actors, projects,
// memberships) gives way at once when the other one revokes a token, removes a member or changes
// a visibility. Each check first warms the reading server's caches, then changes through the
// other server, then reads again: no waiting, no TTL.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { onPostgresql } from "../helpers/test-database.js";
import { scrape, total } from "./helpers/metrics.js";
import { E2E_ROOT_TOKEN, newDataDir, startServer, type RunningServer } from "./helpers/server.js";

let writer: RunningServer;
let reader: RunningServer;

beforeAll(async () => {
  const dataDir = newDataDir();
  writer = await startServer({ dataDir });
  reader = await startServer({ dataDir, script: "test/e2e/helpers/second-server.ts" });
}, 120_000);

afterAll(async () => {
  await Promise.all([writer?.stop(), reader?.stop()]);
});

async function call(server: RunningServer, method: string, path: string, token?: string, body?: unknown) {
  const headers: Record<string, string> = { "Content-Type": "application/json" };
  if (token) headers["PRIVATE-TOKEN"] = token;
  const response = await fetch(server.apiUrl + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

/** Reads twice on the reader (the second answer comes from its caches) and expects `status`. */
async function readTwice(path: string, token: string | undefined, status: number) {
  for (let i = 0; i < 2; i++) expect((await call(reader, "GET", path, token)).status).toBe(status);
}

async function createUser(name: string) {
  const user = await call(writer, "POST", "/users", E2E_ROOT_TOKEN, { username: name, name, email: `${name}@example.com`, password: "password-123456" });
  expect(user.status).toBe(201);
  const token = await call(writer, "POST", `/users/${user.body.id}/personal_access_tokens`, E2E_ROOT_TOKEN, { name: "t", scopes: ["api"] });
  expect(token.status).toBe(201);
  return { id: user.body.id as number, token: token.body.token as string, tokenId: token.body.id as number };
}

describe("caches across processes", () => {
  it("a token revoked through one server is refused by the other on the next request", async () => {
    const user = await createUser("revoked-user");
    await readTwice("/user", user.token, 200);
    expect((await call(writer, "DELETE", `/personal_access_tokens/${user.tokenId}`, user.token)).status).toBe(204);
    expect((await call(reader, "GET", "/user", user.token)).status).toBe(401);
  });

  it("a member removed through one server loses the private project on the other at once", async () => {
    const user = await createUser("removed-member");
    const project = await call(writer, "POST", "/projects", E2E_ROOT_TOKEN, { name: "Secret", path: "secret", visibility: "private" });
    expect(project.status).toBe(201);
    expect((await call(writer, "POST", `/projects/${project.body.id}/members`, E2E_ROOT_TOKEN, { user_id: user.id, access_level: 30 })).status).toBe(201);
    await readTwice(`/projects/${project.body.id}/issues`, user.token, 200);
    expect((await call(writer, "DELETE", `/projects/${project.body.id}/members/${user.id}`, E2E_ROOT_TOKEN)).status).toBe(204);
    expect((await call(reader, "GET", `/projects/${project.body.id}/issues`, user.token)).status).toBe(404);
  });

  it("a project made private through one server is hidden from anonymous callers of the other at once", async () => {
    const project = await call(writer, "POST", "/projects", E2E_ROOT_TOKEN, { name: "Open", path: "open", visibility: "public" });
    expect(project.status).toBe(201);
    await readTwice(`/projects/${encodeURIComponent(project.body.path_with_namespace)}`, undefined, 200);
    expect((await call(writer, "PUT", `/projects/${project.body.id}`, E2E_ROOT_TOKEN, { visibility: "private" })).status).toBe(200);
    expect((await call(reader, "GET", `/projects/${encodeURIComponent(project.body.path_with_namespace)}`)).status).toBe(404);
  });

  it("an issue created through one server counts in the other's X-Total at once", async () => {
    const project = await call(writer, "POST", "/projects", E2E_ROOT_TOKEN, { name: "Counted", path: "counted", visibility: "public" });
    const path = `${reader.apiUrl}/projects/${project.body.id}/issues`;
    const total = async () => (await fetch(path)).headers.get("x-total");
    expect((await call(writer, "POST", `/projects/${project.body.id}/issues`, E2E_ROOT_TOKEN, { title: "one" })).status).toBe(201);
    expect(await total()).toBe("1");
    expect(await total()).toBe("1");
    expect((await call(writer, "POST", `/projects/${project.body.id}/issues`, E2E_ROOT_TOKEN, { title: "two" })).status).toBe(201);
    expect(await total()).toBe("2");
  });

  it("a project renamed through one server is found under its new path by the other", async () => {
    const project = await call(writer, "POST", "/projects", E2E_ROOT_TOKEN, { name: "Before", path: "before", visibility: "public" });
    await readTwice(`/projects/${project.body.id}`, undefined, 200);
    expect((await call(writer, "PUT", `/projects/${project.body.id}`, E2E_ROOT_TOKEN, { path: "after" })).status).toBe(200);
    const renamed = await call(reader, "GET", `/projects/${project.body.id}`);
    expect(renamed.body.path).toBe("after");
  });
});

// On PostgreSQL a read does not wait for the look at other processes' writes (a round trip): it
// runs beside it on the caches as they are, and runs again when the look finds one it used stale.
describe.runIf(onPostgresql)("reads sent beside the look at other processes' writes", () => {
  const staleReads = async () => total(await scrape(reader.url), "forgeline_cache_stale_reads_total");

  it("a read answered from a cache the other server made stale runs again, and answers as if it had waited", async () => {
    const user = await createUser("speculated-user");
    await readTwice("/user", user.token, 200);
    const before = await staleReads();
    expect((await call(writer, "DELETE", `/personal_access_tokens/${user.tokenId}`, user.token)).status).toBe(204);
    expect((await call(reader, "GET", "/user", user.token)).status).toBe(401);
    expect((await staleReads()) - before).toBe(1);
  });

  it("a read whose caches nothing changed runs once", async () => {
    const user = await createUser("unchanged-user");
    expect((await call(writer, "POST", "/projects", user.token, { name: "Own", path: "own" })).status).toBe(201);
    await readTwice("/projects/unchanged-user%2Fown", user.token, 200);
    const before = await staleReads();
    expect((await call(reader, "GET", "/projects/unchanged-user%2Fown", user.token)).body.path_with_namespace).toBe("unchanged-user/own");
    expect((await call(reader, "GET", "/user", user.token)).body.username).toBe("unchanged-user");
    expect((await staleReads()) - before).toBe(0);
  });
});

describe("the approval configuration across processes", () => {
  let projectId: number;
  let statePath: string;
  let ruleId: number;
  let group: { id: number };

  beforeAll(async () => {
    const project = await call(writer, "POST", "/projects", E2E_ROOT_TOKEN, { name: "Approvals", path: "approvals", visibility: "public", initialize_with_readme: true });
    projectId = project.body.id;
    const p = `/projects/${projectId}`;
    expect((await call(writer, "POST", `${p}/repository/branches`, E2E_ROOT_TOKEN, { branch: "feature", ref: "main" })).status).toBe(201);
    const commit = await call(writer, "POST", `${p}/repository/commits`, E2E_ROOT_TOKEN, {
      branch: "feature", commit_message: "A change", actions: [{ action: "create", file_path: "a.txt", content: "a" }],
    });
    expect(commit.status).toBe(201);
    const mr = await call(writer, "POST", `${p}/merge_requests`, E2E_ROOT_TOKEN, { source_branch: "feature", target_branch: "main", title: "A change" });
    expect(mr.status).toBe(201);
    statePath = `${p}/merge_requests/${mr.body.iid}/approval_state`;
    group = (await call(writer, "POST", "/groups", E2E_ROOT_TOKEN, { name: "Approvers", path: "approvers", visibility: "public" })).body;
    const rule = await call(writer, "POST", `${p}/approval_rules`, E2E_ROOT_TOKEN, { name: "Reviewers", approvals_required: 1, group_ids: [group.id] });
    expect(rule.status).toBe(201);
    ruleId = rule.body.id;
  });

  const stateOnReader = async () => {
    const state = await call(reader, "GET", statePath, E2E_ROOT_TOKEN);
    expect(state.status).toBe(200);
    return state.body.rules[0];
  };

  it("a rule changed through one server is what the other computes with at once", async () => {
    expect((await stateOnReader()).approvals_required).toBe(1);
    expect((await stateOnReader()).approvals_required).toBe(1);
    const updated = await call(writer, "PUT", `/projects/${projectId}/approval_rules/${ruleId}`, E2E_ROOT_TOKEN, { name: "Reviewers", approvals_required: 2, group_ids: [group.id] });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    expect((await stateOnReader()).approvals_required).toBe(2);
  });

  it("a member added to an approver group through one server is an eligible approver on the other at once", async () => {
    const user = await createUser("group-approver");
    const before = await stateOnReader();
    expect(before.eligible_approvers.map((u: { id: number }) => u.id)).not.toContain(user.id);
    expect((await call(writer, "POST", `/groups/${group.id}/members`, E2E_ROOT_TOKEN, { user_id: user.id, access_level: 30 })).status).toBe(201);
    expect((await stateOnReader()).eligible_approvers.map((u: { id: number }) => u.id)).toContain(user.id);
  });
});
