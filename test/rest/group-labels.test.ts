// Group labels through /api/v4 (GitLab's Group Labels API): signed-in callers who see the group
// read them, Planners and above (admin_label) write them; the GroupLabel entity, the scope params
// (include_ancestor_groups, include_descendant_groups, only_group_labels), search, with_counts
// counted for what the caller may read, and subscribing to group and project labels (304 when
// already in that state).
import { beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../helpers/app.js";
import { FORBIDDEN, UNAUTHORIZED } from "../helpers/errors.js";
import { addMember, createGroup, createProject, uniq } from "../helpers/factories.js";
import { ACCESS_LEVEL, ACTORS, clientOf, createTeam, type Actor, type Team } from "../helpers/team.js";

let t: TestApp;
let team: Team;
let priv: any;
let pub: any;

const GROUP_NOT_FOUND = { message: "404 Group Not Found" };
const LABEL_NOT_FOUND = { message: "404 Label Not Found" };
const ENTITY_KEYS = ["id", "name", "color", "description", "description_html", "text_color", "remove_on_close", "subscribed"];
const COUNT_KEYS = ["id", "name", "color", "description", "description_html", "text_color", "remove_on_close",
  "open_issues_count", "closed_issues_count", "open_merge_requests_count", "subscribed"];

const api = (actor: Actor) => clientOf(t, team, actor);
const url = (g: any, rest = "") => `/groups/${g.id}/labels${rest}`;
const names = (res: { body: any[] }) => res.body.map((l) => l.name);

/** A group of the team's owner with the other roles as members. */
async function teamGroup(overrides: Record<string, unknown> = {}) {
  const group = await createGroup(team.owner.api, overrides);
  for (const role of ["maintainer", "developer", "reporter", "guest"] as const) {
    await addMember(team.owner.api, "groups", group.id, team[role].id, ACCESS_LEVEL[role]);
  }
  return group;
}

beforeAll(async () => {
  t = await startTestApp();
  team = await createTeam(t);
  priv = await teamGroup({ visibility: "private" });
  pub = await teamGroup({ visibility: "public" });
});

describe("POST /groups/:id/labels", () => {
  const creators: Record<"private" | "public", Record<Actor, number>> = {
    private: { anonymous: 401, nonMember: 404, guest: 403, reporter: 201, developer: 201, maintainer: 201, owner: 201, admin: 201 },
    public: { anonymous: 401, nonMember: 403, guest: 403, reporter: 201, developer: 201, maintainer: 201, owner: 201, admin: 201 },
  };
  const BODIES: Record<number, unknown> = { 401: UNAUTHORIZED, 403: FORBIDDEN, 404: GROUP_NOT_FOUND };
  const cases = (["private", "public"] as const).flatMap((kind) => ACTORS.map((actor) => [kind, actor, creators[kind][actor]] as const));

  it.each(cases)("%s group, %s: %i", async (kind, actor, status) => {
    const res = await api(actor).post(url(kind === "private" ? priv : pub), { name: `by-${actor}`, color: "#FF0000" });
    expect(res.status, res.text).toBe(status);
    if (status !== 201) expect(res.body).toEqual(BODIES[status]);
  });

  it("answers GitLab's GroupLabel entity", async () => {
    const res = await api("owner").post(url(priv), { name: " Entity ", color: "#eee", description: "Shown <i>here</i>" });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(Number), name: "Entity", color: "#eee", description: "Shown <i>here</i>",
      description_html: expect.stringContaining("Shown &#60;i&#62;here&#60;/i&#62;"), text_color: "#333333", remove_on_close: false, subscribed: false,
    });
    expect(Object.keys(res.body)).toEqual(ENTITY_KEYS);
  });

  it("refuses bad input with GitLab's answers: missing params, bad colour, comma, a title the group or an ancestor has (409)", async () => {
    expect((await api("owner").post(url(priv), { color: "#000000" })).body).toEqual({ error: "name is missing" });
    expect((await api("owner").post(url(priv), { name: "nocolor" })).body).toEqual({ error: "color is missing" });
    expect((await api("owner").post(url(priv), { name: "c", color: "#GG0000" })).body).toEqual({ message: { color: ["must be a valid color code"] } });
    expect((await api("owner").post(url(priv), { name: "a,b", color: "#000000" })).body).toEqual({ message: { title: ["is invalid"] } });
    expect((await api("owner").post(url(priv), { name: "  ", color: "#000000" })).status).toBe(400);
    expect((await api("owner").post(url(priv), { name: "taken", color: "#000000" })).status).toBe(201);
    const again = await api("developer").post(url(priv), { name: "taken", color: "#111111" });
    expect([again.status, again.body]).toEqual([409, { message: "Label already exists" }]);
    const sub = await createGroup(team.owner.api, { parent_id: priv.id, path: uniq("sub") });
    expect((await api("owner").post(url(sub), { name: "taken", color: "#111111" })).status).toBe(409);
    // and a project below cannot take a title its group has
    const project = await createProject(team.owner.api, { namespace_id: priv.id });
    const inProject = await api("owner").post(`/projects/${project.id}/labels`, { name: "taken", color: "#111111" });
    expect([inProject.status, inProject.body]).toEqual([409, { message: "Label already exists" }]);
  });
});

