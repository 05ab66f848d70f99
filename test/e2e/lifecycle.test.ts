// Delete and transfer flows through both clients against the real server process:
// @gitbeaker/rest (Groups.transfer, Groups.allDescendantGroups, Projects.allGroups, Projects.remove,
// Groups.remove) and python-gitlab (group.transfer(), descendant_groups, project.groups,
// project.delete(), group.delete()).
import { Gitlab } from "@gitbeaker/rest";
import { describe, expect, it } from "vitest";
import { failure } from "./helpers/gitbeaker.js";
import { uniqueName } from "./helpers/fixtures.js";
import { pythonGitlabUnavailable, runPython } from "./helpers/python.js";
import { useServer } from "./helpers/suite.js";

const suite = useServer();
const gitlab = (token: string | undefined = suite.server.rootToken) => new Gitlab({ host: suite.server.url, token: token! });
const uniquePath = (prefix: string) => uniqueName(prefix).toLowerCase();
const ids = (rows: Array<{ id: unknown }>) => rows.map((r) => r.id as number);
const ascending = (list: number[]) => [...list].sort((a, b) => a - b);
const descending = (list: number[]) => [...list].sort((a, b) => b - a);

describe("gitbeaker: transfer and delete", () => {
  it("moves a group under another, lists descendants and a project's groups, deletes the project and then the groups", async () => {
    const api = gitlab();
    const path = uniquePath("gb-life");
    const group = await api.Groups.create(`Life ${path}`, path);
    const sub = await api.Groups.create("Sub", "sub", { parentId: group.id as number });
    const target = await api.Groups.create(`Target ${path}`, `${path}-target`);
    const project = await api.Projects.create({ name: "box", namespaceId: sub.id as number, initializeWithReadme: true });
    expect(project).toMatchObject({ empty_repo: false, readme_url: `${project.web_url}/-/blob/main/README.md` });

    expect(await failure(api.Groups.transfer(group.id as number, { groupId: sub.id as number })))
      .toEqual({ status: 400, message: "Transfer failed: Cannot transfer group to one of its subgroup." });
    const moved = await api.Groups.transfer(group.id as number, { groupId: target.id as number });
    expect(moved).toMatchObject({ id: group.id, parent_id: target.id, full_path: `${path}-target/${path}` });

    expect(ascending(ids(await api.Groups.allDescendantGroups(target.id as number, {})))).toEqual(ascending([group.id as number, sub.id as number]));
    // newest id first (Projects::GroupsFinder)
    expect(ids(await api.Projects.allGroups(project.id))).toEqual(descending([sub.id as number, group.id as number, target.id as number]));
    // the project's old path redirects (fetch follows the 301)
    expect((await api.Projects.show(`${path}/sub/box`)).path_with_namespace).toBe(`${path}-target/${path}/sub/box`);

    await api.Projects.remove(project.id);
    expect(await failure(api.Projects.show(project.id))).toEqual({ status: 404, message: "404 Project Not Found" });
    await api.Groups.remove(target.id as number);
    expect(await failure(api.Groups.show(sub.id as number))).toEqual({ status: 404, message: "404 Group Not Found" });
  });

  it("answers DELETE with 202 and GitLab's accepted body on the wire", async () => {
    const api = gitlab();
    const project = await api.Projects.create({ name: uniquePath("gone") });
    const res = await fetch(`${suite.server.apiUrl}/projects/${project.id}`, { method: "DELETE", headers: { "private-token": suite.server.rootToken! } });
    expect(res.status).toBe(202);
    expect(res.headers.get("content-type")).toBe("application/json");
    expect(await res.json()).toEqual({ message: "202 Accepted" });
  });
});

const unavailable = pythonGitlabUnavailable();
if (unavailable) console.warn(`Skipping the python-gitlab lifecycle e2e suite: ${unavailable}`);

describe.skipIf(unavailable !== null)("python-gitlab: transfer and delete", () => {
  it("group.transfer(), descendant_groups, project.groups, project.delete(), group.delete()", async () => {
    const tag = uniquePath("py-life");
    const out = await runPython("lifecycle.py", suite.server, { TAG: tag });
    expect(out.moved).toEqual({ parent_id: out.target_id, full_path: `${tag}-target/${tag}` });
    expect(out.refused).toEqual({
      type: "GitlabGroupTransferError", response_code: 400, error_message: "Transfer failed: Cannot transfer group to one of its subgroup.",
    });
    expect(ascending(out.descendant_ids)).toEqual(ascending([out.group_id, out.sub_id]));
    expect(out.project_group_ids).toEqual(descending([out.sub_id, out.group_id, out.target_id]));
    expect(out.searched_group_ids).toEqual([out.sub_id]);
    expect(out.empty_project).toEqual({ empty_repo: true, default_branch: "main", readme_url: null });
    expect(out.project_after_delete).toMatchObject({ type: "GitlabGetError", response_code: 404 });
    expect(out.top_level).toEqual({ parent_id: null, full_path: `${tag}-lone` });
    expect(out.group_after_delete).toMatchObject({ type: "GitlabGetError", response_code: 404 });
  });
});
