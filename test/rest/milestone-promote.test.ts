// POST /projects/:id/milestones/:milestone_id/promote (GitLab's Milestones::PromoteService): who
// may (admin_milestone on the project and on its group), what it does (a group milestone takes over
// the same-titled milestones of the group's projects with their issues and merge requests), and
// what it refuses (a personal project, a title the group's hierarchy holds: rolled back).
import { beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../helpers/app.js";
import { FORBIDDEN, NOT_FOUND, PROJECT_NOT_FOUND, UNAUTHORIZED } from "../helpers/errors.js";
import { addMember, createGroup, createProject, createUser, uniq } from "../helpers/factories.js";
import { createIssue } from "../helpers/issues.js";
import { createMergeRequest } from "../helpers/merge-requests.js";
import { ACCESS_LEVEL, ACTORS, clientOf, createTeam, type Actor, type Team } from "../helpers/team.js";

let t: TestApp;
let team: Team;
const groups: Record<"private" | "public", any> = {} as any;
const projects: Record<"private" | "public", any> = {} as any;
const as = (actor: Actor) => clientOf(t, team, actor);
const promote = (actor: Actor, project: any, id: number) => as(actor).post(`/projects/${project.id}/milestones/${id}/promote`);
const BODIES: Record<number, unknown> = { 401: UNAUTHORIZED, 403: FORBIDDEN, 404: PROJECT_NOT_FOUND };

beforeAll(async () => {
  t = await startTestApp();
  team = await createTeam(t);
  for (const kind of ["private", "public"] as const) {
    groups[kind] = await createGroup(team.owner.api, { visibility: kind });
    for (const role of ["guest", "reporter", "developer", "maintainer"] as const) await addMember(team.owner.api, "groups", groups[kind].id, team[role].id, ACCESS_LEVEL[role]);
    projects[kind] = await createProject(team.owner.api, { namespace_id: groups[kind].id, visibility: kind });
  }
});

const milestonesOf = async (path: string) => (await team.owner.api.get(`${path}/milestones?per_page=100`)).body as any[];

describe("who may promote", () => {
  const table: Record<"private" | "public", Record<Actor, number>> = {
    private: { anonymous: 401, nonMember: 404, guest: 403, reporter: 200, developer: 200, maintainer: 200, owner: 200, admin: 200 },
    public: { anonymous: 401, nonMember: 403, guest: 403, reporter: 200, developer: 200, maintainer: 200, owner: 200, admin: 200 },
  };
  const cases = (["private", "public"] as const).flatMap((kind) => ACTORS.map((actor) => [kind, actor, table[kind][actor]] as const));
  it.each(cases)("%s project, %s: %i", async (kind, actor, status) => {
    const project = projects[kind];
    const title = uniq(`m-${actor}`);
    const milestone = (await team.owner.api.post(`/projects/${project.id}/milestones`, { title })).body;
    const res = await promote(actor, project, milestone.id);
    expect(res.status, res.text).toBe(status);
    const groupTitles = (await milestonesOf(`/groups/${groups[kind].id}`)).map((m) => m.title);
    const projectTitles = (await milestonesOf(`/projects/${project.id}`)).map((m) => m.title);
    if (status === 200) {
      expect(res.body).toBe(200);
      expect(groupTitles).toContain(title);
      expect(projectTitles).not.toContain(title);
    } else {
      expect(res.body).toEqual(BODIES[status]);
      expect(groupTitles).not.toContain(title);
      expect(projectTitles).toContain(title);
    }
  });

  it("needs admin_milestone on the group too: a project Reporter who is not in the group gets 403", async () => {
    const user = await createUser(t);
    await addMember(team.owner.api, "projects", projects.private.id, user.id, ACCESS_LEVEL.reporter);
    const milestone = (await team.owner.api.post(`/projects/${projects.private.id}/milestones`, { title: uniq("p") })).body;
    const res = await user.api.post(`/projects/${projects.private.id}/milestones/${milestone.id}/promote`);
    expect([res.status, res.body]).toEqual([403, FORBIDDEN]);
    expect((await team.owner.api.get(`/projects/${projects.private.id}/milestones/${milestone.id}`)).status).toBe(200);
  });

  it("a personal project has no group: 403 for everyone, its owner and the admin too", async () => {
    const project = await createProject(team.owner.api);
    const milestone = (await team.owner.api.post(`/projects/${project.id}/milestones`, { title: "solo" })).body;
    for (const actor of ["owner", "admin"] as const) expect([(await promote(actor, project, milestone.id)).status]).toEqual([403]);
    expect((await milestonesOf(`/projects/${project.id}`)).map((m) => m.title)).toEqual(["solo"]);
  });

  it("a milestone the project does not own is 404 Not found (a group milestone, another project's, none)", async () => {
    const other = await createProject(team.owner.api, { namespace_id: groups.private.id });
    const elsewhere = (await team.owner.api.post(`/projects/${other.id}/milestones`, { title: uniq("o") })).body;
    const ofGroup = (await team.owner.api.post(`/groups/${groups.private.id}/milestones`, { title: uniq("g") })).body;
    for (const id of [elsewhere.id, ofGroup.id, 999999999]) {
      const res = await promote("owner", projects.private, id);
      expect([res.status, res.body]).toEqual([404, NOT_FOUND]);
    }
  });
});

describe("what a promotion does", () => {
  it("merges the same-titled milestones of the group's projects, moving their issues and merge requests", async () => {
    const group = await createGroup(team.owner.api);
    const [a, b] = [await createProject(team.owner.api, { namespace_id: group.id }), await createProject(team.owner.api, { namespace_id: group.id })];
    const ma = (await team.owner.api.post(`/projects/${a.id}/milestones`, { title: "v1", description: "first", start_date: "2030-01-01", due_date: "2030-02-01" })).body;
    const mb = (await team.owner.api.post(`/projects/${b.id}/milestones`, { title: "v1" })).body;
    await team.owner.api.put(`/projects/${a.id}/milestones/${ma.id}`, { state_event: "close" });
    const keep = (await team.owner.api.post(`/projects/${b.id}/milestones`, { title: "v2" })).body;
    const ia = await createIssue(team.owner.api, a.id, { milestone_id: ma.id });
    const ib = await createIssue(team.owner.api, b.id, { milestone_id: mb.id });
    const ik = await createIssue(team.owner.api, b.id, { milestone_id: keep.id });
    const mr = await createMergeRequest(team.owner.api, b.id, { milestone_id: mb.id });

    const res = await promote("owner", a, ma.id);
    expect([res.status, res.body]).toEqual([200, 200]);
    const [created] = await milestonesOf(`/groups/${group.id}`);
    // the service passes no state: the group milestone is active
    expect(created).toMatchObject({ iid: 1, group_id: group.id, title: "v1", description: "first", start_date: "2030-01-01", due_date: "2030-02-01", state: "active" });
    expect((await milestonesOf(`/projects/${a.id}`)).map((m) => m.title)).toEqual([]);
    expect((await milestonesOf(`/projects/${b.id}`)).map((m) => m.title)).toEqual(["v2"]);
    const milestoneOf = async (path: string) => (await team.owner.api.get(path)).body.milestone?.id ?? null;
    expect(await milestoneOf(`/projects/${a.id}/issues/${ia.iid}`)).toBe(created.id);
    expect(await milestoneOf(`/projects/${b.id}/issues/${ib.iid}`)).toBe(created.id);
    expect(await milestoneOf(`/projects/${b.id}/issues/${ik.iid}`)).toBe(keep.id);
    expect(await milestoneOf(`/projects/${b.id}/merge_requests/${mr.iid}`)).toBe(created.id);
    expect((await team.owner.api.get(`/groups/${group.id}/milestones/${created.id}/issues`)).body.map((i: any) => i.id).sort()).toEqual([ia.id, ib.id].sort());
  });

  it("rolls everything back when the title is then taken in the group's hierarchy (a subgroup project's milestone is not merged)", async () => {
    const group = await createGroup(team.owner.api);
    const sub = await createGroup(team.owner.api, { parent_id: group.id });
    const top = await createProject(team.owner.api, { namespace_id: group.id });
    const below = await createProject(team.owner.api, { namespace_id: sub.id });
    const m = (await team.owner.api.post(`/projects/${top.id}/milestones`, { title: "rc" })).body;
    expect((await team.owner.api.post(`/projects/${below.id}/milestones`, { title: "rc" })).status).toBe(201);
    const issue = await createIssue(team.owner.api, top.id, { milestone_id: m.id });
    const res = await promote("owner", top, m.id);
    expect([res.status, res.body]).toEqual([400, { message: "Promotion failed - Title already being used for another group or project milestone." }]);
    expect(await milestonesOf(`/groups/${group.id}`)).toEqual([]);
    expect((await milestonesOf(`/projects/${top.id}`)).map((x) => x.id)).toEqual([m.id]);
    expect((await team.owner.api.get(`/projects/${top.id}/issues/${issue.iid}`)).body.milestone.id).toBe(m.id);
  });
});
