// python-gitlab 3.12 (Debian's python3-gitlab, run with /usr/bin/python3) against the real server.
// The scripts live in test/e2e/python and print JSON; this file asserts on it.
import { beforeAll, describe, expect, it } from "vitest";
import { createUser, type E2eUser } from "./helpers/fixtures.js";
import { pythonGitlabUnavailable, runPython } from "./helpers/python.js";
import { useServer } from "./helpers/suite.js";

const unavailable = pythonGitlabUnavailable();
if (unavailable) console.warn(`Skipping the python-gitlab e2e suite: ${unavailable}`);
const title = unavailable ? `python-gitlab (SKIPPED: ${unavailable})` : "python-gitlab";

describe.skipIf(unavailable !== null)(title, () => {
  const suite = useServer();
  let alice: E2eUser;
  beforeAll(async () => {
    alice = await createUser(suite.server);
  });

  it("creates a user as admin, gives it a token and uses that token", async () => {
    const out = await runPython("users_and_tokens.py", suite.server);
    expect(out.created).toMatchObject({ state: "active" });
    expect(out.fetched).toEqual({ id: out.created.id, username: out.created.username });
    expect(out.token).toEqual({ name: "python", scopes: ["api"], user_id: out.created.id, active: true });
    expect(out.current_user).toEqual({ id: out.created.id, username: out.created.username, is_admin: false });
  });

  describe("pagination", () => {
    beforeAll(async () => {
      for (let i = 0; i < 4; i++) await createUser(suite.server);
    });

    it("get_all=True and iterator=True walk every page; len() is X-Total", async () => {
      const everyone = await suite.root.get("/users?per_page=100");
      const ids = everyone.body.map((u: any) => u.id);
      const total = Number(everyone.headers.get("x-total"));
      expect(total).toBe(ids.length);
      expect(total).toBeGreaterThanOrEqual(6);
      const out = await runPython("pagination.py", suite.server);
      expect(out.all_ids).toEqual(ids);
      expect(out.iterator_len).toBe(total);
      expect(out.iterator_ids).toEqual(ids);
      expect(out.iterator_total_pages).toBe(Math.ceil(total / 2));
      expect(out.iterator_per_page).toBe(2);
    });

    it("a plain list() fetches one page and warns that more exist", async () => {
      const out = await runPython("pagination.py", suite.server);
      expect(out.first_page_ids).toEqual(out.all_ids.slice(0, 2));
      expect(out.warnings.join("\n")).toContain("will return a maximum of 2 items");
    });
  });

  it("sudo= acts as another user (query parameter)", async () => {
    const out = await runPython("sudo.py", suite.server, { SUDO_USER_ID: String(alice.id) });
    expect(out.as_target).toEqual({ id: alice.id, username: alice.username });
    expect(out.as_root.username).toBe("root");
    expect(out.features_as_target).toEqual({ type: "GitlabListError", response_code: 403, error_message: "403 Forbidden" });
    expect(out.unknown_target).toMatchObject({
      response_code: 404, error_message: "404 User with ID or username 'no_such_user_anywhere' Not Found",
    });
  });

  it("features.set (double-slash path), list and delete", async () => {
    const out = await runPython("features.py", suite.server);
    expect(out.enabled).toEqual({ name: "approval_group_rules", state: "on", gates: [{ key: "boolean", value: true }] });
    expect(out.enabled_definition).toMatchObject({ name: "approval_group_rules", default_enabled: false });
    expect(out.listed).toContainEqual(out.enabled);
    expect(out.disabled).toEqual({ name: "web_hook_test_api_endpoint_rate_limit", state: "off", gates: [{ key: "boolean", value: false }] });
    expect(out.slashed).toMatchObject({ name: "team/flag", state: "on" });
    expect(out.after_delete).toEqual([]);
    expect(out.percentage).toMatchObject({ type: "GitlabSetError", response_code: 400 });
  });

  it("raises GitLab's exception classes with the server's status and message", async () => {
    const out = await runPython("errors.py", suite.server, { USER_TOKEN: alice.token });
    expect(out.bad_token).toEqual({ type: "GitlabAuthenticationError", response_code: 401, error_message: "401 Unauthorized" });
    expect(out.features_as_user).toEqual({ type: "GitlabListError", response_code: 403, error_message: "403 Forbidden" });
    expect(out.missing_user).toEqual({ type: "GitlabGetError", response_code: 404, error_message: "404 User Not Found" });
    expect(out.create_without_username).toEqual({
      type: "GitlabCreateError", response_code: 400, error_message: "email is missing, username is missing",
    });
  });

  it("version() reads GET /version", async () => {
    const out = await runPython("version.py", suite.server);
    expect(out).toEqual({ version: "17.1.0", revision: expect.any(String) });
    expect(out.revision).not.toBe("unknown");
  });
});
