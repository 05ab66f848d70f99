// Instance-wide OAuth applications against the real server process: @gitbeaker/rest 43.8
// (Applications.create/all/remove; renew-secret through the raw requester, gitbeaker has no method
// for it) and python-gitlab 3.12 (gl.applications; renew-secret with gl.http_post).
import { Gitlab } from "@gitbeaker/rest";
import { failure } from "./helpers/gitbeaker.js";
import { beforeAll, describe, expect, it } from "vitest";
import { createUser, uniqueName, type E2eUser } from "./helpers/fixtures.js";
import { pythonGitlabUnavailable, runPython } from "./helpers/python.js";
import { useServer } from "./helpers/suite.js";

const suite = useServer();
const gitlab = (token: string | undefined = suite.server.rootToken) => new Gitlab({ host: suite.server.url, token: token! });

const UID = /^[0-9a-f]{64}$/;
const SECRET = /^gloas-[0-9a-f]{64}$/;

let alice: E2eUser;
beforeAll(async () => {
  alice = await createUser(suite.server);
});

describe("@gitbeaker/rest", () => {
  it("creates, lists, renews the secret of and removes an application", async () => {
    const api = gitlab();
    const name = uniqueName("gb-app");
    const created = await api.Applications.create(name, "https://gb.example/callback", "api read_user", { confidential: false });
    expect(created).toEqual({
      id: expect.any(Number),
      application_id: expect.stringMatching(UID),
      application_name: name,
      callback_url: "https://gb.example/callback",
      confidential: false,
      secret: expect.stringMatching(SECRET),
    });

    const listed = await api.Applications.all();
    const { secret, ...entity } = created;
    expect(listed).toContainEqual(entity);
    expect(listed.every((app) => !("secret" in app))).toBe(true);

    const { data: page, paginationInfo } = await api.Applications.all({ perPage: 1, page: 1, showExpanded: true });
    expect(page).toHaveLength(1);
    expect(paginationInfo).toMatchObject({ perPage: 1, current: 1, total: listed.length });

    const renewed = await api.requester.post(`applications/${created.id}/renew-secret`, { body: {} });
    expect(renewed.status).toBe(200);
    expect(renewed.body).toEqual({ ...entity, secret: expect.stringMatching(SECRET) });
    expect((renewed.body as { secret: string }).secret).not.toBe(secret);

    await api.Applications.remove(created.id);
    expect((await api.Applications.all()).map((app) => app.id)).not.toContain(created.id);
    expect(await failure(api.Applications.remove(created.id))).toEqual({ status: 404, message: "404 Application Not Found" });
  });

  it("reports GitLab's errors", async () => {
    const api = gitlab();
    expect(await failure(api.Applications.create("x", "https://gb.example/cb", "api nope"))).toMatchObject({ status: 400 });
    expect(await failure(api.Applications.create("x", "http://", "api"))).toMatchObject({ status: 400 });
    expect(await failure(api.Applications.create("x", "https://gb.example/cb", ""))).toEqual({ status: 400, message: "scopes is empty" });
    expect(await failure(gitlab(alice.token).Applications.all())).toEqual({ status: 403, message: "403 Forbidden" });
    expect(await failure(gitlab(alice.token).Applications.create("x", "https://gb.example/cb", "api"))).toEqual({ status: 403, message: "403 Forbidden" });
    expect(await failure(api.requester.post("applications/999999/renew-secret", { body: {} }))).toEqual({ status: 404, message: "404 Application Not Found" });
  });

  it("answers over raw HTTP as the spec says: 401 anonymous, 200 create, 204 delete", async () => {
    const anonymous = await fetch(`${suite.server.apiUrl}/applications`);
    expect(anonymous.status).toBe(401);
    const created = await suite.root.post("/applications", { name: uniqueName("raw"), redirect_uri: "urn:ietf:wg:oauth:2.0:oob", scopes: "api" });
    expect(created.status).toBe(200);
    expect(created.headers.get("content-type")).toBe("application/json");
    const removed = await suite.root.delete(`/applications/${created.body.id}`);
    expect(removed.status).toBe(204);
    expect(removed.body).toBe("");
  });
});

const unavailable = pythonGitlabUnavailable();
if (unavailable) console.warn(`Skipping the python-gitlab applications e2e test: ${unavailable}`);

describe.skipIf(unavailable !== null)(unavailable ? `python-gitlab (SKIPPED: ${unavailable})` : "python-gitlab", () => {
  it("gl.applications create/list/delete, renew-secret with gl.http_post, errors", async () => {
    const tag = uniqueName("py").toLowerCase();
    const out = await runPython("applications.py", suite.server, { TAG: tag, USER_TOKEN: alice.token });

    expect(out.created).toEqual({
      id: expect.any(Number),
      application_id: expect.stringMatching(UID),
      application_name: `py-${tag}`,
      callback_url: "https://py.example/cb",
      confidential: true,
    });
    expect(out.created_secret).toMatch(SECRET);
    expect(out.native).toMatchObject({ callback_url: "com.example.app:/oauth\nurn:ietf:wg:oauth:2.0:oob", confidential: false });
    expect(out.listed).toEqual([out.created, out.native]);
    expect(out.listed_has_secret).toBe(false);
    expect(out.paged).toHaveLength(1);
    expect(out.renewed).toEqual({ ...out.created, secret: expect.stringMatching(SECRET) });
    expect(out.renewed.secret).not.toBe(out.created_secret);

    expect(out.bad_scope).toEqual({
      type: "GitlabCreateError",
      response_code: 400,
      error_message: { scopes: ["doesn't match configured on the server."] },
    });
    expect(out.bad_uri).toMatchObject({ response_code: 400, error_message: { redirect_uri: ["is forbidden by the server."] } });
    expect(out.blank_scopes).toMatchObject({ response_code: 400, error_message: "scopes is empty" });
    expect(out.user_creates).toMatchObject({ response_code: 403, error_message: "403 Forbidden" });
    expect(out.user_lists).toMatchObject({ response_code: 403 });
    expect(out.user_deletes).toMatchObject({ type: "GitlabDeleteError", response_code: 403 });

    expect(out.after_delete).toEqual([]);
    expect(out.delete_missing).toEqual({ type: "GitlabDeleteError", response_code: 404, error_message: "404 Application Not Found" });
    expect(out.renew_missing).toMatchObject({ response_code: 404, error_message: "404 Application Not Found" });
  });
});
