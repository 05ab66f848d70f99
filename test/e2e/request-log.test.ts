// The request log and correlation ids against the real server process: one JSON line per request
// (REST, GraphQL, OAuth, git over HTTP) with every field, X-Request-Id taken or generated and
// returned, carried into the webhook deliveries the request caused (header and the worker's line)
// and into GraphQL errors; no credential or stored secret ever appears in the output.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startReceiver, type Receiver } from "../webhooks/receiver.js";
import { signInAndConsent } from "../oauth/helpers.js";
import { createUser, uniqueName, type E2eUser } from "./helpers/fixtures.js";
import { cloneUrl, commitFile, gitOk, workDir } from "./helpers/git.js";
import { E2E_ROOT_TOKEN, runUntilExit, startServer } from "./helpers/server.js";
import { useServer } from "./helpers/suite.js";

const suite = useServer({ env: { ALLOW_LOCAL_WEBHOOKS: "true" } });
const PASSWORD = `pw-${randomBytes(8).toString("hex")}`;
const UA = "forgeline-log-test/1.0";
const DELIVERY_TIMEOUT_MS = 15_000;

/** Every secret a test sent or stored: none may appear in the server's output. */
const secrets = new Set<string>([E2E_ROOT_TOKEN, PASSWORD]);
let receiver: Receiver;
let user: E2eUser;

beforeAll(async () => {
  receiver = await startReceiver();
  user = await createUser(suite.server, { password: PASSWORD });
  secrets.add(user.token);
});
afterAll(() => receiver.close());

type Line = Record<string, any>;

function logLines(output = suite.server.output()): Line[] {
  return output.split("\n").filter((line) => line.startsWith("{")).map((line) => JSON.parse(line) as Line);
}

/** The first log line that matches, once the server has written it (a line follows the response). */
async function lineWhere(predicate: (line: Line) => boolean, timeoutMs = DELIVERY_TIMEOUT_MS): Promise<Line> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = logLines().find(predicate);
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no such log line; last lines:\n${suite.server.output().slice(-3000)}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const requestLine = (id: string) => lineWhere((line) => line.message === "request" && line.correlation_id === id);
const newId = (prefix: string) => `${prefix}-${randomBytes(6).toString("hex")}`;

async function send(path: string, init: RequestInit & { id?: string; token?: string } = {}) {
  const headers = new Headers(init.headers);
  headers.set("User-Agent", UA);
  if (init.id) headers.set("X-Request-Id", init.id);
  if (init.token) headers.set("PRIVATE-TOKEN", init.token);
  const response = await fetch(`${suite.server.url}${path}`, { ...init, headers });
  const text = await response.text();
  return { status: response.status, id: response.headers.get("x-request-id"), text, json: () => JSON.parse(text) };
}

const postJson = (path: string, body: unknown, extra: { id?: string; token?: string; headers?: Record<string, string> } = {}) =>
  send(path, { method: "POST", body: JSON.stringify(body), headers: { "Content-Type": "application/json", ...extra.headers }, id: extra.id, token: extra.token });

async function createProject(owner: E2eUser, fields: Record<string, unknown> = {}) {
  const created = await owner.api.post("/projects", { name: uniqueName("logs"), ...fields });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body as { id: number; path_with_namespace: string };
}

async function addHook(projectId: number, events: Record<string, boolean>) {
  const token = `hook-token-${randomBytes(6).toString("hex")}`;
  const variable = `urlvar-${randomBytes(6).toString("hex")}`;
  const header = `header-${randomBytes(6).toString("hex")}`;
  [token, variable, header].forEach((secret) => secrets.add(secret));
  const hook = await user.api.post(`/projects/${projectId}/hooks`, {
    url: `${receiver.url}/hook-${projectId}/{part}`, token, url_variables: [{ key: "part", value: variable }],
    custom_headers: [{ key: "X-Custom", value: header }], push_events: false, ...events,
  });
  expect(hook.status, JSON.stringify(hook.body)).toBe(201);
  return { hook: hook.body as { id: number }, path: `/hook-${projectId}/${variable}` };
}