describe("GET /groups/:id/labels and /labels/:name", () => {
  let top: any;
  let sub: any;
  let hidden: any;
  let project: any;
  let privateProject: any;
  beforeAll(async () => {
    top = await teamGroup({ visibility: "public" });
    sub = await createGroup(team.owner.api, { parent_id: top.id, path: uniq("sub"), visibility: "public" });
    hidden = await createGroup(team.owner.api, { parent_id: top.id, path: uniq("hid"), visibility: "private" });
    project = await createProject(team.owner.api, { namespace_id: top.id, visibility: "public" });
    privateProject = await createProject(team.owner.api, { namespace_id: top.id, visibility: "private" });
    const make = async (where: string, name: string, description?: string) =>
      expect((await team.owner.api.post(where, { name, color: "#00ff00", description })).status).toBe(201);
    await make(url(top), "top-b", "second letter");
    await make(url(top), "top-a");
    await make(url(sub), "sub-label");
    await make(url(hidden), "hidden-label");
    await make(`/projects/${project.id}/labels`, "project-label");
    await make(`/projects/${privateProject.id}/labels`, "private-project-label");
  });

  const readers: Record<Actor, number> = { anonymous: 401, nonMember: 200, guest: 200, reporter: 200, developer: 200, maintainer: 200, owner: 200, admin: 200 };
  it.each(ACTORS.map((actor) => [actor, readers[actor]] as const))("a public group's labels as %s: %i", async (actor, status) => {
    const res = await api(actor).get(url(top));
    expect(res.status).toBe(status);
    if (status === 200) {
      expect(names(res)).toEqual(["top-a", "top-b"]);
      expect(Object.keys(res.body[0])).toEqual(ENTITY_KEYS);
    } else expect(res.body).toEqual(UNAUTHORIZED);
  });

  it("a private group's labels: 404 Group Not Found to a non-member, 401 without a token", async () => {
    expect((await api("nonMember").get(url(priv))).body).toEqual(GROUP_NOT_FOUND);
    expect((await api("anonymous").get(url(priv))).status).toBe(401);
    expect((await api("guest").get(url(priv))).status).toBe(200);
  });

  it("shows the ancestors' labels unless include_ancestor_groups=false", async () => {
    expect(names(await api("guest").get(url(sub)))).toEqual(["sub-label", "top-a", "top-b"]);
    expect(names(await api("guest").get(`${url(sub)}?include_ancestor_groups=false`))).toEqual(["sub-label"]);
  });

  it("shows the descendant groups' labels the caller may see with include_descendant_groups=true", async () => {
    expect(names(await api("guest").get(`${url(top)}?include_descendant_groups=true`))).toEqual(["hidden-label", "sub-label", "top-a", "top-b"]);
    expect(names(await api("nonMember").get(`${url(top)}?include_descendant_groups=true`))).toEqual(["sub-label", "top-a", "top-b"]);
  });

  it("adds the labels of the projects the caller may see with only_group_labels=false", async () => {
    expect(names(await api("guest").get(`${url(top)}?only_group_labels=false`))).toEqual(["private-project-label", "project-label", "top-a", "top-b"]);
    expect(names(await api("nonMember").get(`${url(top)}?only_group_labels=false`))).toEqual(["project-label", "top-a", "top-b"]);
  });

  it("searches titles and descriptions, and pages with GitLab's headers", async () => {
    expect(names(await api("guest").get(`${url(top)}?search=LETTER`))).toEqual(["top-b"]);
    expect(names(await api("guest").get(`${url(top)}?search=top-a`))).toEqual(["top-a"]);
    const page = await api("guest").get(`${url(sub)}?per_page=2&page=2`);
    expect(names(page)).toEqual(["top-b"]);
    expect(page.headers.get("x-total")).toBe("3");
    expect(page.headers.get("x-page")).toBe("2");
  });

  it("finds one label by id or title, the ancestors' too; 404 Label Not Found otherwise", async () => {
    const all = (await api("guest").get(`${url(top)}?include_descendant_groups=true`)).body;
    const topA = all.find((l: any) => l.name === "top-a");
    expect((await api("guest").get(url(top, `/${topA.id}`))).body).toEqual(topA);
    expect((await api("guest").get(url(sub, "/top-a"))).body).toMatchObject({ id: topA.id });
    expect((await api("guest").get(url(sub, "/top-a?include_ancestor_groups=false"))).body).toEqual(LABEL_NOT_FOUND);
    expect((await api("guest").get(url(top, "/sub-label"))).status).toBe(404);
    expect((await api("guest").get(url(top, "/sub-label?include_descendant_groups=true"))).body).toMatchObject({ name: "sub-label" });
    expect((await api("guest").get(url(top, "/nothing"))).body).toEqual(LABEL_NOT_FOUND);
    expect((await api("guest").get(url(top, "/99999999999"))).body).toEqual(LABEL_NOT_FOUND);
    expect((await api("anonymous").get(url(top, "/top-a"))).status).toBe(401);
    expect((await api("nonMember").get(url(priv, "/taken"))).body).toEqual(GROUP_NOT_FOUND);
  });
});

