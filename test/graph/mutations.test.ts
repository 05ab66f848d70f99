// The public graph's mutations: one `input`, a payload `{ <object>, errors }`; refusals by the
// domain's rules, hidden objects as GitLab's "resource not available" error.
import { beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../helpers/app.js";
import { createProjectRule } from "../helpers/approvals.js";
import { graph, graphData, gid, NOT_AVAILABLE, expectNotAvailable } from "../helpers/graph.js";
import { createUser } from "../helpers/factories.js";
import { createIssue } from "../helpers/issues.js";
import { createMergeRequest } from "../helpers/merge-requests.js";
import { clientOf, createTeamWithProjects, type Actor, type TeamWithProjects } from "../helpers/team.js";

let t: TestApp;
let team: TeamWithProjects;

beforeAll(async () => {
  t = await startTestApp();
  team = await createTeamWithProjects(t);
});

const CREATE_ISSUE = `mutation($input: CreateIssueInput!) { createIssue(input: $input) { errors issue { id iid title confidential labels { nodes { title } } assignees { nodes { username } } author { username } } } }`;

describe("createIssue", () => {
  it.each(["guest", "developer", "owner", "admin"] as Actor[])("creates an issue in the private project as %s", async (actor) => {
    const input = { projectPath: team.privateProject.path_with_namespace, title: `By ${actor}`, labels: ["bug"], assigneeIds: [gid("User", team.developer.id)] };
    const data = await graphData(clientOf(t, team, actor), CREATE_ISSUE, { input });
    expect(data.createIssue.errors).toEqual([]);
    expect(data.createIssue.issue).toMatchObject({ title: `By ${actor}`, labels: { nodes: [{ title: "bug" }] } });
    if (actor !== "guest") expect(data.createIssue.issue.assignees.nodes).toEqual([{ username: team.developer.username }]);
  });

  it.each(["anonymous", "nonMember"] as Actor[])("refuses %s on a private project without telling it exists", async (actor) => {
    const res = await graph(clientOf(t, team, actor), CREATE_ISSUE, { input: { projectPath: team.privateProject.path_with_namespace, title: "x" } });
    expectNotAvailable(res, "createIssue");
    const missing = await graph(clientOf(t, team, actor), CREATE_ISSUE, { input: { projectPath: "no/such", title: "x" } });
    expect(missing.body.errors?.[0]?.message).toBe(NOT_AVAILABLE);
  });

  it("refuses writes with a read_api token", async () => {
    const reader = await createUser(t, {}, ["read_api"]);
    const res = await graph(reader.api, CREATE_ISSUE, { input: { projectPath: team.publicProject.path_with_namespace, title: "x" } });
    expect(res.body.data ?? null).toBeNull();
    expect(res.body.errors?.[0]?.extensions).toMatchObject({ http: { status: 403 } });
    expect((await graphData(reader.api, "{ currentUser { id } }")).currentUser.id).toBe(gid("User", reader.id));
  });

  it("lists validation errors in the payload", async () => {
    const data = await graphData(team.developer.api, CREATE_ISSUE, { input: { projectPath: team.publicProject.path_with_namespace, title: " " } });
    expect(data.createIssue.issue).toBeNull();
    expect(data.createIssue.errors.length).toBeGreaterThan(0);
  });
});

describe("updateIssue", () => {
  const UPDATE = `mutation($input: UpdateIssueInput!) { updateIssue(input: $input) { errors issue { title state labels { nodes { title } } } } }`;
  let issue: any;
  beforeAll(async () => { issue = await createIssue(team.owner.api, team.publicProject.id, { title: "To change", labels: "a" }); });
  const input = (fields: Record<string, unknown>) => ({ input: { projectPath: team.publicProject.path_with_namespace, iid: String(issue.iid), ...fields } });

  it("changes the title, labels and state as a developer", async () => {
    const data = await graphData(team.developer.api, UPDATE, input({ title: "Changed", addLabels: ["b"], stateEvent: "CLOSE" }));
    expect(data.updateIssue).toEqual({ errors: [], issue: { title: "Changed", state: "closed", labels: { nodes: [{ title: "a" }, { title: "b" }] } } });
    const reopened = await graphData(team.developer.api, UPDATE, input({ stateEvent: "REOPEN" }));
    expect(reopened.updateIssue.issue.state).toBe("opened");
  });

  it.each(["anonymous", "nonMember", "guest"] as Actor[])("refuses %s (not the author)", async (actor) => {
    expectNotAvailable(await graph(clientOf(t, team, actor), UPDATE, input({ title: "Nope" })), "updateIssue");
  });

  it("needs at least one change and a real iid", async () => {
    const data = await graphData(team.developer.api, UPDATE, input({}));
    expect(data.updateIssue.issue).toBeNull();
    expect(data.updateIssue.errors.length).toBe(1);
    expectNotAvailable(await graph(team.developer.api, UPDATE, input({ iid: "abc", title: "x" })), "updateIssue");
  });
});

describe("createNote and award emoji", () => {
  const CREATE_NOTE = `mutation($input: CreateNoteInput!) { createNote(input: $input) { errors note { id body author { username } } } }`;
  const ADD = `mutation($input: AwardEmojiAddInput!) { awardEmojiAdd(input: $input) { errors awardEmoji { name user { username } } } }`;
  const REMOVE = `mutation($input: AwardEmojiRemoveInput!) { awardEmojiRemove(input: $input) { errors awardEmoji { name } } }`;
  const TOGGLE = `mutation($input: AwardEmojiToggleInput!) { awardEmojiToggle(input: $input) { errors toggledOn awardEmoji { name } } }`;
  let issue: any;
  let privateIssue: any;
  beforeAll(async () => {
    issue = await createIssue(team.owner.api, team.publicProject.id, { title: "Talk" });
    privateIssue = await createIssue(team.owner.api, team.privateProject.id, { title: "Hidden talk" });
  });

  it("comments on an issue, and the note shows on the issue", async () => {
    const data = await graphData(team.nonMember.api, CREATE_NOTE, { input: { noteableId: gid("Issue", issue.id), body: "Hello" } });
    expect(data.createNote).toMatchObject({ errors: [], note: { body: "Hello", author: { username: team.nonMember.username } } });
    const read = await graphData(team.guest.api, `query($id: ID!) { node(id: $id) { ... on Issue { notes { count nodes { body } } userNotesCount } } }`, { id: gid("Issue", issue.id) });
    expect(read.node).toEqual({ notes: { count: 1, nodes: [{ body: "Hello" }] }, userNotesCount: 1 });
  });

  it("refuses notes on hidden issues and lists an empty body as an error", async () => {
    expectNotAvailable(await graph(team.nonMember.api, CREATE_NOTE, { input: { noteableId: gid("Issue", privateIssue.id), body: "x" } }), "createNote");
    expectNotAvailable(await graph(t.anon, CREATE_NOTE, { input: { noteableId: gid("Issue", issue.id), body: "x" } }), "createNote");
    const empty = await graphData(team.developer.api, CREATE_NOTE, { input: { noteableId: gid("Issue", issue.id), body: " " } });
    expect(empty.createNote.note).toBeNull();
    expect(empty.createNote.errors).toHaveLength(1);
  });

  it("adds, refuses twice, toggles and removes a reaction", async () => {
    const input = { awardableId: gid("Issue", issue.id), name: "+1" };
    expect((await graphData(team.guest.api, ADD, { input })).awardEmojiAdd).toEqual({ errors: [], awardEmoji: { name: "thumbsup", user: { username: team.guest.username } } });
    expect((await graphData(team.guest.api, ADD, { input })).awardEmojiAdd).toEqual({ errors: ["Name has already been taken"], awardEmoji: null });
    expect((await graphData(team.guest.api, ADD, { input: { ...input, name: "not-an-emoji" } })).awardEmojiAdd.errors).toEqual(["Name is not a valid emoji name"]);
    const read = `query($id: ID!) { node(id: $id) { ... on Issue { upvotes awardEmoji { nodes { name user { username } } } } } }`;
    expect((await graphData(t.anon, read, { id: input.awardableId })).node).toEqual({ upvotes: 1, awardEmoji: { nodes: [{ name: "thumbsup", user: { username: team.guest.username } }] } });
    expect((await graphData(team.guest.api, TOGGLE, { input })).awardEmojiToggle).toEqual({ errors: [], toggledOn: false, awardEmoji: null });
    expect((await graphData(team.guest.api, TOGGLE, { input })).awardEmojiToggle).toEqual({ errors: [], toggledOn: true, awardEmoji: { name: "thumbsup" } });
    expect((await graphData(team.guest.api, REMOVE, { input })).awardEmojiRemove).toEqual({ errors: [], awardEmoji: null });
    expectNotAvailable(await graph(team.guest.api, REMOVE, { input }), "awardEmojiRemove");
  });

  it("reacts to a note, and refuses hidden awardables and anonymous callers", async () => {
    const note = (await graphData(team.owner.api, CREATE_NOTE, { input: { noteableId: gid("Issue", issue.id), body: "React" } })).createNote.note;
    expect((await graphData(team.developer.api, ADD, { input: { awardableId: note.id, name: "tada" } })).awardEmojiAdd.errors).toEqual([]);
    const read = await graphData(team.developer.api, `query($id: ID!) { node(id: $id) { ... on Note { awardEmoji { nodes { name } } } } }`, { id: note.id });
    expect(read.node.awardEmoji.nodes).toEqual([{ name: "tada" }]);
    expectNotAvailable(await graph(team.nonMember.api, ADD, { input: { awardableId: gid("Issue", privateIssue.id), name: "tada" } }), "awardEmojiAdd");
    expectNotAvailable(await graph(t.anon, ADD, { input: { awardableId: gid("Issue", issue.id), name: "tada" } }), "awardEmojiAdd");
    expectNotAvailable(await graph(team.developer.api, ADD, { input: { awardableId: "gid://forgeline/Project/1", name: "tada" } }), "awardEmojiAdd");
  });
});

describe("merge request approvals and merge", () => {
  const APPROVE = `mutation($input: MergeRequestApproveInput!) { mergeRequestApprove(input: $input) { errors mergeRequest { approved approvalsLeft approvedBy { nodes { username } } } } }`;
  const UNAPPROVE = `mutation($input: MergeRequestUnapproveInput!) { mergeRequestUnapprove(input: $input) { errors mergeRequest { approved approvedBy { nodes { username } } } } }`;
  const ACCEPT = `mutation($input: MergeRequestAcceptInput!) { mergeRequestAccept(input: $input) { errors mergeRequest { state mergedAt mergeUser { username } } } }`;
  const READ = `query($path: ID!, $iid: String!) { project(fullPath: $path) { mergeRequest(iid: $iid) { approved diffHeadSha
    approvalState { rules { name approvalsRequired approved approvedBy { username } } } } } }`;
  let mr: any;
  let input: { projectPath: string; iid: string };
  beforeAll(async () => {
    await createProjectRule(team.owner.api, team.publicProject.id, { name: "Reviewers", approvals_required: 1, user_ids: [team.maintainer.id] });
    mr = await createMergeRequest(team.developer.api, team.publicProject.id);
    input = { projectPath: team.publicProject.path_with_namespace, iid: String(mr.iid) };
  });

  it("shows the approval state, null to anonymous callers", async () => {
    const vars = { path: input.projectPath, iid: input.iid };
    expect((await graphData(team.guest.api, READ, vars)).project.mergeRequest).toMatchObject({
      approved: false,
      approvalState: { rules: [{ name: "Reviewers", approvalsRequired: 1, approved: false, approvedBy: [] }] },
    });
    expect((await graphData(t.anon, READ, vars)).project.mergeRequest).toMatchObject({ approved: null, approvalState: null });
  });

  it("approves and unapproves as the eligible maintainer", async () => {
    const approved = await graphData(team.maintainer.api, APPROVE, { input });
    expect(approved.mergeRequestApprove).toEqual({ errors: [], mergeRequest: { approved: true, approvalsLeft: 0, approvedBy: { nodes: [{ username: team.maintainer.username }] } } });
    const again = await graphData(team.maintainer.api, APPROVE, { input });
    expect(again.mergeRequestApprove).toEqual({ errors: ["Unauthorized"], mergeRequest: null });
    const unapproved = await graphData(team.maintainer.api, UNAPPROVE, { input });
    expect(unapproved.mergeRequestUnapprove).toEqual({ errors: [], mergeRequest: { approved: false, approvedBy: { nodes: [] } } });
  });

  it.each(["anonymous", "nonMember", "guest"] as Actor[])("refuses approval by %s", async (actor) => {
    expectNotAvailable(await graph(clientOf(t, team, actor), APPROVE, { input }), "mergeRequestApprove");
  });

  it("merges with the head sha, refusing a stale one, a guest and anonymous callers", async () => {
    await graphData(team.maintainer.api, APPROVE, { input });
    const head = (await graphData(team.maintainer.api, READ, { path: input.projectPath, iid: input.iid })).project.mergeRequest.diffHeadSha;
    const stale = await graphData(team.maintainer.api, ACCEPT, { input: { ...input, sha: "0".repeat(40) } });
    expect(stale.mergeRequestAccept.mergeRequest).toBeNull();
    expect(stale.mergeRequestAccept.errors[0]).toMatch(/SHA does not match HEAD of source branch/);
    // the merge request is visible to the guest: the refusal (the domain's 401) is a payload error
    expect((await graphData(team.guest.api, ACCEPT, { input: { ...input, sha: head } })).mergeRequestAccept).toEqual({ errors: ["Unauthorized"], mergeRequest: null });
    expectNotAvailable(await graph(t.anon, ACCEPT, { input: { ...input, sha: head } }), "mergeRequestAccept");
    const merged = await graphData(team.maintainer.api, ACCEPT, { input: { ...input, sha: head } });
    expect(merged.mergeRequestAccept).toMatchObject({ errors: [], mergeRequest: { state: "merged", mergeUser: { username: team.maintainer.username } } });
  });
});
