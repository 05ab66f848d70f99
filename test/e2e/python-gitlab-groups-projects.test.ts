// python-gitlab 3.12 driving groups, projects, members and project/group access tokens against
// the real server. The scripts in test/e2e/python create their records under a unique TAG path
// and print one JSON document each; this file asserts on it.
import { describe, expect, it } from "vitest";
import { createUser, uniqueName } from "./helpers/fixtures.js";
import { pythonGitlabUnavailable, runPython } from "./helpers/python.js";
import { useServer } from "./helpers/suite.js";

const unavailable = pythonGitlabUnavailable();
if (unavailable) console.warn(`Skipping the python-gitlab groups/projects e2e suite: ${unavailable}`);
const title = unavailable ? `python-gitlab groups and projects (SKIPPED: ${unavailable})` : "python-gitlab groups and projects";

const ascending = (ids: number[]) => [...ids].sort((a, b) => a - b);

describe.skipIf(unavailable !== null)(title, () => {
  const suite = useServer();

  it("groups, subgroups and projects: create, get by path, save(), old path, transfer, lists", async () => {
    const tag = uniqueName("py").toLowerCase();
    const outsider = await createUser(suite.server);
    const out = await runPython("groups_projects.py", suite.server, { TAG: tag, OUTSIDER_TOKEN: outsider.token });

    expect(out.group).toEqual({ id: expect.any(Number), full_path: tag, parent_id: null });
    expect(out.sub).toEqual({ id: expect.any(Number), full_path: `${tag}/sub`, parent_id: out.group.id });
    expect(out.sub_by_path).toEqual({ id: out.sub.id, description: "saved by python" });
    expect(ascending(out.subgroup_ids)).toEqual(ascending([out.sub.id, out.sub_two_id]));
    // the top-level search also matches full paths: the group, its subgroups and "<tag>-target"
    expect(ascending(out.group_search_ids)).toEqual(ascending([out.group.id, out.sub.id, out.sub_two_id, out.target_id]));

    expect(out.project).toEqual({ id: expect.any(Number), path_with_namespace: `${tag}/sub/proj`, namespace_id: out.sub.id });
    expect(out.by_path_id).toBe(out.project.id);
    expect(out.sub_project_ids).toEqual([out.project.id]);
    expect(ascending(out.group_project_ids)).toEqual(ascending(out.paged_ids));

    expect(out.renamed).toEqual({ name: "Renamed", path_with_namespace: `${tag}/sub/renamed` });
    expect(out.via_old_path).toEqual({ id: out.project.id, path_with_namespace: `${tag}/sub/renamed` });
    expect(out.after_transfer).toEqual({ path_with_namespace: `${tag}-target/renamed`, namespace_id: out.target_id });
    expect(out.via_pre_transfer_path_id).toBe(out.project.id);
    expect(out.sub_project_ids_after_transfer).toEqual([]);

    // offset pages (per_page=2, newest first), the lazy iterator (len() is X-Total) and keyset pages
    const newestFirst = ascending(out.paged_ids).reverse();
    expect(out.all_ids).toEqual(newestFirst);
    expect(out.iterator).toEqual({ len: 5, ids: newestFirst, total: 5, total_pages: 3 });
    expect(out.keyset_desc_ids).toEqual(newestFirst);
    const everything = await suite.root.get("/projects?per_page=100&order_by=id&sort=asc");
    expect(out.keyset_asc_ids).toEqual(everything.body.map((p: any) => p.id));
    expect(out.keyset_asc_ids).toEqual(expect.arrayContaining([out.project.id, ...out.paged_ids]));

    expect(out.errors).toEqual({
      hidden_project: { type: "GitlabGetError", response_code: 404, error_message: "404 Project Not Found" },
      hidden_by_path: { type: "GitlabGetError", response_code: 404, error_message: "404 Project Not Found" },
      hidden_group: { type: "GitlabGetError", response_code: 404, error_message: "404 Group Not Found" },
      duplicate_project: {
        type: "GitlabCreateError", response_code: 400,
        error_message: { name: ["has already been taken"], path: ["has already been taken"] },
      },
      transfer_same_namespace: {
        type: "GitlabTransferProjectError", response_code: 400,
        error_message: 'Failed to transfer project {:new_namespace=>["Project is already in this namespace."]}',
      },
    });
  });

  it("group and project members: create, list, get, save(), delete, members_all, sudo=, errors", async () => {
    const out = await runPython("members.py", suite.server, { TAG: uniqueName("pym").toLowerCase() });
    const root = (await suite.root.get("/user")).body.id;
    const { alice_id: alice, bob_id: bob } = out;

    expect(out.group_created).toEqual([alice, 30, expect.stringMatching(/^alice_/)]);
    expect(out.group_listed).toEqual([[root, 50], [alice, 30]]);
    expect(out.group_after_save).toBe(40);
    expect(out.sub_direct).toEqual([[root, 50]]);
    expect(out.sub_all).toEqual([[root, 50], [alice, 40]]);
    expect(out.project_all).toEqual([[root, 50], [alice, 40]]);
    expect(out.project_all_alice).toBe(40);
    expect(out.alice_sees_project).toBe(out.project_id);
    expect(out.duplicate_group_member).toEqual({ type: "GitlabCreateError", response_code: 409, error_message: "Member already exists" });
    expect(out.group_after_delete).toEqual([[root, 50]]);
    expect(out.alice_after_delete).toEqual({ type: "GitlabGetError", response_code: 404, error_message: "404 Project Not Found" });

    expect(out.project_created).toEqual([bob, 20]);
    expect(out.project_listed).toEqual([[bob, 20]]);
    expect(out.project_after_save).toBe(30);
    expect(out.bob_permissions).toMatchObject({ project_access: { access_level: 30 }, group_access: null });
    expect(out.duplicate_project_member).toEqual({ type: "GitlabCreateError", response_code: 409, error_message: "Member already exists" });
    expect(out.developer_adds).toEqual({ type: "GitlabCreateError", response_code: 403, error_message: "403 Forbidden" });
    expect(out.missing_member).toEqual({ type: "GitlabGetError", response_code: 404, error_message: "404 Not found" });
    expect(out.project_after_delete).toEqual([]);
    expect(out.bob_after_delete).toEqual({ type: "GitlabGetError", response_code: 404, error_message: "404 Project Not Found" });
  });

  it("project and group access tokens: create, list, delete; the bot token reads the private project", async () => {
    const out = await runPython("access_tokens.py", suite.server, { TAG: uniqueName("pyt").toLowerCase() });
    const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

    const projectToken = {
      id: expect.any(Number), name: "py-project-bot", scopes: ["read_api"], access_level: 20,
      active: true, revoked: false, expires_at: inDays(30), user_id: expect.any(Number),
    };
    expect(out.project_token).toEqual(projectToken);
    expect(out.project_token_secret_is_string).toBe(true);
    expect(out.project_listed).toEqual([out.project_token]);
    expect(out.project_single).toBe("py-project-bot");
    expect(out.bot_user).toEqual({ id: out.project_token.user_id, bot: true });
    expect(out.bot_reads_project).toBe(out.project_id);
    expect(out.bot_elsewhere).toEqual({ type: "GitlabGetError", response_code: 404, error_message: "404 Project Not Found" });
    expect(out.bot_member_level).toBe(20);
    expect(out.project_after_revoke).toEqual([{ ...out.project_token, active: false, revoked: true }]);
    expect(out.bot_after_revoke).toMatchObject({ type: "GitlabAuthenticationError", response_code: 401 });

    expect(out.group_token).toMatchObject({ name: "py-group-bot", scopes: ["api"], access_level: 30, active: true, expires_at: inDays(7) });
    expect(out.group_token.user_id).not.toBe(out.project_token.user_id);
    expect(out.group_listed_ids).toEqual([out.group_token.id]);
    expect(out.group_bot_reads_project).toBe(out.project_id);
    expect(out.group_bot_reads_group).toBe(out.group_id);
    expect(out.group_bot_after_revoke).toMatchObject({ type: "GitlabAuthenticationError", response_code: 401 });

    expect(out.developer_creates).toEqual({
      type: "GitlabCreateError", response_code: 400,
      error_message: "400 Bad request - User does not have permission to create project access token",
    });
    expect(out.delete_missing).toEqual({ type: "GitlabDeleteError", response_code: 404, error_message: "404 group Access Token Not Found" });
  });
});