describe("PUT and DELETE /groups/:id/labels/:name", () => {
  it("changes name, colour and description; 400 without a change or on a taken title; 403 below Planner; 404 for an ancestor's label", async () => {
    const group = await teamGroup();
    const sub = await createGroup(team.owner.api, { parent_id: group.id, path: uniq("sub") });
    const label = (await api("owner").post(url(group), { name: "old", color: "#000000" })).body;
    expect((await api("owner").post(url(group), { name: "other", color: "#000000" })).status).toBe(201);

    const none = await api("developer").put(url(group, `/${label.id}`), {});
    expect([none.status, none.body]).toEqual([400, { error: "new_name, color, description are missing, at least one parameter must be provided" }]);
    expect((await api("guest").put(url(group, `/${label.id}`), { color: "red" })).body).toEqual(FORBIDDEN);
    expect((await api("nonMember").put(url(group, `/${label.id}`), { color: "red" })).body).toEqual(GROUP_NOT_FOUND);
    expect((await api("anonymous").put(url(group, `/${label.id}`), { color: "red" })).body).toEqual(UNAUTHORIZED);
    expect((await api("owner").put(url(group, "/missing"), { color: "red" })).body).toEqual(LABEL_NOT_FOUND);
    expect((await api("owner").put(url(sub, "/old"), { color: "red" })).body).toEqual(LABEL_NOT_FOUND); // include_ancestor_groups: false
    const taken = await api("developer").put(url(group, "/old"), { new_name: "other" });
    expect([taken.status, taken.body]).toEqual([400, { message: { title: ["has already been taken"] } }]);
    expect((await api("developer").put(url(group, "/old"), { color: "nope" })).body).toEqual({ message: { color: ["must be a valid color code"] } });

    const res = await api("reporter").put(url(group, "/old"), { new_name: "new", color: "red", description: "why" });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: label.id, name: "new", color: "#FF0000", description: "why", subscribed: false });
    expect(Object.keys(res.body)).toEqual(ENTITY_KEYS);
  });

  it("deletes a label (Planner and above) and takes it off the issues of the group's projects", async () => {
    const group = await teamGroup({ visibility: "public" });
    const project = await createProject(team.owner.api, { namespace_id: group.id, visibility: "public" });
    const label = (await api("owner").post(url(group), { name: "gone", color: "#000000" })).body;
    const issue = (await team.owner.api.post(`/projects/${project.id}/issues`, { title: "x", labels: "gone,kept" })).body;
    expect(issue.labels).toEqual(["gone", "kept"]);
    expect((await team.owner.api.get(`/projects/${project.id}/labels/gone`)).body).toMatchObject({ id: label.id, is_project_label: false });

    const refusals: [Actor, number][] = [["anonymous", 401], ["nonMember", 403], ["guest", 403]];
    for (const [actor, status] of refusals) expect((await api(actor).delete(url(group, `/${label.id}`))).status, actor).toBe(status);
    expect((await api("reporter").delete(url(group, "/nothing"))).body).toEqual(LABEL_NOT_FOUND);
    expect((await api("reporter").delete(url(group, `/${label.id}`))).status).toBe(204);
    expect((await api("reporter").delete(url(group, `/${label.id}`))).status).toBe(404);
    expect((await team.owner.api.get(`/projects/${project.id}/issues/${issue.iid}`)).body.labels).toEqual(["kept"]);
  });
});

