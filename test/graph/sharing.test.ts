// Sharing through the public graph: projectShare/projectUnshare and groupShare/groupUnshare on the
// REST rules (who may share, with which group), and sharedWithGroups on Project and Group.
import { beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../helpers/app.js";
import { addMember, createGroup, createUser, uniq } from "../helpers/factories.js";
import { graph, NOT_AVAILABLE } from "../helpers/graph.js";
import { createTeamWithProjects, type TeamWithProjects } from "../helpers/team.js";

let t: TestApp;
let team: TeamWithProjects;

beforeAll(async () => {
  t = await startTestApp();
  team = await createTeamWithProjects(t);
});

const PROJECT_SHARE = `mutation($input: ProjectShareInput!) { projectShare(input: $input) { errors project { sharedWithGroups { groupFullPath groupName accessLevel expiresAt } } } }`;
const PROJECT_UNSHARE = `mutation($input: ProjectUnshareInput!) { projectUnshare(input: $input) { errors project { sharedWithGroups { groupFullPath } } } }`;
const GROUP_SHARE = `mutation($input: GroupShareInput!) { groupShare(input: $input) { errors group { fullPath sharedWithGroups { groupFullPath accessLevel } } } }`;

describe("projectShare and projectUnshare", () => {
  it("a Maintainer shares with a group they are a member of; its members then see the project; below Maintainer is refused", async () => {
    const member = await createUser(t);
    const group = await createGroup(team.maintainer.api, { path: uniq("g-share") });
    await addMember(team.maintainer.api, "groups", group.id, member.id, 30);
    const input = { projectPath: team.privateProject.path_with_namespace, groupPath: group.full_path, accessLevel: 20, expiresAt: "2099-06-30" };
    const refused = await graph(team.developer.api, PROJECT_SHARE, { input });
    expect(refused.body.errors?.[0]).toMatchObject({ message: NOT_AVAILABLE, path: ["projectShare"] });
    expect((await member.api.get(`/projects/${team.privateProject.id}`)).status).toBe(404);

    const res = await graph(team.maintainer.api, PROJECT_SHARE, { input });
    expect(res.body.data.projectShare).toEqual({
      errors: [],
      project: { sharedWithGroups: [{ groupFullPath: group.full_path, groupName: group.name, accessLevel: 20, expiresAt: "2099-06-30" }] },
    });
    expect((await member.api.get(`/projects/${team.privateProject.id}`)).status).toBe(200);

    const bad = await graph(team.maintainer.api, PROJECT_SHARE, { input: { ...input, accessLevel: 35 } });
    expect(bad.body.data.projectShare.errors).toEqual(["group_access does not have a valid value"]);

    const removed = await graph(team.maintainer.api, PROJECT_UNSHARE, { input: { projectPath: input.projectPath, groupPath: group.full_path } });
    expect(removed.body.data.projectUnshare).toEqual({ errors: [], project: { sharedWithGroups: [] } });
    expect((await member.api.get(`/projects/${team.privateProject.id}`)).status).toBe(404);
  });
});

describe("groupShare", () => {
  it("the shared group's Owners share it; a Maintainer is refused", async () => {
    const shared = await createGroup(team.owner.api, { path: uniq("g-shared") });
    await addMember(team.owner.api, "groups", shared.id, team.maintainer.id, 40);
    const other = await createGroup(team.owner.api, { path: uniq("g-other") });
    const input = { fullPath: shared.full_path, groupPath: other.full_path, accessLevel: 30 };
    const refused = await graph(team.maintainer.api, GROUP_SHARE, { input });
    expect(refused.body.errors?.[0]).toMatchObject({ message: NOT_AVAILABLE, path: ["groupShare"] });
    const res = await graph(team.owner.api, GROUP_SHARE, { input });
    expect(res.body.data.groupShare).toEqual({ errors: [], group: { fullPath: shared.full_path, sharedWithGroups: [{ groupFullPath: other.full_path, accessLevel: 30 }] } });
  });
});
