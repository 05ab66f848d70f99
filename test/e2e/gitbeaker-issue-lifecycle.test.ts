// An issue's lifecycle endpoints against the real server process, driven by @gitbeaker/rest:
// Issues.allParticipants, allClosedByMergeRequestst (gitbeaker's spelling), allRelatedMergeRequests
// and remove, with the errors gitbeaker raises for callers without destroy_issue.
import { Gitlab } from "@gitbeaker/rest";
import { describe, expect, it } from "vitest";
import { failure } from "./helpers/gitbeaker.js";
import { createUser, uniqueName } from "./helpers/fixtures.js";
import { useServer } from "./helpers/suite.js";

const suite = useServer();
const gitlab = (token: string | undefined = suite.server.rootToken) => new Gitlab({ host: suite.server.url, token: token! });

describe("gitbeaker issue lifecycle", () => {
  it("participants, merge requests closing and mentioning the issue, then remove", async () => {
    const api = gitlab();
    const [developer, guest] = [await createUser(suite.server), await createUser(suite.server)];
    const project = await api.Projects.create({ name: uniqueName("gbil"), visibility: "public", initializeWithReadme: true });
    await api.ProjectMembers.add(project.id, 30, { userId: developer.id });
    await api.ProjectMembers.add(project.id, 10, { userId: guest.id });
    const asDeveloper = gitlab(developer.token);

    const issue = await api.Issues.create(project.id, "Flaky upload", { description: `cc @${guest.username}` });
    await asDeveloper.IssueNotes.create(project.id, issue.iid, "On it");
    const mr = async (branch: string, description: string) => {
      await asDeveloper.Branches.create(project.id, branch, "main");
      return asDeveloper.MergeRequests.create(project.id, branch, "main", branch, { description });
    };
    const closing = await mr("fix-upload", `Fixes #${issue.iid}`);
    const mentioning = await mr("refactor-upload", `Prepares ${project.path_with_namespace}#${issue.iid}`);

    const participants = await api.Issues.allParticipants(project.id, issue.iid);
    const root = (await api.Users.showCurrentUser()).id;
    expect(participants.map((u) => u.id)).toEqual([developer.id, root, guest.id]);
    expect((await api.Issues.allClosedByMergeRequestst(project.id, issue.iid)).map((m) => m.iid)).toEqual([closing.iid]);
    const related = await gitlab(guest.token).Issues.allRelatedMergeRequests(project.id, issue.iid);
    expect(related.map((m) => m.iid)).toEqual([closing.iid, mentioning.iid]);
    expect(related[0]).not.toHaveProperty("subscribed");

    expect(await failure(gitlab(guest.token).Issues.remove(project.id, issue.iid))).toMatchObject({ status: 403 });
    expect(await failure(asDeveloper.Issues.remove(project.id, issue.iid))).toMatchObject({ status: 403 });
    await api.Issues.remove(project.id, issue.iid);
    expect(await failure(api.Issues.show(issue.iid, { projectId: project.id }))).toMatchObject({ status: 404 });
    expect(await failure(api.Issues.remove(project.id, issue.iid))).toEqual({ status: 404, message: "404 Issue Not Found" });
  });
});