describe("with_counts=true", () => {
  it("counts the open and closed issues and open merge requests carrying each label that the caller may read", async () => {
    const group = await teamGroup({ visibility: "public" });
    const project = await createProject(team.owner.api, { namespace_id: group.id, visibility: "public" });
    const hiddenProject = await createProject(team.owner.api, { namespace_id: group.id, visibility: "private" });
    const sub = await createGroup(team.owner.api, { parent_id: group.id, path: uniq("sub"), visibility: "public" });
    const subProject = await createProject(team.owner.api, { namespace_id: sub.id, visibility: "public" });
    await api("owner").post(url(group), { name: "counted", color: "#000000" });
    await api("owner").post(url(group), { name: "unused", color: "#000000" });
    const issue = (title: string, p: any, extra: Record<string, unknown> = {}) =>
      team.owner.api.post(`/projects/${p.id}/issues`, { title, labels: "counted", ...extra }).then((r) => r.body);
    await issue("open", project);
    await issue("secret", project, { confidential: true });
    const closed = await issue("closed", project);
    await team.owner.api.put(`/projects/${project.id}/issues/${closed.iid}`, { state_event: "close" });
    await issue("in a private project", hiddenProject);
    await issue("in a subgroup's project", subProject); // GitLab counts the group's own projects only
    await team.owner.api.post(`/projects/${project.id}/repository/branches`, { branch: "feature", ref: "main" });
    expect((await team.owner.api.post(`/projects/${project.id}/merge_requests`, { source_branch: "feature", target_branch: "main", title: "mr", labels: "counted" })).status).toBe(201);

    const countsAs = async (actor: Actor) => {
      const res = await api(actor).get(`${url(group)}?with_counts=true`);
      expect(res.status).toBe(200);
      expect(Object.keys(res.body[0])).toEqual(COUNT_KEYS);
      const pick = ({ name, open_issues_count, closed_issues_count, open_merge_requests_count }: any) =>
        [name, open_issues_count, closed_issues_count, open_merge_requests_count];
      return res.body.map(pick);
    };
    // the owner reads everything: 2 open (one confidential) + the private project's 1, 1 closed, 1 merge request
    expect(await countsAs("owner")).toEqual([["counted", 3, 1, 1], ["unused", 0, 0, 0]]);
    expect(await countsAs("admin")).toEqual([["counted", 3, 1, 1], ["unused", 0, 0, 0]]);
    // a group guest reads the private project's issues but no confidential one
    expect(await countsAs("guest")).toEqual([["counted", 2, 1, 1], ["unused", 0, 0, 0]]);
    // a non-member reads the public project's public issues only
    expect(await countsAs("nonMember")).toEqual([["counted", 1, 1, 1], ["unused", 0, 0, 0]]);
    // without with_counts the fields are left out
    expect(Object.keys((await api("guest").get(url(group))).body[0])).toEqual(ENTITY_KEYS);
    // a project's list counts its own issues
    const projectList = await api("nonMember").get(`/projects/${project.id}/labels?with_counts=true`);
    expect(projectList.body.map((l: any) => [l.name, l.open_issues_count, l.closed_issues_count, l.open_merge_requests_count, l.priority]))
      .toEqual([["counted", 1, 1, 1, null], ["unused", 0, 0, 0, null]]);
    expect(Object.keys(projectList.body[0])).toEqual([...COUNT_KEYS, "priority", "is_project_label"]);
  });
});