async function delivered(path: string) {
  const deadline = Date.now() + DELIVERY_TIMEOUT_MS;
  while (!receiver.requests.some((request) => request.path === path)) {
    if (Date.now() > deadline) throw new Error(`no delivery to ${path}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return receiver.requests.filter((request) => request.path === path);
}

describe("one line per request", () => {
  it("a REST request: every field, the route template, and X-Request-Id returned", async () => {
    const project = await createProject(user);
    const id = newId("rest");
    const before = Date.now();
    const answer = await postJson(`/api/v4/projects/${project.id}/issues`, { title: "Logged" }, { id, token: user.token });
    expect(answer.status).toBe(201);
    expect(answer.id).toBe(id);
    const line = await requestLine(id);
    expect(line).toMatchObject({
      severity: "INFO", method: "POST", path: `/api/v4/projects/${project.id}/issues`, route: "/api/v4/projects/:id/issues", status: 201,
      user_id: user.id, username: user.username, remote_ip: "127.0.0.1", ua: UA, graphql_operation_name: null,
      response_bytes: Buffer.byteLength(answer.text),
    });
    expect(line.db_count).toBeGreaterThan(0);
    expect(line.db_duration_s).toBeGreaterThan(0);
    expect(line.duration_s).toBeGreaterThanOrEqual(line.db_duration_s);
    expect(Date.parse(line.time)).toBeGreaterThanOrEqual(before - 1000);
    expect(line).not.toHaveProperty("err");
  });

  it("generates an id when none is given or the given one is not a plain token, and logs the anonymous caller", async () => {
    const plain = await send("/api/v4/version");
    expect(plain.status).toBe(401);
    expect(plain.id).toMatch(/^[0-9a-f]{32}$/);
    expect(await requestLine(plain.id!)).toMatchObject({ route: "/api/v4/version", status: 401, user_id: null, username: null });
    for (const refused of ["has space", "x".repeat(129), "-leading-dash"]) {
      const answer = await send("/-/liveness", { id: refused });
      expect(answer.id).toMatch(/^[0-9a-f]{32}$/);
      expect(await requestLine(answer.id!)).toMatchObject({ route: "/-/liveness", status: 200 });
    }
  });

  it("a path no route matches is logged without a route (never the raw path as one)", async () => {
    const id = newId("unmatched");
    expect((await send(`/api/v4/nothing/${randomBytes(4).toString("hex")}`, { id })).status).toBe(404);
    expect(await requestLine(id)).toMatchObject({ route: null, status: 404 });
  });

  it("a GraphQL request: its operation name, and the id in its errors' extensions", async () => {
    const id = newId("graph");
    const query = await postJson("/api/graphql", { query: "query WhoAmI { currentUser { username } }" }, { id, headers: { Authorization: `Bearer ${user.token}` } });
    expect(query.json()).toEqual({ data: { currentUser: { username: user.username } } });
    expect(await requestLine(id)).toMatchObject({ route: "/api/graphql", graphql_operation_name: "WhoAmI", user_id: user.id, status: 200 });

    const failing = newId("graph-error");
    const answer = await postJson("/graphql", { query: "query Broken { noSuchField }" }, { id: failing });
    const errors = answer.json().errors as { extensions?: { correlationId?: string } }[];
    expect(errors.length).toBeGreaterThan(0);
    expect(errors.map((error) => error.extensions?.correlationId)).toEqual(errors.map(() => failing));
    expect(await requestLine(failing)).toMatchObject({ route: "/graphql" });
  });

  it("git over HTTP: the route templates and the user of a clone and a push", async () => {
    const project = await createProject(user, { initialize_with_readme: true });
    const dir = workDir();
    const auth = { user: user.username, password: user.token };
    await gitOk(["-c", `http.extraHeader=X-Request-Id: clone-${project.id}`, "clone", "-q", cloneUrl(suite.server, project.path_with_namespace, auth), dir]);
    const fetches = logLines().filter((line) => line.correlation_id === `clone-${project.id}`);
    // git asks without credentials first; protocol v2 then posts twice (ls-refs, fetch)
    const seen = new Set(fetches.map((line) => JSON.stringify([line.method, line.route, line.status, line.username])));
    expect([...seen]).toEqual([
      ["GET", "/:namespace/:project.git/info/refs", 401, null],
      ["GET", "/:namespace/:project.git/info/refs", 200, user.username],
      ["POST", "/:namespace/:project.git/git-upload-pack", 200, user.username],
    ].map((row) => JSON.stringify(row)));
    await commitFile(dir, "logged.txt", "logged\n");
    await gitOk(["-c", `http.extraHeader=X-Request-Id: push-${project.id}`, "push", "-q", "origin", "main"], { cwd: dir });
    const push = await lineWhere((line) => line.correlation_id === `push-${project.id}` && line.method === "POST");
    expect(push).toMatchObject({ route: "/:namespace/:project.git/git-receive-pack", status: 200, user_id: user.id });
    expect(push.db_count).toBeGreaterThan(0); // the hooks' statements count for the push's request
  });
});

describe("the correlation id reaches the webhook deliveries", () => {
  it("an API change: the receiver gets X-Request-Id and the worker logs the delivery with it", async () => {
    const project = await createProject(user);
    const { hook, path } = await addHook(project.id, { issues_events: true });
    const id = newId("hooked");
    expect((await postJson(`/api/v4/projects/${project.id}/issues`, { title: "Fires a hook" }, { id, token: user.token })).status).toBe(201);
    const [request] = await delivered(path);
    expect(request!.headers["x-request-id"]).toBe(id);
    expect(request!.json.object_kind).toBe("issue");
    const line = await lineWhere((candidate) => candidate.message === "webhook delivered" && candidate.correlation_id === id);
    expect(line).toMatchObject({ hook_id: hook.id, event: "issue_hooks", attempt: 1, status: 200 });
    expect(line.duration_s).toBeGreaterThan(0);
  });

  it("a git push: the push hook carries the id of the receive-pack request", async () => {
    const project = await createProject(user, { initialize_with_readme: true });
    const { path } = await addHook(project.id, { push_events: true });
    const dir = workDir();
    await gitOk(["clone", "-q", cloneUrl(suite.server, project.path_with_namespace, { user: "oauth2", password: user.token }), dir]);
    await commitFile(dir, "pushed.txt", "pushed\n");
    const id = newId("pushed");
    await gitOk(["-c", `http.extraHeader=X-Request-Id: ${id}`, "push", "-q", "origin", "main"], { cwd: dir });
    const [request] = await delivered(path);
    expect(request!.json.object_kind).toBe("push");
    expect(request!.headers["x-request-id"]).toBe(id);
  });

  it("a hook test sent during the request carries that request's id", async () => {
    const project = await createProject(user, { initialize_with_readme: true });
    const { hook, path } = await addHook(project.id, { push_events: true });
    const id = newId("hook-test");
    const answer = await send(`/api/v4/projects/${project.id}/hooks/${hook.id}/test/push_events`, { method: "POST", id, token: user.token });
    expect(answer.status, answer.text).toBe(201);
    const [request] = await delivered(path);
    expect(request!.headers["x-request-id"]).toBe(id);
  });
});

describe("no secret in the log", () => {
  it("tokens in every place a client puts them, passwords and OAuth parameters never appear", async () => {
    const ids: string[] = [];
    const sent = async (path: string, init: Parameters<typeof send>[1], expected: number) => {
      const id = newId("secret");
      ids.push(id);
      const answer = await send(path, { ...init, id });
      expect(answer.status, `${path}: ${answer.text}`).toBe(expected);
      return answer;
    };
    await sent(`/api/v4/user?private_token=${user.token}`, {}, 200);
    await sent(`/api/v4/user?access_token=${user.token}`, {}, 200);
    await sent("/api/v4/user", { headers: { Authorization: `Bearer ${user.token}` } }, 200);
    await sent("/api/v4/user", { headers: { "Job-Token": user.token } }, 401);
    const wrong = `glpat-${randomBytes(12).toString("hex")}`; // a token that does not exist
    secrets.add(wrong);
    await sent(`/api/v4/user?private_token=${wrong}`, {}, 401);
    // a new user's password and a new personal access token, in bodies and answers
    const newPassword = `pw-${randomBytes(8).toString("hex")}`;
    secrets.add(newPassword);
    const other = await sent("/api/v4/users", {
      method: "POST", token: E2E_ROOT_TOKEN, headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ username: uniqueName("pw"), name: "Pw", email: `${uniqueName("pw")}@example.com`, password: newPassword, skip_confirmation: true }),
    }, 201);
    const pat = await sent(`/api/v4/users/${other.json().id}/personal_access_tokens`, {
      method: "POST", token: E2E_ROOT_TOKEN, headers: { "Content-Type": "application/json" }, body: JSON.stringify({ name: "t", scopes: ["api"] }),
    }, 201);
    secrets.add(pat.json().token);

    // OAuth: an application's secret, the sign-in password, the code, access and refresh tokens
    const redirect = "http://127.0.0.1:9/callback";
    const app = await postJson("/api/v4/applications", { name: uniqueName("app"), redirect_uri: redirect, scopes: "api openid" }, { token: E2E_ROOT_TOKEN });
    expect(app.status, app.text).toBe(200);
    const { application_id: clientId, secret: clientSecret } = app.json();
    secrets.add(clientSecret);
    const authorize = `${suite.server.url}/oauth/authorize?${new URLSearchParams({ client_id: clientId, redirect_uri: redirect, response_type: "code", scope: "api openid", state: "st" })}`;
    const back = new URL(await signInAndConsent(suite.server.url, authorize, user.username, PASSWORD));
    const code = back.searchParams.get("code")!;
    secrets.add(code);
    const exchange = await send("/oauth/token", {
      method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "authorization_code", code, client_id: clientId, client_secret: clientSecret, redirect_uri: redirect }).toString(),
    });
    expect(exchange.status, exchange.text).toBe(200);
    const tokens = exchange.json();
    [tokens.access_token, tokens.refresh_token, tokens.id_token].forEach((secret: string) => secrets.add(secret));
    await sent("/api/v4/user", { headers: { Authorization: `Bearer ${tokens.access_token}` } }, 200);
    const refreshed = await send("/oauth/token", {
      method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded", Authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString("base64")}` },
      body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: tokens.refresh_token }).toString(),
    });
    expect(refreshed.status, refreshed.text).toBe(200);
    [refreshed.json().access_token, refreshed.json().refresh_token].forEach((secret: string) => secrets.add(secret));
    expect((await lineWhere((line) => line.route === "/oauth/token" && line.status === 200)).method).toBe("POST");

    for (const id of ids) await requestLine(id); // every request was logged
    const output = suite.server.output();
    const found = [...secrets].filter((secret) => output.includes(secret));
    expect(found).toEqual([]);
  });
});

