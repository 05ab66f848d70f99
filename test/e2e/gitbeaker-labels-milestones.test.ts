// Labels and milestones against the real server process, driven by @gitbeaker/rest: project and
// group labels (create, list, search, edit, priority, delete, a group label changed from a project;
// gitbeaker's label subscribe posts to the issues path, so subscriptions are python-gitlab's), milestones
// (create, list, edit, close, issues and merge requests, delete) and the
// promotion of a project milestone to its group, with gitbeaker's errors on refusals.
import { Gitlab } from "@gitbeaker/rest";
import { describe, expect, it } from "vitest";
import { failure } from "./helpers/gitbeaker.js";
import { createUser, uniqueName } from "./helpers/fixtures.js";
import { useServer } from "./helpers/suite.js";

const suite = useServer();
const gitlab = (token: string | undefined = suite.server.rootToken) => new Gitlab({ host: suite.server.url, token: token! });

describe("gitbeaker labels and milestones", () => {
  it("project and group labels: create, list, edit, priority, delete", async () => {
    const api = gitlab();
    const [developer, guest] = [await createUser(suite.server), await createUser(suite.server)];
    const group = await api.Groups.create(uniqueName("gbl"), uniqueName("gbl"), { visibility: "private" });
    const project = await api.Projects.create({ name: uniqueName("gblp"), namespaceId: group.id, visibility: "private", initializeWithReadme: true });
    await api.ProjectMembers.add(project.id, 30, { userId: developer.id });
    await api.ProjectMembers.add(project.id, 10, { userId: guest.id });
    const asDeveloper = gitlab(developer.token);
    const asGuest = gitlab(guest.token);

    const groupLabel = await api.GroupLabels.create(group.id, "area", "#ff0000", { description: "team-wide" });
    expect(groupLabel).toMatchObject({ name: "area", color: "#ff0000", description: "team-wide" });
    const bug = await asDeveloper.ProjectLabels.create(project.id, "bug", "red", { description: "broken", priority: 2 });
    expect(bug).toMatchObject({ name: "bug", color: "#FF0000", priority: 2, is_project_label: true, subscribed: false });
    expect(await failure(asGuest.ProjectLabels.create(project.id, "nope", "#000000"))).toMatchObject({ status: 403 });
    expect(await failure(asDeveloper.ProjectLabels.create(project.id, "area", "#000000"))).toMatchObject({ status: 409, message: "Label already exists" });

    const listed = await asGuest.ProjectLabels.all(project.id);
    expect(listed.map((l) => [l.name, l.is_project_label])).toEqual([["area", false], ["bug", true]]);
    expect((await asGuest.ProjectLabels.all(project.id, { includeAncestorGroups: false })).map((l) => l.name)).toEqual(["bug"]);
    expect((await asGuest.ProjectLabels.all(project.id, { search: "wide" })).map((l) => l.name)).toEqual(["area"]);

    const edited = await asDeveloper.ProjectLabels.edit(project.id, bug.id, { newName: "defect", description: "still broken", priority: 5 });
    expect(edited).toMatchObject({ id: bug.id, name: "defect", description: "still broken", priority: 5 });
    // gitbeaker asks for a colour or a new name on every edit (a priority alone goes through python-gitlab's
    // test): a change of the group's label through the project needs admin_label on the group
    expect(await failure(asDeveloper.ProjectLabels.edit(project.id, "area", { color: "#00ff00", priority: 1 }))).toMatchObject({ status: 403 });
    const prioritised = await api.ProjectLabels.edit(project.id, "area", { color: "#ff0000", priority: 1 });
    expect(prioritised).toMatchObject({ id: groupLabel.id, name: "area", color: "#ff0000", priority: 1, is_project_label: false });
    expect((await api.GroupLabels.show(group.id, groupLabel.id)).color).toBe("#ff0000");

    // gitbeaker's ProjectLabels.subscribe / unsubscribe post to .../issues/:label_id/subscribe (its bug):
    // labels' subscriptions are driven by python-gitlab's test

    const groupEdited = await api.GroupLabels.edit(group.id, groupLabel.id, { color: "#0000ff", description: "renamed" } as any);
    expect(groupEdited).toMatchObject({ color: "#0000ff", description: "renamed" });
    expect(await failure(asDeveloper.ProjectLabels.remove(project.id, "area"))).toMatchObject({ status: 403 });
    await asDeveloper.ProjectLabels.remove(project.id, bug.id);
    expect(await failure(asGuest.ProjectLabels.show(project.id, bug.id))).toEqual({ status: 404, message: "404 Label Not Found" });
    await api.GroupLabels.remove(group.id, groupLabel.id);
    expect(await asGuest.ProjectLabels.all(project.id)).toEqual([]);
  });

  it("milestones: create, list, edit, close, issues and merge requests, promote, delete", async () => {
    const api = gitlab();
    const reporter = await createUser(suite.server);
    const group = await api.Groups.create(uniqueName("gbm"), uniqueName("gbm"), { visibility: "private" });
    await api.GroupMembers.add(group.id, 20, { userId: reporter.id });
    const project = await api.Projects.create({ name: uniqueName("gbmp"), namespaceId: group.id, visibility: "private", initializeWithReadme: true });
    const sibling = await api.Projects.create({ name: uniqueName("gbms"), namespaceId: group.id, visibility: "private", initializeWithReadme: true });
    const asReporter = gitlab(reporter.token);

    const m = await asReporter.ProjectMilestones.create(project.id, "v1.0", { description: "first", dueDate: "2031-01-31", startDate: "2031-01-01" });
    expect(m).toMatchObject({ title: "v1.0", project_id: project.id, state: "active", due_date: "2031-01-31", start_date: "2031-01-01" });
    const twin = await api.ProjectMilestones.create(sibling.id, "v1.0");
    const other = await api.ProjectMilestones.create(project.id, "v2.0");
    expect((await asReporter.ProjectMilestones.all(project.id)).map((x) => x.title).sort()).toEqual(["v1.0", "v2.0"]);
    expect((await asReporter.ProjectMilestones.edit(project.id, other.id, { stateEvent: "close", description: "later" }))).toMatchObject({ state: "closed", description: "later" });
    expect((await asReporter.ProjectMilestones.all(project.id, { state: "active" })).map((x) => x.title)).toEqual(["v1.0"]);

    const issue = await api.Issues.create(project.id, "Ship it", { milestoneId: m.id });
    const twinIssue = await api.Issues.create(sibling.id, "Ship it too", { milestoneId: twin.id });
    await api.Branches.create(project.id, "feature", "main");
    await api.RepositoryFiles.create(project.id, "feature.txt", "feature", "hello\n", "Add feature");
    const mr = await api.MergeRequests.create(project.id, "feature", "main", "Feature", { milestoneId: m.id });
    expect((await asReporter.ProjectMilestones.allAssignedIssues(project.id, m.id)).map((i) => i.iid)).toEqual([issue.iid]);
    expect((await asReporter.ProjectMilestones.allAssignedMergeRequests(project.id, m.id)).map((x) => x.iid)).toEqual([mr.iid]);

    // promotion: the group's milestone takes both projects' "v1.0" with their issues and the merge request
    const outsider = await createUser(suite.server);
    await api.ProjectMembers.add(project.id, 40, { userId: outsider.id });
    expect(await failure(gitlab(outsider.token).ProjectMilestones.promote(project.id, m.id))).toMatchObject({ status: 403 });
    await asReporter.ProjectMilestones.promote(project.id, m.id);
    const [promoted] = await api.GroupMilestones.all(group.id);
    expect(promoted).toMatchObject({ title: "v1.0", group_id: group.id, description: "first", due_date: "2031-01-31" });
    expect((await api.ProjectMilestones.all(sibling.id)).map((x) => x.title)).toEqual([]);
    expect((await api.Issues.show(issue.iid, { projectId: project.id })).milestone).toMatchObject({ id: promoted!.id });
    expect((await api.Issues.show(twinIssue.iid, { projectId: sibling.id })).milestone).toMatchObject({ id: promoted!.id });
    expect((await api.MergeRequests.show(project.id, mr.iid)).milestone).toMatchObject({ id: promoted!.id });
    expect((await api.GroupMilestones.allAssignedIssues(group.id, promoted!.id)).map((i) => i.id).sort()).toEqual([issue.id, twinIssue.id].sort());
    expect(await failure(api.ProjectMilestones.promote(project.id, m.id))).toEqual({ status: 404, message: "404 Not found" });

    await asReporter.ProjectMilestones.remove(project.id, other.id);
    expect(await failure(api.ProjectMilestones.show(project.id, other.id))).toMatchObject({ status: 404 });
    await api.GroupMilestones.remove(group.id, promoted!.id);
    expect((await api.Issues.show(issue.iid, { projectId: project.id })).milestone).toBeNull();
  });
});
