import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../src/config.js";
import { sourceRevision } from "../../src/domain/instance/metadata.js";
import { startTestApp, type TestApp } from "../helpers/app.js";
import { createUser, type TestUser } from "../helpers/factories.js";

let t: TestApp;
let user: TestUser;
beforeAll(async () => {
  t = await startTestApp();
  user = await createUser(t);
});

const expected = {
  version: "17.1.0",
  revision: expect.any(String),
  kas: { enabled: false, externalUrl: null, version: null },
  enterprise: true,
};

describe("GET /version", () => {
  it("answers 401 without a token", async () => {
    const res = await t.anon.get("/version");
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: "401 Unauthorized" });
  });

  it("answers 401 for a bad token", async () => {
    const res = await t.client("not-a-real-token-000000000").get("/version");
    expect(res.status).toBe(401);
  });

  it.each([
    ["a user", () => user.api],
    ["an administrator", () => t.root],
  ])("gives %s the instance metadata", async (_who, api) => {
    const res = await api().get("/version");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json");
    expect(res.body).toEqual(expected);
    expect(res.body.revision.length).toBeGreaterThan(0);
  });

  it("is readable with a read_api token", async () => {
    const reader = await createUser(t, {}, ["read_api"]);
    const res = await reader.api.get("/version");
    expect(res.status).toBe(200);
    expect(res.body.version).toBe("17.1.0");
  });

  it("has no other methods", async () => {
    const res = await t.root.post("/version", {});
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: "404 Not Found" });
  });
});

describe("GraphQL metadata", () => {
  const QUERY = `{ metadata { version revision enterprise kas { enabled externalUrl version } } }`;

  it("matches the REST answer", async () => {
    const [rest, graphql] = await Promise.all([user.api.get("/version"), user.api.graphql(QUERY)]);
    expect(graphql.body.errors).toBeUndefined();
    expect(graphql.body.data.metadata).toEqual(rest.body);
  });

  it("needs a signed-in user", async () => {
    const res = await t.anon.graphql(QUERY);
    expect(res.body.errors?.[0]?.extensions).toMatchObject({ code: "UNAUTHENTICATED" });
  });
});

describe("GET /metadata", () => {
  it("is GitLab's newer name for /version: the same answer, the same 401", async () => {
    const version = await t.root.get("/version");
    const metadata = await t.root.get("/metadata");
    expect(metadata.status).toBe(200);
    expect(metadata.body).toEqual(version.body);
    expect((await t.anon.get("/metadata")).status).toBe(401);
  });
});

// Gitlab.revision: the REVISION file, else `git log --pretty=format:%h --abbrev=11 -n 1`, else "Unknown"
describe("revision", () => {
  it("is the checkout's HEAD as GitLab abbreviates it (11 hex digits, more when needed)", async () => {
    const head = execFileSync("git", ["rev-parse", "HEAD"], { encoding: "utf8" }).trim();
    const res = await user.api.get("/version");
    expect(res.body.revision).toMatch(/^[0-9a-f]{11,40}$/);
    expect(head.startsWith(res.body.revision)).toBe(true);
    expect((await user.api.get("/metadata")).body.revision).toBe(res.body.revision);
  });

  it("is FORGELINE_REVISION when set (a build that is not a git checkout)", async () => {
    const built = await startTestApp({ FORGELINE_REVISION: "0123456789a" });
    const res = await built.root.get("/version");
    expect(res.body.revision).toBe("0123456789a");
  });

  it("refuses a FORGELINE_REVISION that is no commit id at start", () => {
    expect(() => loadConfig({ FORGELINE_REVISION: "abc; rm -rf /" })).toThrow(ConfigError);
  });

  it("reads a REVISION file first, and is Unknown outside a checkout without one", () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "forgeline-revision-"));
    expect(sourceRevision(dir)).toBe("Unknown");
    writeFileSync(path.join(dir, "REVISION"), "fedcba98765\n");
    expect(sourceRevision(dir)).toBe("fedcba98765");
  });
});