describe("settings", () => {
  it("LOG_LEVEL=warn leaves requests out; LOG_FORMAT=pretty writes lines for a person", async () => {
    const [quiet, pretty] = await Promise.all([startServer({ env: { LOG_LEVEL: "warn" } }), startServer({ env: { LOG_FORMAT: "pretty" } })]);
    try {
      for (const server of [quiet, pretty]) expect((await fetch(`${server.url}/api/v4/version`, { headers: { "PRIVATE-TOKEN": E2E_ROOT_TOKEN } })).status).toBe(200);
      await expect.poll(() => pretty.output()).toMatch(/INFO.*request/);
      expect(pretty.output().split("\n").filter((line) => line.startsWith("{"))).toEqual([]);
      expect(await quiet.stop()).toBe(0);
      expect(logLines(quiet.output()).filter((line) => line.message === "request")).toEqual([]);
    } finally {
      await quiet.stop();
      await pretty.stop();
    }
  }, 90_000); // two servers start

  it.each([["LOG_LEVEL", "verbose"], ["LOG_FORMAT", "xml"]])("%s=%s stops the start with exit code 2", async (name, value) => {
    const run = await runUntilExit({ env: { [name]: value } });
    expect(run.code).toBe(2);
    expect(run.output).toContain(`Invalid setting: ${name} must be`);
  });
});
