// Group webhooks against the real server process: @gitbeaker/rest (GroupHooks add/all/show/edit/
// remove; the custom_headers and url_variables sub-resources through the raw requester, gitbeaker has
// no methods for them), python-gitlab (group.hooks, gl.http_request for the 204 sub-resources), and
// secrets at rest across a restart: the generated key file (mode 0600) is reused, the database files
// hold no secret in clear. The servers run with ALLOW_LOCAL_WEBHOOKS=true so hooks may point at
// loopback; nothing is delivered here.
import { readFileSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { Gitlab } from "@gitbeaker/rest";
import { failure } from "./helpers/gitbeaker.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.js";
import { createEncryption, loadEncryptionKey } from "../../src/domain/shared/encryption.js";
import { onPostgresql, queryDatabase } from "../helpers/test-database.js";
import { createUser, uniqueName } from "./helpers/fixtures.js";
import { pythonGitlabUnavailable, runPython } from "./helpers/python.js";
import { restClient } from "./helpers/rest.js";
import { startServer, type RunningServer } from "./helpers/server.js";
import { useServer } from "./helpers/suite.js";

const LOCAL_ENV = { ALLOW_LOCAL_WEBHOOKS: "true" };
const suite = useServer({ env: LOCAL_ENV });
const gitlab = (token: string | undefined = suite.server.rootToken) => new Gitlab({ host: suite.server.url, token: token! });
const uniquePath = (prefix: string) => uniqueName(prefix).toLowerCase().replace(/_/g, "-");

/** A hook's stored secrets, read from the server's database and decrypted with its key. */
async function storedSecrets(server: RunningServer, hookId: number) {
  const row = await readHookRow(server.databaseUrl, hookId);
  const config = loadConfig({ DATA_DIR: server.dataDir, DATABASE_URL: server.databaseUrl, WEBHOOK_ENCRYPTION_KEY: server.encryptionKey });
  const box = createEncryption(loadEncryptionKey(config));
  const open = (column: string, purpose: string) => (row[column] === null ? null : box.decrypt(row[column]!, purpose));
  return {
    url: open("encryptedUrl", "group_hook.url"),
    token: open("encryptedToken", "group_hook.token"),
    urlVariables: JSON.parse(open("encryptedUrlVariables", "group_hook.url_variables") ?? "{}"),
    customHeaders: JSON.parse(open("encryptedCustomHeaders", "group_hook.custom_headers") ?? "{}"),
  };
}

async function readHookRow(databaseUrl: string, hookId: number): Promise<Record<string, string | null>> {
  const [row] = await queryDatabase<Record<string, string | null>>(databaseUrl, 'SELECT * FROM "WebHook" WHERE id = ?', hookId);
  return row!;
}

describe("@gitbeaker/rest", () => {
  it("GroupHooks add, all, show, edit (token kept), sub-resources by the raw requester, remove", async () => {
    const api = gitlab();
    const groupPath = uniquePath("gb-hooks");
    const group = await api.Groups.create(`Hooks ${groupPath}`, groupPath);
    const receiver = `http://127.0.0.1:${suite.server.port}/receiver`;

    const hook = await api.GroupHooks.add(group.id as number, `${receiver}/{path}`, {
      token: "gb-token", pushEvents: false, mergeRequestsEvents: true, urlVariables: [{ key: "path", value: "gb-path" }],
      customHeaders: [{ key: "X-Gb", value: "gb-header" }],
    } as any);
    expect(hook).toMatchObject({
      url: `${receiver}/{path}`, group_id: group.id, push_events: false, merge_requests_events: true, alert_status: "executable",
      disabled_until: null, url_variables: [{ key: "path" }], custom_headers: [{ key: "X-Gb" }],
    });
    expect(hook).not.toHaveProperty("token");

    expect((await api.GroupHooks.all(groupPath)).map((h) => h.id)).toEqual([hook.id]);
    expect(await api.GroupHooks.show(group.id as number, hook.id as number)).toEqual(hook);

    const edited = await api.GroupHooks.edit(group.id as number, hook.id as number, hook.url as string, { noteEvents: true } as any);
    expect(edited).toEqual({ ...hook, note_events: true });
    expect(await storedSecrets(suite.server, hook.id as number)).toMatchObject({ token: "gb-token", urlVariables: { path: "gb-path" } });

    const base = `groups/${group.id}/hooks/${hook.id}`;
    const setHeader = await api.requester.put(`${base}/custom_headers/X-Gb-Two`, { body: { value: "two" } });
    const setVariable = await api.requester.put(`${base}/url_variables/extra`, { body: { value: "e" } });
    const unsetVariable = await api.requester.delete(`${base}/url_variables/extra`, { body: {} });
    expect([setHeader.status, setVariable.status, unsetVariable.status]).toEqual([204, 204, 204]);
    expect(await api.GroupHooks.show(group.id as number, hook.id as number)).toMatchObject({
      url_variables: [{ key: "path" }], custom_headers: [{ key: "X-Gb" }, { key: "X-Gb-Two" }],
    });
    expect(await failure(api.requester.put(`${base}/custom_headers/Content-Type`, { body: { value: "text/plain" } }))).toEqual({
      status: 422, message: "Illegal key or value",
    });

    // a new url drops the token and the stored headers
    const moved = await api.GroupHooks.edit(group.id as number, hook.id as number, `${receiver}/moved`);
    expect(moved).toMatchObject({ url: `${receiver}/moved`, url_variables: [], custom_headers: [] });
    expect((await storedSecrets(suite.server, hook.id as number)).token).toBeNull();

    await api.GroupHooks.remove(group.id as number, hook.id as number);
    await api.GroupHooks.remove(group.id as number, hook.id as number); // idempotent
    expect(await api.GroupHooks.all(group.id as number)).toEqual([]);
  });

  it("reports GitLab's errors", async () => {
    const api = gitlab();
    const groupPath = uniquePath("gb-hook-err");
    const group = await api.Groups.create(`Errors ${groupPath}`, groupPath);
    expect(await failure(api.GroupHooks.add(group.id as number, "ftp://8.8.8.8/"))).toEqual({ status: 422, message: "Invalid url given" });
    expect(await failure(api.GroupHooks.add(group.id as number, "http://metadata.google.internal/"))).toEqual({ status: 422, message: "Invalid url given" });
    expect(await failure(api.GroupHooks.add(group.id as number, "http://8.8.8.8/{nope}"))).toEqual({ status: 422, message: "Invalid url given" });
    expect(await failure(api.GroupHooks.show(group.id as number, 999999))).toEqual({ status: 404, message: "404 Not found" });
    const outsider = await createUser(suite.server);
    expect(await failure(gitlab(outsider.token).GroupHooks.all(group.id as number))).toEqual({ status: 404, message: "404 Group Not Found" });
  });
});

const unavailable = pythonGitlabUnavailable();
if (unavailable) console.warn(`Skipping the python-gitlab group hooks e2e: ${unavailable}`);

describe.skipIf(unavailable !== null)(unavailable ? `python-gitlab (SKIPPED: ${unavailable})` : "python-gitlab", () => {
  it("group.hooks create/list/get/save/delete and the 204 sub-resources through gl.http_request", async () => {
    const groupPath = uniquePath("py-hooks");
    const group = await suite.root.post("/groups", { name: `Py ${groupPath}`, path: groupPath });
    const outsider = await createUser(suite.server);
    const localUrl = `http://127.0.0.1:${suite.server.port}/py`;
    const out = await runPython("group_hooks.py", suite.server, { GROUP_ID: String(group.body.id), OUTSIDER_TOKEN: outsider.token, LOCAL_URL: localUrl });

    const created = {
      id: expect.any(Number), url: `${localUrl}/{path}`, group_id: group.body.id, push_events: true, issues_events: true, note_events: false,
      enable_ssl_verification: true, url_variables: [{ key: "path" }], custom_headers: [{ key: "X-Py" }], alert_status: "executable",
      push_events_branch_filter: null, branch_filter_strategy: "wildcard", has_token: false,
    };
    expect(out.created).toEqual(created);
    expect(out.listed).toEqual([out.created]);
    expect(out.fetched).toEqual(out.created);
    expect(out.saved).toEqual({ ...out.created, push_events: false, note_events: true, push_events_branch_filter: "release/*" });
    expect(out.sub_statuses).toEqual([204, 204, 204]);
    expect(out.sub_bodies).toEqual(["", ""]);
    expect(out.after_sub.custom_headers).toEqual([{ key: "X-Py" }, { key: "X-Py-Two" }]);
    expect(out.after_sub.url_variables).toEqual([{ key: "path" }]);
    expect(out.errors).toEqual({
      bad_url: { type: "GitlabCreateError", response_code: 422, error_message: "Invalid url given" },
      metadata: { type: "GitlabCreateError", response_code: 422, error_message: "Invalid url given" },
      bad_filter: { type: "GitlabCreateError", response_code: 422, error_message: "Invalid branch filter given" },
      reserved_header: { type: "GitlabHttpError", response_code: 422, error_message: "Illegal key or value" },
      missing_header: { type: "GitlabHttpError", response_code: 404, error_message: "404 Custom header Not Found" },
      outsider_list: { type: "GitlabListError", response_code: 404, error_message: "404 Group Not Found" },
      missing_hook: { type: "GitlabGetError", response_code: 404, error_message: "404 Not found" },
    });
    expect(out.after_delete).toEqual([]);
    expect(out.second_delete).toBe("ok");
    // python's save() resent url: the token stayed
    expect(await storedSecrets(suite.server, out.kept_id)).toMatchObject({ token: "kept-token", customHeaders: { "X-Kept": "kept-header" } });
  });
});

// the key file is SQLite's default; PostgreSQL requires WEBHOOK_ENCRYPTION_KEY (postgresql.test.ts)
describe.skipIf(onPostgresql)("secrets at rest across a restart", () => {
  let server: RunningServer;
  const SECRETS = ["rst-token-Q1w2E3r4", "rst-pass-A9s8D7f6", "rst-var-Z1x2C3v4", "rst-header-M5n6B7v8"];
  let hookId: number;
  let groupId: number;
  let keyText: string;

  beforeAll(async () => {
    server = await startServer({ env: LOCAL_ENV });
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
  });

  it("generates the key file with mode 0600 on first start and keeps secrets out of the database files", async () => {
    const root = restClient(server);
    const group = await root.post("/groups", { name: "Restart", path: uniquePath("restart") });
    groupId = group.body.id;
    const created = await root.post(`/groups/${groupId}/hooks`, {
      url: `https://alice:${SECRETS[1]}@8.8.8.8/{v}`, token: SECRETS[0],
      url_variables: [{ key: "v", value: SECRETS[2] }], custom_headers: [{ key: "X-Secret", value: SECRETS[3] }],
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    hookId = created.body.id;
    const keyFile = path.join(server.dataDir, "encryption.key");
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    keyText = readFileSync(keyFile, "utf8");
    for (const file of readdirSync(server.dataDir).filter((name) => name.startsWith("forgeline.db"))) {
      const bytes = readFileSync(path.join(server.dataDir, file));
      for (const secret of SECRETS) expect(bytes.includes(Buffer.from(secret)), `${secret} in ${file}`).toBe(false);
    }
    expect(server.output()).not.toMatch(/rst-(token|pass|var|header)/);
  });

  it("a restart on the same data directory reuses the key: the hook and its secrets still read", async () => {
    expect(await server.stop()).toBe(0);
    server = await startServer({ dataDir: server.dataDir, env: LOCAL_ENV });
    expect(readFileSync(path.join(server.dataDir, "encryption.key"), "utf8")).toBe(keyText);
    const hook = await restClient(server).get(`/groups/${groupId}/hooks/${hookId}`);
    expect(hook.status).toBe(200);
    expect(hook.body).toMatchObject({ url: `https://alice:${SECRETS[1]}@8.8.8.8/{v}`, url_variables: [{ key: "v" }], custom_headers: [{ key: "X-Secret" }] });
    expect(await storedSecrets(server, hookId)).toEqual({
      url: `https://alice:${SECRETS[1]}@8.8.8.8/{v}`, token: SECRETS[0], urlVariables: { v: SECRETS[2] }, customHeaders: { "X-Secret": SECRETS[3] },
    });
  }, 60_000);

  it("refuses to start with a malformed WEBHOOK_ENCRYPTION_KEY, without printing it", async () => {
    const bad = "not-a-valid-key-Secret123";
    const other = await startServer({ env: { ...LOCAL_ENV, WEBHOOK_ENCRYPTION_KEY: bad } }).then(
      (s) => s.stop().then(() => "started"),
      (error: Error) => error.message,
    );
    expect(other).toContain("Invalid setting: WEBHOOK_ENCRYPTION_KEY must be 32 bytes");
    expect(other).not.toContain(bad);
  }, 60_000);
});
