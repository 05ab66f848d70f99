// Group hook validation over /api/v4 (GitLab's 422 answers): URLs and the SSRF guard with and without
// ALLOW_LOCAL_WEBHOOKS, URL templates, URL variables and custom headers (keys, counts, lengths,
// delivery headers), branch filters per strategy, token and template; and secrets at rest: the
// database files never hold a token, a url or a value in clear, under a key file made with mode 0600.
import { readFileSync, statSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../helpers/app.js";
import { createGroup } from "../helpers/factories.js";
import { databaseContents, onPostgresql } from "../helpers/test-database.js";

let t: TestApp;
let local: TestApp; // ALLOW_LOCAL_WEBHOOKS=true
let group: any, localGroup: any;

const PUBLIC = "http://8.8.8.8";
const INVALID_URL = { error: "Invalid url given" };
const hooks = (g: any) => `/groups/${g.id}/hooks`;

beforeAll(async () => {
  [t, local] = await Promise.all([startTestApp(), startTestApp({ ALLOW_LOCAL_WEBHOOKS: "true" })]);
  group = await createGroup(t.root);
  localGroup = await createGroup(local.root);
});

afterEach(async () => {
  await t.services.db.webHook.deleteMany({});
  await local.services.db.webHook.deleteMany({});
});

const create = (body: Record<string, unknown>, app = t, g = group) => app.root.post(hooks(g), body);

async function update(body: Record<string, unknown>, app = t, g = group) {
  const created = await app.root.post(hooks(g), { url: `${PUBLIC}/base` });
  expect(created.status, created.text).toBe(201);
  return app.root.put(`${hooks(g)}/${created.body.id}`, body);
}

const NOT_ALLOWED = [
  "ftp://8.8.8.8/hook", "javascript:alert(1)", "file:///etc/passwd", "not a url", "", "   ", "http://", "http://8.8.8.8:0/",
  "http://8.8.8.8/a b", "http://8.8.8.8/\nx", "http://8.8.8.8/{_x}", "http://8.8.8.8/{", "http://no-such-host.invalid/hook",
];

const LOCAL = [
  "http://127.0.0.1/hook", "http://127.9.9.9:8080/", "http://localhost/", "http://LOCALHOST./x", "http://api.localhost/",
  "http://[::1]/", "http://0.0.0.0/", "http://[::]/", "http://2130706433/", "http://0x7f.1/", "http://127.1/",
  "http://[::ffff:127.0.0.1]/", "http://[::ffff:7f00:1]/", "http://[::127.0.0.1]/", "http://10.0.0.1/", "http://172.16.5.4/",
  "http://192.168.1.1/", "http://100.64.0.1/", "http://[fe80::1]/", "http://[fd12:3456::1]/", "http://224.0.0.1/",
  "http://[ff02::1]/", "http://255.255.255.255/", "http://192.0.2.10/", "http://[64:ff9b::a00:1]/", "http://[2002:a00:1::1]/",
  "https://user:pw@127.0.0.1/",
];

const METADATA = [
  "http://169.254.169.254/latest/meta-data/", "http://[fd00:ec2::254]/", "http://metadata.google.internal/computeMetadata/v1/",
  "http://METADATA.GOOGLE.INTERNAL./", "http://metadata/", "http://100.100.100.200/latest/meta-data/", "http://169.254.170.2/v2/credentials",
  "http://168.63.129.16/", "http://[::ffff:169.254.169.254]/", "http://[::ffff:a9fe:a9fe]/", "http://[64:ff9b::a9fe:a9fe]/",
  "http://[2002:a9fe:a9fe::1]/", "http://2852039166/",
];

describe("url", () => {
  it.each(NOT_ALLOWED)("refuses %j (422 Invalid url given) on create and edit", async (url) => {
    expect([(await create({ url })).status, (await create({ url })).body]).toEqual([422, INVALID_URL]);
    const edited = await update({ url });
    expect([edited.status, edited.body]).toEqual([422, INVALID_URL]);
  });

  it.each(LOCAL)("refuses the local target %j without ALLOW_LOCAL_WEBHOOKS, allows it with", async (url) => {
    const refused = await create({ url });
    expect([refused.status, refused.body]).toEqual([422, INVALID_URL]);
    expect((await update({ url })).body).toEqual(INVALID_URL);
    const allowed = await create({ url }, local, localGroup);
    expect(allowed.status, allowed.text).toBe(201);
    expect(allowed.body.url).toBe(url);
  });

  it.each(METADATA)("refuses the cloud metadata target %j even with ALLOW_LOCAL_WEBHOOKS", async (url) => {
    expect((await create({ url })).body).toEqual(INVALID_URL);
    const refused = await create({ url }, local, localGroup);
    expect([refused.status, refused.body]).toEqual([422, INVALID_URL]);
    expect((await update({ url }, local, localGroup)).body).toEqual(INVALID_URL);
  });

  it.each(["http://8.8.8.8/hook", "https://8.8.8.8:8443/a/b?c=d#e", "https://user:pass@1.1.1.1/x", "http://[2606:4700:4700::1111]/"])(
    "accepts the public %j, stored and shown as given",
    async (url) => {
      const res = await create({ url });
      expect(res.status, res.text).toBe(201);
      expect(res.body.url).toBe(url);
    },
  );

  it("checks the url after substituting URL variables; a {var} without a variable is refused", async () => {
    expect((await create({ url: `${PUBLIC}/{missing}` })).body).toEqual(INVALID_URL);
    expect((await create({ url: `${PUBLIC}/{a}/{b}`, url_variables: [{ key: "a", value: "x" }] })).body).toEqual(INVALID_URL);
    expect((await create({ url: "http://{host}/x", url_variables: [{ key: "host", value: "127.0.0.1" }] })).body).toEqual(INVALID_URL);
    expect((await create({ url: "http://{host}/x", url_variables: [{ key: "host", value: "169.254.169.254" }] }, local, localGroup)).body).toEqual(INVALID_URL);
    expect((await create({ url: "{scheme}://8.8.8.8/", url_variables: [{ key: "scheme", value: "ftp" }] })).body).toEqual(INVALID_URL);
    const ok = await create({ url: "http://{host}/{path}", url_variables: [{ key: "host", value: "8.8.8.8" }, { key: "path", value: "p" }] });
    expect(ok.status, ok.text).toBe(201);
    expect(ok.body.url).toBe("http://{host}/{path}");
    const localOk = await create({ url: "http://{host}/x", url_variables: [{ key: "host", value: "127.0.0.1:9" }] }, local, localGroup);
    expect(localOk.status).toBe(201);
  });

  it("a URL variable set later that points the url at a local address is refused", async () => {
    const hook = (await create({ url: "http://{host}/x", url_variables: [{ key: "host", value: "8.8.8.8" }] })).body;
    const res = await t.root.put(`${hooks(group)}/${hook.id}/url_variables/host`, { value: "10.1.1.1" });
    expect([res.status, res.body]).toEqual([422, { error: "Illegal key or value" }]);
  });
});

describe("URL variables and custom headers", () => {
  const many = (n: number, key = (i: number) => `K${i}`) => Array.from({ length: n }, (_, i) => ({ key: key(i), value: "v" }));

  it.each([
    ["20 variables", { url_variables: many(20) }, 201],
    ["21 variables", { url_variables: many(21) }, { error: "Url variables must be a valid json schema" }],
    ["a variable key with a space", { url_variables: [{ key: "abc def", value: "v" }] }, { error: "Url variables must be a valid json schema" }],
    ["a variable key starting with a digit", { url_variables: [{ key: "1abc", value: "v" }] }, { error: "Url variables must be a valid json schema" }],
    ["a variable key with a dash", { url_variables: [{ key: "a-b", value: "v" }] }, { error: "Url variables must be a valid json schema" }],
    ["a variable key with an underscore", { url_variables: [{ key: "_a_1", value: "v" }] }, 201],
    ["a 100-character variable value", { url_variables: [{ key: "a", value: "x".repeat(100) }] }, 201],
    ["a 101-character variable value", { url_variables: [{ key: "a", value: "x".repeat(101) }] }, { error: "Url variables must be a valid json schema" }],
    ["an empty variable value", { url_variables: [{ key: "a", value: "" }] }, { error: "Url variables must be a valid json schema" }],
    ["20 headers", { custom_headers: many(20, (i) => `X-H${i}`) }, 201],
    ["21 headers", { custom_headers: many(21, (i) => `X-H${i}`) }, { error: "Custom headers must be a valid json schema" }],
    ["a header key with a space", { custom_headers: [{ key: "X A", value: "v" }] }, { error: "Custom headers must be a valid json schema" }],
    ["a header key with doubled separators", { custom_headers: [{ key: "X--A", value: "v" }] }, { error: "Custom headers must be a valid json schema" }],
    ["a header key ending in a dash", { custom_headers: [{ key: "X-", value: "v" }] }, { error: "Custom headers must be a valid json schema" }],
    ["a header key starting with a digit", { custom_headers: [{ key: "1X", value: "v" }] }, { error: "Custom headers must be a valid json schema" }],
    ["a header key with a colon", { custom_headers: [{ key: "X:A", value: "v" }] }, { error: "Custom headers must be a valid json schema" }],
    ["a 2048-character header value", { custom_headers: [{ key: "X-A", value: "x".repeat(2048) }] }, 201],
    ["a 2049-character header value", { custom_headers: [{ key: "X-A", value: "x".repeat(2049) }] }, { error: "Custom headers must be a valid json schema" }],
    ["an empty header value", { custom_headers: [{ key: "X-A", value: "" }] }, { error: "Custom headers must be a valid json schema" }],
    ["a header value with a line break", { custom_headers: [{ key: "X-A", value: "a\r\nX-Evil: 1" }] }, { error: "Custom headers must be a valid json schema" }],
  ])("create with %s", async (_name, body, expected) => {
    const res = await create({ url: `${PUBLIC}/x`, ...body });
    if (expected === 201) expect(res.status, res.text).toBe(201);
    else expect([res.status, res.body]).toEqual([422, expected]);
  });

  it.each([
    "Content-Type", "content-type", "Content-Length", "User-Agent", "Idempotency-Key", "Host", "Transfer-Encoding", "Connection",
    "X-Service-Token", "X-Service-Event", "X-Service-Event-UUID", "X-Service-Webhook-UUID", "X-Service-Instance", "x-service-anything",
    "X-Gitlab-Token", "X-Gitlab-Event", "X-Gitlab-Event-UUID", "X-Gitlab-Webhook-UUID", "X-Gitlab-Instance",
  ])("a custom header cannot override the delivery header %s", async (key) => {
    const created = await create({ url: `${PUBLIC}/x`, custom_headers: [{ key, value: "v" }] });
    expect([created.status, created.body]).toEqual([422, { error: `Custom headers cannot override the delivery header ${key}` }]);
    const edited = await update({ url: `${PUBLIC}/base`, custom_headers: [{ key, value: "v" }] });
    expect([edited.status, edited.body]).toEqual([422, { error: `Custom headers validation failed: cannot override the delivery header ${key}` }]);
  });

  it("edits answer GitLab's save_hook texts", async () => {
    expect((await update({ url: `${PUBLIC}/base`, custom_headers: many(21, (i) => `X-H${i}`) })).body).toEqual({
      error: "Custom headers validation failed: must be a valid json schema",
    });
    const variables = await update({ url: `${PUBLIC}/base`, url_variables: [{ key: "bad key", value: "v" }] });
    expect([variables.status, variables.body]).toEqual([422, { message: { url_variables: ["must be a valid json schema"] } }]);
  });
});

describe("branch filters", () => {
  it.each([
    ["wildcard", "~badbranchname/"], ["wildcard", "a..b"], ["wildcard", "feature branch"], ["wildcard", "-x"], ["wildcard", "refs/heads/x"],
    ["wildcard", "x.lock"], ["wildcard", "a/.b"], ["wildcard", "a//b"], ["wildcard", "a@{1}"], ["wildcard", "HEAD"], ["wildcard", "a\\b"],
    ["wildcard", "x".repeat(4001)], ["regex", "("], ["regex", "[a-"], ["regex", "(?=lookahead)"], ["regex", "(a)\\1"], ["regex", "a**"],
    ["regex", "x{1001}"],
  ])("%s: refuses %j (422 Invalid branch filter given)", async (strategy, filter) => {
    const body = { url: `${PUBLIC}/x`, branch_filter_strategy: strategy, push_events_branch_filter: filter };
    expect([(await create(body)).status, (await create(body)).body]).toEqual([422, { error: "Invalid branch filter given" }]);
    expect((await update(body)).body).toEqual({ error: "Invalid branch filter given" });
  });

  it.each([
    ["wildcard", "feature/*", "feature/*"], ["wildcard", "main", "main"], ["wildcard", "  release/**  ", "release/**"], ["wildcard", "", ""],
    ["regex", "^(feature|fix)/[a-z-]+$", "^(feature|fix)/[a-z-]+$"], ["regex", "(a+)+$", "(a+)+$"], ["all_branches", "what[ever", null],
  ])("%s: accepts %j, stored as %j", async (strategy, filter, saved) => {
    const res = await create({ url: `${PUBLIC}/x`, branch_filter_strategy: strategy, push_events_branch_filter: filter });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ branch_filter_strategy: strategy, push_events_branch_filter: saved });
  });

  it("the stored filter is checked against a new strategy; all_branches clears it", async () => {
    const hook = (await create({ url: `${PUBLIC}/x`, branch_filter_strategy: "regex", push_events_branch_filter: "^rel-\\d+$" })).body;
    const path = `${hooks(group)}/${hook.id}`;
    expect((await t.root.put(path, { url: hook.url, branch_filter_strategy: "wildcard" })).body).toEqual({ error: "Invalid branch filter given" });
    const cleared = await t.root.put(path, { url: hook.url, branch_filter_strategy: "all_branches" });
    expect(cleared.body).toMatchObject({ branch_filter_strategy: "all_branches", push_events_branch_filter: null });
  });
});

