// Project issues against the real server process, driven by @gitbeaker/rest 43.8: Issues.create,
// show (by project and iid), all (project and instance-wide, walking the Link header), edit
// (fields and stateEvent), and the errors gitbeaker raises.
import { Gitlab } from "@gitbeaker/rest";
import { describe, expect, it } from "vitest";
import { failure } from "./helpers/gitbeaker.js";
import { createUser, uniqueName } from "./helpers/fixtures.js";
import { useServer } from "./helpers/suite.js";

const suite = useServer();
const gitlab = (token: string | undefined = suite.server.rootToken) => new Gitlab({ host: suite.server.url, token: token! });

describe("gitbeaker Issues", () => {
  it("create, show, all, edit, close and reopen", async () => {
    const api = gitlab();
    const member = await createUser(suite.server);
    const project = await api.Projects.create({ name: uniqueName("gbi"), visibility: "private" });
    await api.ProjectMembers.add(project.id, 30, { userId: member.id });

    const created = await api.Issues.create(project.id, "Broken login", {
      description: "Steps\n- [ ] reproduce", labels: "bug,auth", assigneeIds: [member.id], confidential: true,
    });
    expect(created).toMatchObject({
      project_id: project.id, iid: 1, title: "Broken login", state: "opened", labels: ["auth", "bug"], confidential: true,
      assignees: [{ id: member.id }], type: "ISSUE", task_completion_status: { count: 1, completed_count: 0 },
      web_url: `${suite.server.url}/${project.path_with_namespace}/-/issues/1`,
    });
    expect(await api.Issues.show(created.iid, { projectId: project.id })).toEqual(created);

    const second = await gitlab(member.token).Issues.create(project.id, "Second");
    expect(second.iid).toBe(2);
    const listed = await api.Issues.all({ projectId: project.id, perPage: 1 });
    expect(listed.map((i) => i.iid)).toEqual([2, 1]);
    expect((await api.Issues.all({ projectId: project.id, labels: "bug" })).map((i) => i.iid)).toEqual([1]);
    const mine = await gitlab(member.token).Issues.all({ scope: "assigned_to_me" });
    expect(mine.map((i) => i.id)).toEqual([created.id]);

    const edited = await gitlab(member.token).Issues.edit(project.id, created.iid, { title: "Login broken", stateEvent: "close" });
    expect(edited).toMatchObject({ title: "Login broken", state: "closed", closed_by: { id: member.id } });
    const reopened = await api.Issues.edit(project.id, created.iid, { stateEvent: "reopen", addLabels: "triaged" });
    expect(reopened).toMatchObject({ state: "opened", closed_by: null, labels: ["auth", "bug", "triaged"] });
  });

  it("errors: a private project anonymously, a missing title, an invalid state_event, no permission", async () => {
    const api = gitlab();
    const project = await api.Projects.create({ name: uniqueName("gbe"), visibility: "private" });
    const issue = await api.Issues.create(project.id, "Hidden");
    const anonymous = new Gitlab({ host: suite.server.url, token: "" } as any);
    expect(await failure(anonymous.Issues.show(issue.iid, { projectId: project.id }))).toEqual({ status: 404, message: "404 Project Not Found" });
    expect(await failure(api.Issues.create(project.id, undefined as unknown as string))).toEqual({ status: 400, message: "title is missing" });
    expect(await failure(api.Issues.edit(project.id, issue.iid, { stateEvent: "open" as "close" }))).toEqual({
      status: 400, message: "state_event does not have a valid value",
    });
    const guest = await createUser(suite.server);
    await api.ProjectMembers.add(project.id, 10, { userId: guest.id });
    expect(await failure(gitlab(guest.token).Issues.edit(project.id, issue.iid, { title: "x" }))).toEqual({ status: 403, message: "403 Forbidden" });
    expect(await failure(api.Issues.show(999, { projectId: project.id }))).toEqual({ status: 404, message: "404 Not found" });
  });
});