describe("POST .../labels/:label_id/subscribe and /unsubscribe", () => {
  it("subscribes to a group label once (304 the second time), shows it as subscribed, and unsubscribes once", async () => {
    const label = (await api("owner").post(url(pub), { name: uniq("sub"), color: "#000000" })).body;
    const path = (verb: string) => url(pub, `/${label.id}/${verb}`);
    expect((await api("anonymous").post(path("subscribe"))).body).toEqual(UNAUTHORIZED);
    const first = await api("nonMember").post(path("subscribe"));
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ id: label.id, subscribed: true });
    expect(Object.keys(first.body)).toEqual(ENTITY_KEYS);
    const again = await api("nonMember").post(path("subscribe"));
    expect([again.status, again.text]).toEqual([304, ""]);
    expect((await api("nonMember").get(url(pub, `/${label.id}`))).body.subscribed).toBe(true);
    expect((await api("guest").get(url(pub, `/${label.id}`))).body.subscribed).toBe(false);
    const off = await api("nonMember").post(path("unsubscribe"));
    expect([off.status, off.body.subscribed]).toEqual([201, false]);
    expect((await api("nonMember").post(path("unsubscribe"))).status).toBe(304);
    expect((await api("nonMember").post(url(pub, "/missing/subscribe"))).body).toEqual(LABEL_NOT_FOUND);
    expect((await api("nonMember").post(url(priv, "/taken/subscribe"))).body).toEqual(GROUP_NOT_FOUND);
    // by title too
    expect((await api("guest").post(url(pub, `/${encodeURIComponent(label.name)}/subscribe`))).status).toBe(201);
  });

  it("subscribes to a project's label, its own or its group's, for whoever may read the project", async () => {
    const project = await createProject(team.owner.api, { namespace_id: pub.id, visibility: "private" });
    await addMember(team.owner.api, "projects", project.id, team.guest.id, ACCESS_LEVEL.guest);
    const own = (await api("owner").post(`/projects/${project.id}/labels`, { name: uniq("own"), color: "#000000" })).body;
    const path = (ref: string | number, verb: string) => `/projects/${project.id}/labels/${ref}/${verb}`;
    expect((await api("anonymous").post(path(own.id, "subscribe"))).status).toBe(401);
    expect((await api("nonMember").post(path(own.id, "subscribe"))).body).toEqual({ message: "404 Project Not Found" });
    const res = await api("guest").post(path(own.id, "subscribe"));
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ id: own.id, subscribed: true, priority: null, is_project_label: true });
    expect((await api("guest").post(path(own.id, "subscribe"))).status).toBe(304);
    expect((await api("guest").get(`/projects/${project.id}/labels/${own.id}`)).body.subscribed).toBe(true);
    expect((await api("guest").post(path(own.id, "unsubscribe"))).status).toBe(201);
    expect((await api("guest").post(path(own.id, "unsubscribe"))).status).toBe(304);
    expect((await api("guest").post(path("taken-nowhere", "subscribe"))).body).toEqual(LABEL_NOT_FOUND);
    const groupLabel = (await api("owner").post(url(pub), { name: uniq("grp"), color: "#000000" })).body;
    const viaProject = await api("guest").post(path(groupLabel.id, "subscribe"));
    expect([viaProject.status, viaProject.body.is_project_label, viaProject.body.subscribed]).toEqual([201, false, true]);
  });
});