describe("token, template and the per-group limit", () => {
  it("a token with a line break is refused", async () => {
    expect((await create({ url: `${PUBLIC}/x`, token: "foo\nbar" })).body).toEqual({ error: "Token is invalid" });
    const edited = await update({ url: `${PUBLIC}/base`, token: "foo\nbar" });
    expect([edited.status, edited.body]).toEqual([422, { message: { token: ["is invalid"] } }]);
  });

  it("a custom template holds at most 4096 characters", async () => {
    expect((await create({ url: `${PUBLIC}/x`, custom_webhook_template: "x".repeat(4096) })).status).toBe(201);
    expect((await create({ url: `${PUBLIC}/x`, custom_webhook_template: "x".repeat(4097) })).body).toEqual({
      error: "Custom webhook template is too long (maximum is 4096 characters)",
    });
  });

  it("several model errors read as one sentence", async () => {
    const res = await create({ url: `${PUBLIC}/x`, token: "a\nb", url_variables: [{ key: "bad key", value: "v" }] });
    expect(res.body).toEqual({ error: "Token is invalid and Url variables must be a valid json schema" });
  });

  it("a group holds at most 50 hooks", async () => {
    const own = await createGroup(t.root);
    for (let i = 0; i < 50; i++) expect((await create({ url: `${PUBLIC}/${i}` }, t, own)).status).toBe(201);
    const res = await create({ url: `${PUBLIC}/51` }, t, own);
    expect([res.status, res.body]).toEqual([422, { error: "Maximum number of group hooks (50) exceeded" }]);
  });
});

