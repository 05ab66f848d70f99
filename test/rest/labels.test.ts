// Project labels through /api/v4 (GitLab's Labels API): read by whoever sees the project, written
// by Planners and above; the ProjectLabel entity, colours (hex or CSS names), unique titles (409),
// group labels of the project's ancestors, and labels as records on issues: a rename shows on
// every issue, a delete takes the label off them, and issue labels resolve to existing labels.
import { beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../helpers/app.js";
import { FORBIDDEN, PROJECT_NOT_FOUND, UNAUTHORIZED } from "../helpers/errors.js";
import { createGroup } from "../helpers/factories.js";
import { ACTORS, clientOf, createTeamProject, createTeamWithProjects, type Actor, type TeamWithProjects } from "../helpers/team.js";

let t: TestApp;
let team: TeamWithProjects;
let priv: any;
let pub: any;

const api = (actor: Actor) => clientOf(t, team, actor);
const url = (p: any, rest = "") => `/projects/${p.id}/labels${rest}`;
const BODIES: Record<number, unknown> = { 401: UNAUTHORIZED, 403: FORBIDDEN, 404: PROJECT_NOT_FOUND };

beforeAll(async () => {
  t = await startTestApp();
  team = await createTeamWithProjects(t);
  ({ privateProject: priv, publicProject: pub } = team);
});

describe("POST /projects/:id/labels", () => {
  const creators: Record<"private" | "public", Record<Actor, number>> = {
    private: { anonymous: 404, nonMember: 404, guest: 403, reporter: 201, developer: 201, maintainer: 201, owner: 201, admin: 201 },
    // authorize! :admin_label: the project is found, then 403 for anyone without the ability, signed in or not
    public: { anonymous: 403, nonMember: 403, guest: 403, reporter: 201, developer: 201, maintainer: 201, owner: 201, admin: 201 },
  };
  const cases = (["private", "public"] as const).flatMap((kind) => ACTORS.map((actor) => [kind, actor, creators[kind][actor]] as const));

  it.each(cases)("%s project, %s: %i", async (kind, actor, status) => {
    const project = kind === "private" ? priv : pub;
    const res = await api(actor).post(url(project), { name: `by-${actor}`, color: "#FF0000" });
    expect(res.status, res.text).toBe(status);
    if (status !== 201) expect(res.body).toEqual(BODIES[status]);
  });

  it("answers GitLab's ProjectLabel entity", async () => {
    const res = await api("owner").post(url(priv), { name: " Entity ", color: "#eee", description: "Shown <b>here</b>", priority: 3 });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(Number), name: "Entity", color: "#eee", description: "Shown <b>here</b>",
      description_html: expect.stringContaining("Shown &#60;b&#62;here&#60;/b&#62;"), text_color: "#333333", remove_on_close: false,
      subscribed: false, priority: 3, is_project_label: true,
    });
    expect(Object.keys(res.body)).toEqual(["id", "name", "color", "description", "description_html", "text_color", "remove_on_close", "subscribed", "priority", "is_project_label"]);
  });

  it("stores a CSS colour name as its hex value, and refuses other colours with GitLab's message", async () => {
    const named = await api("owner").post(url(priv), { name: "named", color: "Navy" });
    expect(named.status).toBe(201);
    expect(named.body).toMatchObject({ color: "#000080", text_color: "#FFFFFF" });
    for (const color of ["navyish", "#12345", "123456", ""]) {
      const bad = await api("owner").post(url(priv), { name: `bad-${color}`, color });
      expect(bad.status, color).toBe(400);
    }
    const bad = await api("owner").post(url(priv), { name: "bad", color: "#GGGGGG" });
    expect(bad.body).toEqual({ message: { color: ["must be a valid color code"] } });
  });

  it("refuses a missing name or colour, a comma in the name, and a taken name (409)", async () => {
    expect((await api("owner").post(url(priv), { color: "#000000" })).status).toBe(400);
    expect((await api("owner").post(url(priv), { name: "nocolor" })).status).toBe(400);
    expect((await api("owner").post(url(priv), { name: "a,b", color: "#000000" })).body).toEqual({ message: { title: ["is invalid"] } });
    expect((await api("owner").post(url(priv), { name: "taken", color: "#000000" })).status).toBe(201);
    const again = await api("developer").post(url(priv), { name: "taken", color: "#111111" });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ message: "Label already exists" });
  });
});

