// @gitbeaker/rest 43.8 against the real server process.
import { Gitlab } from "@gitbeaker/rest";
import { failure } from "./helpers/gitbeaker.js";
import { beforeAll, describe, expect, it } from "vitest";
import { createUser, uniqueName, type E2eUser } from "./helpers/fixtures.js";
import { useServer } from "./helpers/suite.js";

const suite = useServer();
const gitlab = (token: string | undefined = suite.server.rootToken, extra: { sudo?: string | number } = {}) =>
  new Gitlab({ host: suite.server.url, token: token!, ...extra });

const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/** The HTTP status and error text of a rejected gitbeaker call. */
describe("users and personal access tokens", () => {
  it("creates a user as admin and a token that acts as that user", async () => {
    const api = gitlab();
    const username = uniqueName("gb");
    const user = await api.Users.create({
      username, name: "Gitbeaker User", email: `${username}@example.com`, password: "password-123456", skipConfirmation: true,
    });
    expect(user).toMatchObject({ username, name: "Gitbeaker User", state: "active" });
    const shown = await api.Users.show(user.id as number);
    expect(shown.username).toBe(username);

    const pat = await api.Users.createPersonalAccessToken(user.id as number, "gitbeaker", ["api"], { expiresAt: inDays(30) });
    expect(pat).toMatchObject({ name: "gitbeaker", scopes: ["api"], user_id: user.id, active: true, expires_at: inDays(30) });
    const me = await gitlab(pat.token as string).Users.showCurrentUser();
    expect(me).toMatchObject({ id: user.id, username, is_admin: false });
  });
});

describe("pagination", () => {
  beforeAll(async () => {
    for (let i = 0; i < 5; i++) await createUser(suite.server);
  });

  it("all() follows Link rel=next across every page", async () => {
    const onePage = await suite.root.get("/users?per_page=100");
    const total = Number(onePage.headers.get("x-total"));
    expect(total).toBeGreaterThanOrEqual(6);
    const { data, paginationInfo } = await gitlab().Users.all({ perPage: 2, showExpanded: true });
    expect(data.map((u) => u.id)).toEqual(onePage.body.map((u: any) => u.id));
    expect(paginationInfo).toMatchObject({ total, perPage: 2, totalPages: Math.ceil(total / 2), next: null });
  });

  it("maxPages stops early", async () => {
    const users = await gitlab().Users.all({ perPage: 2, maxPages: 2 });
    expect(users).toHaveLength(4);
  });

  it("walks keyset pages too", async () => {
    const onePage = await suite.root.get("/users?per_page=100&order_by=id&sort=asc");
    const users = await gitlab().Users.all({ pagination: "keyset", orderBy: "id", sort: "asc", perPage: 2 } as any);
    expect(users.map((u) => u.id)).toEqual(onePage.body.map((u: any) => u.id));
  });
});

describe("sudo", () => {
  let alice: E2eUser;
  beforeAll(async () => {
    alice = await createUser(suite.server);
  });

  it("acts as another user with the client-wide sudo option (Sudo header)", async () => {
    const me = await gitlab(suite.server.rootToken, { sudo: alice.id }).Users.showCurrentUser();
    expect(me).toMatchObject({ id: alice.id, username: alice.username });
  });

  it("acts as another user with the per-call sudo option, by username", async () => {
    const me = await gitlab().Users.showCurrentUser({ sudo: alice.username });
    expect(me.id).toBe(alice.id);
  });

  it("refuses sudo to a non-admin and to an unknown user", async () => {
    expect(await failure(gitlab(alice.token).Users.showCurrentUser({ sudo: 1 }))).toEqual({
      status: 403, message: "403 Forbidden - Must be admin to use sudo",
    });
    expect(await failure(gitlab().Users.showCurrentUser({ sudo: "nobody_at_all" }))).toEqual({
      status: 404, message: "404 User with ID or username 'nobody_at_all' Not Found",
    });
  });
});

describe("features (raw requester: gitbeaker has no instance Features API)", () => {
  it("sets, lists and deletes a flag", async () => {
    const { requester } = gitlab();
    const set = await requester.post("features/approval_group_rules", { body: { value: true } });
    expect(set.status).toBe(201);
    expect(set.body).toMatchObject({ name: "approval_group_rules", state: "on", gates: [{ key: "boolean", value: true }] });
    const list = await requester.get("features");
    expect(list.body).toContainEqual(expect.objectContaining({ name: "approval_group_rules", state: "on" }));
    const removed = await requester.delete("features/approval_group_rules", { body: {} });
    expect(removed.status).toBe(204);
    const after = await requester.get("features");
    expect((after.body as any[]).map((f) => f.name)).not.toContain("approval_group_rules");
  });

  it("is refused to a non-admin with 403", async () => {
    const bob = await createUser(suite.server);
    expect(await failure(gitlab(bob.token).requester.get("features"))).toEqual({ status: 403, message: "403 Forbidden" });
  });
});

describe("errors", () => {
  it("a bad token gives a request error with status 401", async () => {
    expect(await failure(gitlab("not-a-valid-token-at-all-0000").Users.showCurrentUser())).toEqual({
      status: 401, message: "401 Unauthorized",
    });
  });

  it("a missing user gives 404 with GitLab's message", async () => {
    expect(await failure(gitlab().Users.show(999_999))).toEqual({ status: 404, message: "404 User Not Found" });
  });

  it("a validation failure gives 400 with GitLab's error text", async () => {
    const result = await failure(gitlab().Users.create({ name: "No Username" } as any));
    expect(result).toEqual({ status: 400, message: "email is missing, username is missing" });
  });
});

describe("version", () => {
  it("GET /version through the requester", async () => {
    const answer = await gitlab().requester.get("version");
    expect(answer.body).toMatchObject({ version: "17.1.0", enterprise: true, kas: { enabled: false } });
  });

  it("Metadata.show (GET /metadata) gives the same answer", async () => {
    const metadata = await gitlab().Metadata.show();
    expect(metadata).toEqual((await gitlab().requester.get("version")).body);
  });
});
