// mergeRequestResetApprovals on the public graph, over the REST reset_approvals rule: only the bot
// of a project access token that may approve the merge request resets its approvals; humans
// (owners and administrators too) get the refusal in `errors`, anonymous callers and those who
// cannot see the merge request get "resource not available"; effects checked through REST.
import { beforeAll, describe, expect, it } from "vitest";
import { approvalStatus, approve, idsOf, projectBot } from "../helpers/approvals.js";
import { startTestApp, type TestApp } from "../helpers/app.js";
import { expectNotAvailable, graph, graphData } from "../helpers/graph.js";
import { createMergeRequest } from "../helpers/merge-requests.js";
import { clientOf, createTeamWithProjects, type Actor, type TeamWithProjects } from "../helpers/team.js";

const RESET = `mutation($input: MergeRequestResetApprovalsInput!) {
  mergeRequestResetApprovals(input: $input) { errors mergeRequest { iid approved approvedBy { nodes { id } } } }
}`;

let t: TestApp;
let team: TeamWithProjects;

beforeAll(async () => {
  t = await startTestApp();
  team = await createTeamWithProjects(t);
});

/** An open merge request of `project` approved by the developer and the owner. */
async function approvedMergeRequest(project: any): Promise<any> {
  const mr = await createMergeRequest(team.maintainer.api, project.id);
  await approve(team.developer.api, project.id, mr.iid);
  await approve(team.owner.api, project.id, mr.iid);
  return mr;
}

const approvers = async (project: any, mr: any) => idsOf((await approvalStatus(team.owner.api, project.id, mr.iid)).approved_by);

const input = (project: any, mr: any) => ({ input: { projectPath: project.path_with_namespace, iid: String(mr.iid) } });

describe("mergeRequestResetApprovals", () => {
  it("removes every approval for the project's access token bot", async () => {
    const project = team.privateProject;
    const bot = await projectBot(t, team.owner.api, project.id);
    const mr = await approvedMergeRequest(project);
    const data = await graphData(bot.api, RESET, input(project, mr));
    expect(data.mergeRequestResetApprovals).toEqual({ errors: [], mergeRequest: { iid: String(mr.iid), approved: true, approvedBy: { nodes: [] } } });
    expect(await approvers(project, mr)).toEqual([]);
  });

  it.each(["developer", "maintainer", "owner", "admin"] as Actor[])("lists the refusal in errors for %s, a human, and keeps the approvals", async (actor) => {
    const project = team.publicProject;
    const mr = await approvedMergeRequest(project);
    const data = await graphData(clientOf(t, team, actor), RESET, input(project, mr));
    expect(data.mergeRequestResetApprovals).toEqual({ errors: ["Unauthorized"], mergeRequest: null });
    expect(await approvers(project, mr)).toEqual([team.developer.id, team.owner.id]);
  });

  it("lists the refusal in errors for a bot of another project and a guest bot", async () => {
    const project = team.publicProject;
    const mr = await approvedMergeRequest(project);
    const stranger = await projectBot(t, team.owner.api, team.privateProject.id);
    const guestBot = await projectBot(t, team.owner.api, project.id, 10);
    for (const bot of [stranger, guestBot]) {
      expect((await graphData(bot.api, RESET, input(project, mr))).mergeRequestResetApprovals).toEqual({ errors: ["Unauthorized"], mergeRequest: null });
    }
    expect(await approvers(project, mr)).toHaveLength(2);
  });

  it.each(["anonymous", "nonMember"] as Actor[])("answers %s as not available on a private project and keeps the approvals", async (actor) => {
    const project = team.privateProject;
    const mr = await approvedMergeRequest(project);
    expectNotAvailable(await graph(clientOf(t, team, actor), RESET, input(project, mr)), "mergeRequestResetApprovals");
    expect(await approvers(project, mr)).toHaveLength(2);
  });

  it("answers a missing merge request, a bad iid and a numeric project path as not available", async () => {
    const project = team.privateProject;
    const bot = await projectBot(t, team.owner.api, project.id);
    const mr = await approvedMergeRequest(project);
    for (const fields of [{ iid: "999999" }, { iid: "not-a-number" }, { projectPath: String(project.id) }, { projectPath: "no/such" }]) {
      const res = await graph(bot.api, RESET, { input: { ...input(project, mr).input, ...fields } });
      expectNotAvailable(res, "mergeRequestResetApprovals");
    }
    expect(await approvers(project, mr)).toHaveLength(2);
  });
});