describe("secrets at rest", () => {
  const SECRETS = {
    token: "tok-Z9q8w7e6r5t4y3u2",
    password: "pw-Xk3jHq8sLm2",
    urlPath: "path-Qv7bN2mKx9",
    variable: "var-Lr5tY8uI1oP",
    header: "hdr-Wq2eR4tY6uI",
    newToken: "tok2-Hj4kL6mN8bV",
  };
  const VISIBLE = "plain-name-Gt5fR3";

  it("the database files never hold a token, a url, a variable value or a header value in clear", async () => {
    const g = await createGroup(t.root);
    const created = await create({
      url: `https://alice:${SECRETS.password}@8.8.8.8/${SECRETS.urlPath}/{v}`, token: SECRETS.token, name: VISIBLE,
      url_variables: [{ key: "v", value: SECRETS.variable }], custom_headers: [{ key: "Authorization", value: SECRETS.header }],
    }, t, g);
    expect(created.status, created.text).toBe(201);
    const id = created.body.id;
    expect((await t.root.put(`${hooks(g)}/${id}`, { url: created.body.url, token: SECRETS.newToken })).status).toBe(200);
    expect((await t.root.put(`${hooks(g)}/${id}/custom_headers/X-Api-Key`, { value: `${SECRETS.header}-2` })).status).toBe(204);
    expect((await t.root.put(`${hooks(g)}/${id}/url_variables/other`, { value: `${SECRETS.variable}-2` })).status).toBe(204);

    const parts = await databaseContents(t.services.config.databaseUrl);
    if (!onPostgresql) expect(parts.map((part) => part.name)).toEqual(expect.arrayContaining(["forgeline.db", "forgeline.db-wal"]));
    expect(parts.some(({ bytes }) => bytes.includes(Buffer.from(VISIBLE))), "the search sees the rows' plain columns").toBe(true);
    for (const { name: file, bytes } of parts) {
      for (const [name, secret] of Object.entries(SECRETS)) {
        for (const encoding of ["utf8", "utf16le"] as const) {
          expect(bytes.includes(Buffer.from(secret, encoding)), `${name} in ${file} (${encoding})`).toBe(false);
        }
      }
    }
    // the columns hold ciphertexts that differ even for equal plain texts (random IV)
    const row = await t.services.db.webHook.findUniqueOrThrow({ where: { id } });
    expect(row.encryptedUrl).toMatch(/^v1:[A-Za-z0-9+/]+=*$/);
    expect(row.encryptedToken).toMatch(/^v1:/);
    const twin = (await create({ url: `${PUBLIC}/twin`, token: "same" }, t, g)).body;
    const twin2 = (await create({ url: `${PUBLIC}/twin`, token: "same" }, t, g)).body;
    const [a, b] = await Promise.all([twin.id, twin2.id].map((i) => t.services.db.webHook.findUniqueOrThrow({ where: { id: i } })));
    expect(a!.encryptedToken).not.toBe(b!.encryptedToken);
    expect(a!.encryptedUrl).not.toBe(b!.encryptedUrl);
  });

  // on PostgreSQL the key must be given (WEBHOOK_ENCRYPTION_KEY): test/e2e/postgresql.test.ts
  it.skipIf(onPostgresql)("the key was generated into <dataDir>/encryption.key with mode 0600", () => {
    const file = path.join(t.dataDir, "encryption.key");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, "utf8")).toMatch(/^[0-9a-f]{64}\n$/);
  });
});