describe("GET /projects/:id/labels and /labels/:label_id", () => {
  let project: any;
  let group: any;
  let label: any;
  beforeAll(async () => {
    group = await createGroup(team.owner.api, { visibility: "private" });
    project = await createTeamProject(team, { namespace_id: group.id, visibility: "private" });
    label = (await api("owner").post(url(project), { name: "zeta", color: "#00ff00" })).body;
    expect((await api("owner").post(url(project), { name: "alpha", color: "#0000ff", description: "first letter" })).status).toBe(201);
    const now = new Date();
    await t.services.db.label.create({ data: { title: "group-wide", color: "#123456", groupId: group.id, createdAt: now, updatedAt: now } });
  });

  const readers: Record<Actor, number> = { anonymous: 404, nonMember: 404, guest: 200, reporter: 200, developer: 200, maintainer: 200, owner: 200, admin: 200 };
  it.each(ACTORS.map((actor) => [actor, readers[actor]] as const))("as %s: %i", async (actor, status) => {
    const res = await api(actor).get(url(project));
    expect(res.status).toBe(status);
    if (status === 200) expect(res.body.map((l: any) => l.name)).toEqual(["alpha", "group-wide", "zeta"]);
    else expect(res.body).toEqual(PROJECT_NOT_FOUND);
  });

  it("leaves the groups' labels out with include_ancestor_groups=false, and searches titles and descriptions", async () => {
    expect((await api("guest").get(`${url(project)}?include_ancestor_groups=false`)).body.map((l: any) => l.name)).toEqual(["alpha", "zeta"]);
    expect((await api("guest").get(`${url(project)}?search=LETTER`)).body.map((l: any) => l.name)).toEqual(["alpha"]);
    const groupLabel = (await api("guest").get(url(project))).body.find((l: any) => l.name === "group-wide");
    expect(groupLabel).toMatchObject({ is_project_label: false, priority: null });
  });

  it("pages with GitLab's headers", async () => {
    const res = await api("guest").get(`${url(project)}?per_page=2`);
    expect(res.body).toHaveLength(2);
    expect(res.headers.get("x-total")).toBe("3");
    expect(res.headers.get("x-next-page")).toBe("2");
  });

  it("finds one label by id or by title, 404 Label Not Found otherwise", async () => {
    expect((await api("guest").get(url(project, `/${label.id}`))).body).toMatchObject({ id: label.id, name: "zeta" });
    expect((await api("guest").get(url(project, "/group-wide"))).body).toMatchObject({ name: "group-wide", is_project_label: false });
    const missing = await api("guest").get(url(project, "/nothing"));
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ message: "404 Label Not Found" });
    expect((await api("guest").get(url(pub, `/${label.id}`))).status).toBe(404); // another project's label
  });
});

describe("labels as records on issues", () => {
  it("resolves issue labels to existing labels, shows renames and drops deleted labels", async () => {
    const project = await createTeamProject(team, { visibility: "public" });
    const bug = (await api("reporter").post(url(project), { name: "bug", color: "#d9534f" })).body;
    const issue = (await api("developer").post(`/projects/${project.id}/issues`, { title: "Labelled", labels: "bug,fresh" })).body;
    expect(issue.labels).toEqual(["bug", "fresh"]);
    const labels = (await api("guest").get(url(project))).body;
    expect(labels.map((l: any) => [l.name, l.color])).toEqual([["bug", "#d9534f"], ["fresh", "#6699cc"]]); // created on the fly

    const renamed = await api("reporter").put(url(project, `/${bug.id}`), { new_name: "defect" });
    expect(renamed.status).toBe(200);
    expect(renamed.body.name).toBe("defect");
    expect((await api("guest").get(`/projects/${project.id}/issues/${issue.iid}`)).body.labels).toEqual(["defect", "fresh"]);
    expect((await api("guest").get(`/projects/${project.id}/issues?labels=defect`)).body.map((i: any) => i.iid)).toEqual([issue.iid]);

    expect((await api("guest").delete(url(project, "/fresh"))).status).toBe(403);
    expect((await api("reporter").delete(url(project, "/fresh"))).status).toBe(204);
    expect((await api("guest").get(`/projects/${project.id}/issues/${issue.iid}`)).body.labels).toEqual(["defect"]);
    expect((await api("guest").get(`/projects/${project.id}/issues?labels=fresh`)).body).toEqual([]);
    expect((await api("reporter").get(url(project, "/fresh"))).status).toBe(404);
  });
});

