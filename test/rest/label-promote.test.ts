// PUT /projects/:id/labels/:label_id/promote (GitLab's Labels API and Labels::PromoteService): a
// signed-in caller with admin_label on the project's group (Planner and above there, or an
// administrator; rights on the project alone are not enough) turns a project label into a label of
// the group; labels of that title in the group and its own projects are merged into it, with their
// issues, merge requests, priorities and subscribers. 400 for a personal project or a group label.
import { beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../helpers/app.js";
import { FORBIDDEN, PROJECT_NOT_FOUND, UNAUTHORIZED } from "../helpers/errors.js";
import { addMember, createGroup, createProject, createUser, uniq, type TestUser } from "../helpers/factories.js";
import { ACCESS_LEVEL, ACTORS, clientOf, createTeam, type Actor, type Team } from "../helpers/team.js";

let t: TestApp;
let team: Team;
let privGroup: any;
let pubGroup: any;
let privProject: any;
let pubProject: any;
let projectMaintainer: TestUser;

const FAILED = { message: "Failed to promote project label to group label" };
const LABEL_NOT_FOUND = { message: "404 Label Not Found" };
const GROUP_LABEL_KEYS = ["id", "name", "color", "description", "description_html", "text_color", "remove_on_close", "subscribed"];
const BODIES: Record<number, unknown> = { 401: UNAUTHORIZED, 403: FORBIDDEN, 404: PROJECT_NOT_FOUND };

const api = (actor: Actor) => clientOf(t, team, actor);
const owner = () => team.owner.api;

/** A group of the team's owner with the other roles as members, and a project of the group. */
async function teamGroupWithProject(visibility: "private" | "public") {
  const group = await createGroup(owner(), { visibility });
  for (const role of ["maintainer", "developer", "reporter", "guest"] as const) {
    await addMember(owner(), "groups", group.id, team[role].id, ACCESS_LEVEL[role]);
  }
  const project = await createProject(owner(), { namespace_id: group.id, visibility, initialize_with_readme: false });
  return { group, project };
}

async function projectLabel(project: any, name = uniq("label"), extra: Record<string, unknown> = {}) {
  const res = await owner().post(`/projects/${project.id}/labels`, { name, color: "#123456", ...extra });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

const promote = (actor: Actor | TestUser, project: any, ref: string | number) =>
  (typeof actor === "string" ? api(actor) : actor.api).put(`/projects/${project.id}/labels/${encodeURIComponent(String(ref))}/promote`);

beforeAll(async () => {
  t = await startTestApp();
  team = await createTeam(t);
  ({ group: privGroup, project: privProject } = await teamGroupWithProject("private"));
  ({ group: pubGroup, project: pubProject } = await teamGroupWithProject("public"));
  // a Maintainer of the projects who is no member of their groups
  projectMaintainer = await createUser(t);
  for (const project of [privProject, pubProject]) await addMember(owner(), "projects", project.id, projectMaintainer.id, ACCESS_LEVEL.maintainer);
});

describe("who may promote", () => {
  const expected: Record<"private" | "public", Record<Actor, number>> = {
    private: { anonymous: 401, nonMember: 404, guest: 403, reporter: 200, developer: 200, maintainer: 200, owner: 200, admin: 200 },
    public: { anonymous: 401, nonMember: 403, guest: 403, reporter: 200, developer: 200, maintainer: 200, owner: 200, admin: 200 },
  };
  const cases = (["private", "public"] as const).flatMap((kind) => ACTORS.map((actor) => [kind, actor, expected[kind][actor]] as const));

  it.each(cases)("%s group, %s: %i", async (kind, actor, status) => {
    const [group, project] = kind === "private" ? [privGroup, privProject] : [pubGroup, pubProject];
    const label = await projectLabel(project);
    const res = await promote(actor, project, label.id);
    expect(res.status, res.text).toBe(status);
    if (status !== 200) {
      expect(res.body).toEqual(BODIES[status]);
      // nothing changed: the project label is still there
      expect((await owner().get(`/projects/${project.id}/labels/${label.id}`)).status).toBe(200);
      return;
    }
    expect(res.body.name).toBe(label.name);
    const groupLabels = await owner().get(`/groups/${group.id}/labels`, { query: { per_page: 100 } });
    expect(groupLabels.body.filter((l: any) => l.name === label.name).map((l: any) => l.id)).toEqual([res.body.id]);
  });

  it.each(["private", "public"] as const)("a Maintainer of the %s project alone, without rights in the group: 403", async (kind) => {
    const project = kind === "private" ? privProject : pubProject;
    const label = await projectLabel(project);
    const res = await promote(projectMaintainer, project, label.id);
    expect(res.status, res.text).toBe(403);
    expect(res.body).toEqual(FORBIDDEN);
  });
});

describe("bad requests", () => {
  it("a personal project has no group: 400, even for its owner", async () => {
    const personal = await createProject(owner(), { initialize_with_readme: false });
    const label = await projectLabel(personal);
    const res = await promote("owner", personal, label.id);
    expect(res.status, res.text).toBe(400);
    expect(res.body).toEqual(FAILED);
  });

  it("a label of the group is not a project label: 400", async () => {
    const made = await owner().post(`/groups/${privGroup.id}/labels`, { name: uniq("group-label"), color: "#00ff00" });
    expect(made.status).toBe(201);
    for (const ref of [made.body.id, made.body.name]) {
      const res = await promote("owner", privProject, ref);
      expect(res.status, res.text).toBe(400);
      expect(res.body).toEqual(FAILED);
    }
  });

  it("an unknown label, or another project's: 404 Label Not Found", async () => {
    const other = await createProject(owner(), { initialize_with_readme: false });
    const elsewhere = await projectLabel(other);
    for (const ref of ["no-such-label", 2147483647, "99999999999999999999", elsewhere.id]) {
      const res = await promote("owner", privProject, ref);
      expect(res.status, String(ref)).toBe(404);
      expect(res.body).toEqual(LABEL_NOT_FOUND);
    }
  });

  it("an unknown project: 404 Project Not Found", async () => {
    const res = await owner().put(`/projects/999999999/labels/x/promote`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual(PROJECT_NOT_FOUND);
  });
});

describe("what a promotion does", () => {
  it("answers the GroupLabel entity with the label's title, colour and description, found by title too", async () => {
    const label = await projectLabel(privProject, uniq("Entity"), { color: "#abcdef", description: "Kept" });
    const res = await promote("owner", privProject, label.name);
    expect(res.status, res.text).toBe(200);
    expect(Object.keys(res.body)).toEqual(GROUP_LABEL_KEYS);
    expect(res.body).toMatchObject({ name: label.name, color: "#abcdef", description: "Kept", subscribed: false });
    expect(res.body.id).not.toBe(label.id);
    // the project label is gone; the project shows the group's label of that title
    const shown = await owner().get(`/projects/${privProject.id}/labels/${encodeURIComponent(label.name)}`);
    expect(shown.body).toMatchObject({ id: res.body.id, is_project_label: false });
    expect((await owner().get(`/projects/${privProject.id}/labels/${label.id}`)).status).toBe(404);
  });

  it("merges the same-titled labels of the group's projects and of the group, keeping issues, merge requests, priorities and subscribers", async () => {
    const { group, project: first } = await teamGroupWithProject("private");
    const second = await createProject(owner(), { namespace_id: group.id });
    expect((await owner().post(`/projects/${second.id}/repository/branches`, { branch: "x", ref: "main" })).status).toBe(201);
    const sub = await createGroup(owner(), { parent_id: group.id });
    const below = await createProject(owner(), { namespace_id: sub.id, initialize_with_readme: false });
    const title = uniq("bug");
    const a = await projectLabel(first, title, { color: "#ff0000", priority: 5 });
    const b = await projectLabel(second, title, { color: "#00ff00", priority: 2 });
    const c = await projectLabel(below, title, { color: "#0000ff" });
    // a group label made after them may share their title (only ancestors' titles are refused)
    const older = await owner().post(`/groups/${group.id}/labels`, { name: title, color: "#000000" });
    expect(older.status, older.text).toBe(201);
    const issueA = await owner().post(`/projects/${first.id}/issues`, { title: "a", labels: title });
    const issueB = await owner().post(`/projects/${second.id}/issues`, { title: "b", labels: title });
    const issueC = await owner().post(`/projects/${below.id}/issues`, { title: "c", labels: title });
    for (const issue of [issueA, issueB, issueC]) expect(issue.status, issue.text).toBe(201);
    const mr = await owner().post(`/projects/${second.id}/merge_requests`, { title: "m", source_branch: "x", target_branch: "main", labels: title });
    expect(mr.status, mr.text).toBe(201);
    for (const [actor, l, p] of [["developer", a, first], ["reporter", b, second], ["maintainer", older.body, null]] as const) {
      const path = p ? `/projects/${p.id}/labels/${l.id}/subscribe` : `/groups/${group.id}/labels/${l.id}/subscribe`;
      expect((await api(actor).post(path)).status).toBe(201);
    }
    // the developer subscribes to two of them: one subscription is kept
    expect((await api("developer").post(`/projects/${second.id}/labels/${b.id}/subscribe`)).status).toBe(201);

    const res = await promote("maintainer", first, a.id);
    expect(res.status, res.text).toBe(200);
    const promoted = res.body;
    expect(promoted).toMatchObject({ name: title, color: "#ff0000", subscribed: true });

    // one label of that title in the group; the subgroup's project keeps its own
    const groupLabels = await owner().get(`/groups/${group.id}/labels`, { query: { search: title, include_descendant_groups: true, only_group_labels: false } });
    expect(groupLabels.body.map((l: any) => l.id).sort()).toEqual([promoted.id, c.id].sort());
    const kept = await owner().get(`/projects/${below.id}/labels/${c.id}`);
    expect(kept.body).toMatchObject({ id: c.id, name: title, color: "#0000ff", is_project_label: true });
    for (const gone of [a.id, b.id]) expect((await owner().get(`/projects/${first.id}/labels/${gone}`)).status).toBe(404);
    expect((await owner().get(`/groups/${group.id}/labels/${older.body.id}`)).status).toBe(404);

    // issues and the merge request link to the new label
    const shownA = await owner().get(`/projects/${first.id}/issues/${issueA.body.iid}`);
    const shownB = await owner().get(`/projects/${second.id}/issues/${issueB.body.iid}`);
    expect(shownA.body.labels).toEqual([title]);
    expect(shownB.body.labels).toEqual([title]);
    for (const [project, issue] of [[first, issueA], [second, issueB], [below, issueC]] as const) {
      const byLabel = await owner().get(`/projects/${project.id}/issues`, { query: { labels: title } });
      expect(byLabel.body.map((i: any) => i.id), project.path).toEqual([issue.body.id]);
    }
    const mrs = await owner().get(`/projects/${second.id}/merge_requests`, { query: { labels: title } });
    expect(mrs.body.map((m: any) => [m.id, m.labels])).toEqual([[mr.body.id, [title]]]);
    const withCounts = await owner().get(`/groups/${group.id}/labels`, { query: { search: title, with_counts: true } });
    expect(withCounts.body).toEqual([expect.objectContaining({ id: promoted.id, open_issues_count: 2, closed_issues_count: 0 })]);

    // priorities: each project keeps the one it gave its own label
    const firstLabels = await owner().get(`/projects/${first.id}/labels`, { query: { search: title } });
    const secondLabels = await owner().get(`/projects/${second.id}/labels`, { query: { search: title } });
    expect(firstLabels.body).toEqual([expect.objectContaining({ id: promoted.id, priority: 5 })]);
    expect(secondLabels.body).toEqual([expect.objectContaining({ id: promoted.id, priority: 2 })]);

    // subscribers: each once
    for (const actor of ["developer", "reporter", "maintainer"] as const) {
      expect((await api(actor).get(`/groups/${group.id}/labels/${promoted.id}`)).body.subscribed, actor).toBe(true);
    }
    expect((await api("developer").post(`/groups/${group.id}/labels/${promoted.id}/unsubscribe`)).status).toBe(201);
    expect((await api("developer").get(`/groups/${group.id}/labels/${promoted.id}`)).body.subscribed).toBe(false);
    expect((await api("owner").get(`/groups/${group.id}/labels/${promoted.id}`)).body.subscribed).toBe(false);
  });

  it("a title shown by an ancestor group does not stop the promotion in a subgroup", async () => {
    const { group } = await teamGroupWithProject("private");
    const sub = await createGroup(owner(), { parent_id: group.id });
    const project = await createProject(owner(), { namespace_id: sub.id, initialize_with_readme: false });
    const title = uniq("shared");
    const label = await projectLabel(project, title);
    expect((await owner().post(`/groups/${group.id}/labels`, { name: title, color: "#111111" })).status).toBe(201);
    const res = await promote("owner", project, label.id);
    expect(res.status, res.text).toBe(200);
    const own = await owner().get(`/groups/${sub.id}/labels`, { query: { include_ancestor_groups: false } });
    expect(own.body.map((l: any) => l.id)).toContain(res.body.id);
  });
});