describe("PUT /projects/:id/labels/:label_id", () => {
  it("changes name, colour, description and priority; 400 without a change, 409 on a taken name", async () => {
    const project = await createTeamProject(team);
    const label = (await api("owner").post(url(project), { name: "old", color: "#000000" })).body;
    expect((await api("owner").post(url(project), { name: "other", color: "#000000" })).status).toBe(201);
    expect((await api("developer").put(url(project, `/${label.id}`), {})).status).toBe(400);
    expect((await api("guest").put(url(project, `/${label.id}`), { color: "red" })).status).toBe(403);
    expect((await api("developer").put(url(project, "/old"), { new_name: "other" })).status).toBe(409);
    const res = await api("developer").put(url(project, "/old"), { new_name: "new", color: "red", description: "why", priority: 7 });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: label.id, name: "new", color: "#FF0000", description: "why", priority: 7 });
    expect((await api("developer").put(url(project, "/new"), { color: "nope" })).body).toEqual({ message: { color: ["must be a valid color code"] } });
  });
});

describe("PUT /projects/:id/labels/:label_id on the group's label (GitLab's update_label)", () => {
  // the team's members are the project's only: admin_label on the project, none on its group
  let group: any;
  let sub: any;
  let project: any;
  let groupLabel: any;
  let topLabel: any;
  const priorityOf = async (labelId: number) =>
    (await t.services.db.labelPriority.findFirst({ where: { projectId: project.id, labelId } }))?.priority ?? null;
  beforeAll(async () => {
    group = await createGroup(team.owner.api, { visibility: "private" });
    sub = await createGroup(team.owner.api, { visibility: "private", parent_id: group.id });
    project = await createTeamProject(team, { namespace_id: sub.id, visibility: "private" });
    groupLabel = (await api("owner").post(`/groups/${sub.id}/labels`, { name: "shared", color: "#123456" })).body;
    topLabel = (await api("owner").post(`/groups/${group.id}/labels`, { name: "top", color: "#654321" })).body;
  });

  // authorize! :update_label on the project, and no more when only the priority is given
  const prioritisers: Record<Actor, number> = { anonymous: 404, nonMember: 404, guest: 403, reporter: 200, developer: 200, maintainer: 200, owner: 200, admin: 200 };
  it.each(ACTORS.map((actor, i) => [actor, prioritisers[actor], i + 1] as const))("priority alone as %s: %i", async (actor, status, priority) => {
    const before = await priorityOf(groupLabel.id);
    const res = await api(actor).put(url(project, `/${groupLabel.id}`), { priority });
    expect(res.status, res.text).toBe(status);
    if (status === 200) {
      expect(res.body).toEqual({
        id: groupLabel.id, name: "shared", color: "#123456", description: null, description_html: "", text_color: "#FFFFFF",
        remove_on_close: false, subscribed: false, priority, is_project_label: false,
      });
      expect(await priorityOf(groupLabel.id)).toBe(priority);
    } else {
      expect(res.body).toEqual(BODIES[status]);
      expect(await priorityOf(groupLabel.id)).toBe(before);
    }
  });

  it("names the label by title; the priority is the project's alone", async () => {
    const res = await api("developer").put(url(project, "/shared"), { priority: 4 });
    expect([res.status, res.body.priority]).toEqual([200, 4]);
    expect(await priorityOf(groupLabel.id)).toBe(4);
    // the group's own route shows no priority, another project of the group none either
    expect((await api("owner").get(`/groups/${sub.id}/labels/shared`)).body).not.toHaveProperty("priority");
    const other = await createTeamProject(team, { namespace_id: sub.id, visibility: "private" });
    expect((await api("owner").get(url(other, "/shared"))).body.priority).toBeNull();
  });

  // a change of the label itself needs admin_label on the label: its group's
  const changers: Record<Actor, number> = { anonymous: 404, nonMember: 404, guest: 403, reporter: 403, developer: 403, maintainer: 403, owner: 200, admin: 200 };
  it.each(ACTORS.map((actor) => [actor, changers[actor]] as const))("a colour (with a priority) as %s: %i", async (actor, status) => {
    await t.services.db.label.update({ where: { id: groupLabel.id }, data: { color: "#123456" } });
    await t.services.db.labelPriority.deleteMany({ where: { labelId: groupLabel.id } });
    const res = await api(actor).put(url(project, `/${groupLabel.id}`), { color: "#00ff00", priority: 9 });
    expect(res.status, res.text).toBe(status);
    const stored = await t.services.db.label.findUniqueOrThrow({ where: { id: groupLabel.id } });
    if (status === 200) {
      expect(res.body).toMatchObject({ id: groupLabel.id, color: "#00ff00", priority: 9, is_project_label: false });
      expect([stored.color, stored.groupId, await priorityOf(groupLabel.id)]).toEqual(["#00ff00", sub.id, 9]);
    } else {
      expect(res.body).toEqual(BODIES[status]);
      expect([stored.color, await priorityOf(groupLabel.id)]).toEqual(["#123456", null]);
    }
  });

  it("renames the group's label through the project for a group Planner; a title the group holds is 400", async () => {
    await api("owner").post(`/groups/${sub.id}/labels`, { name: "taken", color: "#000000" });
    const taken = await api("owner").put(url(project, "/shared"), { new_name: "taken" });
    expect([taken.status, taken.body]).toEqual([400, { message: { title: ["has already been taken"] } }]);
    const res = await api("owner").put(url(project, "/shared"), { new_name: "shared-2" });
    expect([res.status, res.body.name]).toEqual([200, "shared-2"]);
    expect((await api("owner").get(`/groups/${sub.id}/labels/${groupLabel.id}`)).body.name).toBe("shared-2");
  });

  it("does not find an ancestor group's label (find_label without ancestor groups): 404 Label Not Found", async () => {
    for (const ref of [String(topLabel.id), "top"]) {
      const res = await api("owner").put(url(project, `/${ref}`), { priority: 1 });
      expect([res.status, res.body]).toEqual([404, { message: "404 Label Not Found" }]);
    }
    expect(await priorityOf(topLabel.id)).toBeNull();
    // it still shows in the project's list
    expect((await api("guest").get(url(project))).body.map((l: any) => l.name)).toContain("top");
  });
});

describe("PUT /projects/:id/labels and PUT /groups/:id/labels (GitLab's deprecated form, python-gitlab's save)", () => {
  it("finds the label by label_id or name, exactly one of them, with the same rules as the path form", async () => {
    const group = await createGroup(team.owner.api, { visibility: "private" });
    const project = await createTeamProject(team, { namespace_id: group.id, visibility: "private" });
    const own = (await api("owner").post(url(project), { name: "own", color: "#000000" })).body;
    const shared = (await api("owner").post(`/groups/${group.id}/labels`, { name: "shared", color: "#111111" })).body;
    const byName = await api("developer").put(url(project), { name: "own", new_name: "mine", priority: 3 });
    expect(byName.status, byName.text).toBe(200);
    expect(byName.body).toMatchObject({ id: own.id, name: "mine", priority: 3 });
    const byId = await api("developer").put(url(project), { label_id: shared.id, priority: 1 });
    expect([byId.status, byId.body.priority, byId.body.is_project_label]).toEqual([200, 1, false]);
    expect((await api("guest").put(url(project), { name: "mine", color: "red" })).body).toEqual(FORBIDDEN);
    const both = await api("developer").put(url(project), { label_id: own.id, name: "mine", color: "red" });
    expect([both.status, both.body]).toEqual([400, { error: "label_id, name are mutually exclusive" }]);
    const none = await api("developer").put(url(project), {});
    expect([none.status, none.body]).toEqual([400, {
      error: "new_name, color, description, priority are missing, at least one parameter must be provided, label_id, name are missing, exactly one parameter must be provided",
    }]);
    expect((await api("developer").put(url(project), { name: "nothing", color: "red" })).body).toEqual({ message: "404 Label Not Found" });
    expect((await api("owner").get(url(project, "/mine"))).body.color).toBe("#000000");

    const groupRes = await api("owner").put(`/groups/${group.id}/labels`, { name: "shared", new_name: "common", color: "#222222" });
    expect(groupRes.status, groupRes.text).toBe(200);
    expect(groupRes.body).toMatchObject({ id: shared.id, name: "common", color: "#222222" });
    expect((await api("developer").put(`/groups/${group.id}/labels`, { label_id: shared.id, color: "red" })).status).toBe(403);
    expect((await api("owner").put(`/groups/${group.id}/labels`, { color: "red" })).body).toEqual({ error: "label_id, name are missing, exactly one parameter must be provided" });
  });
});
