// GitLab's Search API over /api/v4 (lib/api/search.rb): GET /search, /groups/:id/search and
// /projects/:id/search, each scope of each level, who finds what (private, internal and public
// projects, confidential issues, internal notes), the params Grape refuses, short and abusive
// terms, pagination headers, and the repository's commits and blobs.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../helpers/app.js";
import { TEST_ENCRYPTION_KEY } from "../helpers/test-database.js";
import { PROJECT_NOT_FOUND, UNAUTHORIZED } from "../helpers/errors.js";
import { addMember, createGroup, createProject, uniq } from "../helpers/factories.js";
import { createIssue } from "../helpers/issues.js";
import { createMergeRequest, writeFile } from "../helpers/merge-requests.js";
import { ACTORS, clientOf, createTeamProject, createTeamWithProjects, type Actor, type TeamWithProjects } from "../helpers/team.js";

let t: TestApp;
let team: TeamWithProjects;
let internalProject: any;
const WORD = "zebracorn";
const found: Record<string, any> = {};

beforeAll(async () => {
  t = await startTestApp();
  team = await createTeamWithProjects(t);
  internalProject = await createTeamProject(team, { visibility: "internal" });
  const owner = team.owner.api;
  found.publicIssue = await createIssue(owner, team.publicProject.id, { title: `A ${WORD} in the public project` });
  found.publicConfidential = await createIssue(owner, team.publicProject.id, { title: `Secret ${WORD}`, confidential: true });
  found.privateIssue = await createIssue(owner, team.privateProject.id, { title: "Private one", description: `mentions ${WORD.toUpperCase()} loudly` });
  found.internalIssue = await createIssue(owner, internalProject.id, { title: `Internal ${WORD}` });
  found.closedIssue = await createIssue(owner, team.publicProject.id, { title: `Closed ${WORD}` });
  expect((await owner.put(`/projects/${team.publicProject.id}/issues/${found.closedIssue.iid}`, { state_event: "close" })).status).toBe(200);
  found.other = await createIssue(owner, team.publicProject.id, { title: "Nothing to see" });
  found.short = await createIssue(owner, team.publicProject.id, { title: "Zq" });
});

const search = (actor: Actor, path: string) => clientOf(t, team, actor).get(path);
const ids = (body: any[]) => body.map((row) => row.id).sort((a, b) => a - b);

describe("bad input", () => {
  it("refuses a missing or unknown scope, a scope the level lacks, and a missing search, with Grape's texts", async () => {
    const api = team.developer.api;
    const cases: [string, string][] = [
      ["/search", "search is missing, scope is missing, scope does not have a valid value"],
      [`/search?search=${WORD}`, "scope is missing, scope does not have a valid value"],
      [`/search?search=${WORD}&scope=bogus`, "scope does not have a valid value"],
      [`/search?search=${WORD}&scope=notes`, "scope does not have a valid value"],
      [`/search?search=${WORD}&scope=commits`, "scope does not have a valid value"],
      [`/groups/${encodeURIComponent(team.owner.username)}/search?search=${WORD}&scope=snippet_titles`, "scope does not have a valid value"],
      [`/projects/${team.publicProject.id}/search?search=${WORD}&scope=projects`, "scope does not have a valid value"],
      [`/projects/${team.publicProject.id}/search?search=${WORD}&scope=snippet_titles`, "scope does not have a valid value"],
      ["/search?scope=issues", "search is missing"],
      [`/projects/${team.publicProject.id}/search?scope=blobs`, "search is missing"],
      [`/search?scope=issues&search=${WORD}&state=weird`, "state does not have a valid value"],
      [`/search?scope=issues&search=${WORD}&confidential=maybe`, "confidential is invalid"],
    ];
    for (const [path, error] of cases) {
      const res = await api.get(path);
      expect([path, res.status, res.body]).toEqual([path, 400, { error }]);
    }
  });

  it("needs a token (401), and answers 404 for a project or group the caller cannot see", async () => {
    expect([(await t.anon.get(`/search?scope=issues&search=${WORD}`)).status, (await t.anon.get(`/search?scope=issues&search=${WORD}`)).body]).toEqual([401, UNAUTHORIZED]);
    expect((await t.anon.get(`/projects/${team.publicProject.id}/search?scope=issues&search=${WORD}`)).status).toBe(401);
    const hidden = await team.nonMember.api.get(`/projects/${team.privateProject.id}/search?scope=issues&search=${WORD}`);
    expect([hidden.status, hidden.body]).toEqual([404, PROJECT_NOT_FOUND]);
    const missing = await team.nonMember.api.get(`/projects/999999/search?scope=issues&search=${WORD}`);
    expect([missing.status, missing.body]).toEqual([404, PROJECT_NOT_FOUND]);
    const group = await createGroup(team.owner.api);
    const hiddenGroup = await team.nonMember.api.get(`/groups/${group.id}/search?scope=projects&search=${WORD}`);
    expect([hiddenGroup.status, hiddenGroup.body]).toEqual([404, { message: "404 Group Not Found" }]);
  });
});

describe("GET /search?scope=issues", () => {
  const SEES: Record<Exclude<Actor, "anonymous">, string[]> = {
    nonMember: ["publicIssue", "internalIssue", "closedIssue"],
    guest: ["publicIssue", "privateIssue", "internalIssue", "closedIssue"],
    reporter: ["publicIssue", "publicConfidential", "privateIssue", "internalIssue", "closedIssue"],
    developer: ["publicIssue", "publicConfidential", "privateIssue", "internalIssue", "closedIssue"],
    maintainer: ["publicIssue", "publicConfidential", "privateIssue", "internalIssue", "closedIssue"],
    owner: ["publicIssue", "publicConfidential", "privateIssue", "internalIssue", "closedIssue"],
    admin: ["publicIssue", "publicConfidential", "privateIssue", "internalIssue", "closedIssue"],
  };
  it.each(Object.entries(SEES))("%s finds the issues they may read, in any case, in titles and descriptions", async (actor, names) => {
    const res = await search(actor as Actor, `/search?scope=issues&search=${WORD.slice(2, 8).toUpperCase()}`);
    expect(res.status).toBe(200);
    expect(ids(res.body)).toEqual(ids(names.map((name) => found[name])));
    expect(res.headers.get("x-total")).toBe(String(names.length));
  });

  it("answers the Issue entity, newest first, filtered by state and confidential, sorted asc on request", async () => {
    const res = await t.root.get(`/search?scope=issues&search=${WORD}&state=opened`);
    expect(res.body.map((i: any) => i.id)).toEqual([found.internalIssue, found.privateIssue, found.publicConfidential, found.publicIssue].map((i) => i.id));
    expect(res.body[0]).toMatchObject({ iid: found.internalIssue.iid, project_id: internalProject.id, title: found.internalIssue.title, state: "opened" });
    expect(Object.keys(res.body[0])).toEqual(Object.keys(found.internalIssue));
    const closed = await t.root.get(`/search?scope=issues&search=${WORD}&state=closed`);
    expect(ids(closed.body)).toEqual([found.closedIssue.id]);
    const confidential = await t.root.get(`/search?scope=issues&search=${WORD}&confidential=true`);
    expect(ids(confidential.body)).toEqual([found.publicConfidential.id]);
    const asc = await t.root.get(`/search?scope=issues&search=${WORD}&sort=asc&order_by=created_at`);
    expect(asc.body[0].id).toBe(found.publicIssue.id);
  });

  it("pages with GitLab's headers", async () => {
    const res = await t.root.get(`/search?scope=issues&search=${WORD}&per_page=2&page=2`);
    expect(res.body).toHaveLength(2);
    expect(res.headers.get("x-total")).toBe("5");
    expect(res.headers.get("x-total-pages")).toBe("3");
    expect(res.headers.get("x-page")).toBe("2");
    expect(res.headers.get("x-next-page")).toBe("3");
  });

  it("matches a term under 3 characters only as a whole title, and ignores a 1-character or stop-word search", async () => {
    expect(ids((await t.root.get("/search?scope=issues&search=zQ")).body)).toEqual([found.short.id]);
    expect(ids((await t.root.get("/search?scope=issues&search=on")).body)).toEqual([]);
    const one = await t.root.get("/search?scope=issues&search=z");
    expect([one.status, one.body]).toEqual([200, []]);
    expect((await t.root.get("/search?scope=issues&search=the")).body).toEqual([]);
  });

  it("takes the term literally (quotes, % and _) and follows edits and deletions", async () => {
    const odd = await createIssue(team.owner.api, team.publicProject.id, { title: `Odd "quoted" 100%_done` });
    expect(ids((await t.root.get(`/search?scope=issues&search=${encodeURIComponent('"quoted"')}`)).body)).toEqual([odd.id]);
    expect(ids((await t.root.get(`/search?scope=issues&search=${encodeURIComponent("0%_d")}`)).body)).toEqual([odd.id]);
    expect(ids((await t.root.get(`/search?scope=issues&search=${encodeURIComponent("0%%d")}`)).body)).toEqual([]);
    await team.owner.api.put(`/projects/${team.publicProject.id}/issues/${odd.iid}`, { title: "Renamed", description: "now about walruses" });
    expect(ids((await t.root.get("/search?scope=issues&search=quoted")).body)).toEqual([]);
    expect(ids((await t.root.get("/search?scope=issues&search=WALRUS")).body)).toEqual([odd.id]);
    expect((await t.root.delete(`/projects/${team.publicProject.id}/issues/${odd.iid}`)).status).toBe(204);
    expect(ids((await t.root.get("/search?scope=issues&search=walrus")).body)).toEqual([]);
  });
});

describe("GET /projects/:id/search", () => {
  it.each(ACTORS.filter((a) => a !== "anonymous"))("issues of the private project as %s", async (actor) => {
    const res = await search(actor, `/projects/${team.privateProject.id}/search?scope=issues&search=${WORD}`);
    if (actor === "nonMember") return expect(res.status).toBe(404);
    expect([res.status, ids(res.body)]).toEqual([200, [found.privateIssue.id]]);
  });

  it("confidential issues only for Planners and above in the project", async () => {
    const path = `/projects/${team.publicProject.id}/search?scope=issues&search=secret`;
    expect((await search("guest", path)).body).toEqual([]);
    expect((await search("nonMember", path)).body).toEqual([]);
    expect(ids((await search("reporter", path)).body)).toEqual([found.publicConfidential.id]);
  });

  it("merge requests, milestones and notes the caller may read", async () => {
    const owner = team.owner.api;
    const mr = await createMergeRequest(owner, team.privateProject.id, { title: `Fix the ${WORD}` });
    const milestone = (await owner.post(`/projects/${team.privateProject.id}/milestones`, { title: `${WORD} 1.0` })).body;
    const note = (await owner.post(`/projects/${team.privateProject.id}/issues/${found.privateIssue.iid}/notes`, { body: `a note on ${WORD}` })).body;
    const internal = (await owner.post(`/projects/${team.privateProject.id}/issues/${found.privateIssue.iid}/notes`, { body: `internal ${WORD}`, internal: true })).body;
    const base = `/projects/${team.privateProject.id}/search?search=${WORD}`;
    const mrs = await search("reporter", `${base}&scope=merge_requests`);
    expect([mrs.status, ids(mrs.body)]).toEqual([200, [mr.id]]);
    expect(mrs.body[0]).toMatchObject({ iid: mr.iid, title: mr.title, project_id: team.privateProject.id });
    expect((await search("guest", `${base}&scope=merge_requests`)).body).toEqual([]);
    expect(ids((await search("developer", `${base}&scope=merge_requests&state=merged`)).body)).toEqual([]);
    expect(ids((await search("developer", `${base}&scope=merge_requests&state=opened`)).body)).toEqual([mr.id]);
    const milestones = await search("guest", `${base}&scope=milestones`);
    expect([ids(milestones.body), milestones.body[0]?.title]).toEqual([[milestone.id], milestone.title]);
    const guestNotes = await search("guest", `${base}&scope=notes`);
    expect(ids(guestNotes.body)).toEqual([note.id]);
    expect(guestNotes.body[0]).toMatchObject({ body: note.body, noteable_type: "Issue", noteable_iid: found.privateIssue.iid });
    expect(ids((await search("reporter", `${base}&scope=notes`)).body)).toEqual(ids([note, internal]));
    expect((await search("reporter", `${base}&scope=wiki_blobs`)).body).toEqual([]);
    const users = await search("guest", `/projects/${team.privateProject.id}/search?scope=users&search=${encodeURIComponent(team.reporter.username)}`);
    expect(users.body.map((u: any) => u.username)).toEqual([team.reporter.username]);
    expect(Object.keys(users.body[0])).toEqual(["id", "username", "public_email", "name", "state", "locked", "avatar_url", "web_url"].filter((k) => k in users.body[0]));
  });

  it("commits and blobs from the repository, at the default branch or a ref", async () => {
    const owner = team.owner.api;
    const project = await createProject(owner, { visibility: "public" });
    await writeFile(owner, project.id, "main", "src/app.ts", `line one\nline two\nconst ${WORD} = 1;\nline four\nline five\nline six\n`);
    await writeFile(owner, project.id, "topic", `docs/${WORD}-guide.md`, "nothing here\n", "main");
    const base = `/projects/${project.id}/search?search=${WORD.toUpperCase()}`;
    const blobs = await team.nonMember.api.get(`${base}&scope=blobs`);
    expect(blobs.status).toBe(200);
    expect(blobs.body).toEqual([{
      basename: "src/app", data: `line one\nline two\nconst ${WORD} = 1;\nline four\nline five\n`, path: "src/app.ts", filename: "src/app.ts",
      id: null, ref: "main", startline: 1, project_id: project.id,
    }]);
    const onTopic = await team.nonMember.api.get(`${base}&scope=blobs&ref=topic`);
    expect(onTopic.body.map((b: any) => [b.path, b.ref])).toEqual([["src/app.ts", "topic"], [`docs/${WORD}-guide.md`, "topic"]]);
    const commits = await team.nonMember.api.get(`/projects/${project.id}/search?search=APP.TS&scope=commits`);
    expect(commits.body.map((c: any) => c.title)).toEqual(["Write src/app.ts"]);
    expect(commits.body[0]).toMatchObject({ project_id: project.id, message: "Write src/app.ts" });
    expect(commits.headers.get("x-total")).toBe("1");
    expect((await team.nonMember.api.get(`${base}&scope=commits&ref=nope`)).body).toEqual([]);
    const hiddenRepo = await createTeamProject(team, { visibility: "private" });
    await writeFile(team.owner.api, hiddenRepo.id, "main", "x.txt", `${WORD}\n`);
    expect((await search("guest", `/projects/${hiddenRepo.id}/search?search=${WORD}&scope=blobs`)).body).toEqual([]);
    expect((await search("reporter", `/projects/${hiddenRepo.id}/search?search=${WORD}&scope=blobs`)).body).toHaveLength(1);
  });
});

describe("GET /search and /groups/:id/search, other scopes", () => {
  it("projects, milestones, users and snippet titles", async () => {
    const owner = team.owner.api;
    const hidden = await createProject(owner, { name: `Hidden ${WORD}`, visibility: "private" });
    const shown = await createProject(owner, { name: `Shown ${WORD}`, visibility: "public" });
    const projects = await team.nonMember.api.get(`/search?scope=projects&search=${WORD}`);
    expect(ids(projects.body)).toEqual([shown.id]);
    expect(ids((await team.owner.api.get(`/search?scope=projects&search=${WORD}`)).body)).toEqual(ids([hidden, shown]));
    const milestone = (await owner.post(`/projects/${shown.id}/milestones`, { title: `M ${WORD}` })).body;
    const hiddenMilestone = (await owner.post(`/projects/${hidden.id}/milestones`, { title: `H ${WORD}` })).body;
    expect(ids((await team.nonMember.api.get(`/search?scope=milestones&search=${WORD}`)).body)).toEqual([milestone.id]);
    expect(ids((await team.owner.api.get(`/search?scope=milestones&search=${WORD}`)).body)).toEqual(expect.arrayContaining([milestone.id, hiddenMilestone.id]));
    const users = await team.nonMember.api.get(`/search?scope=users&search=${encodeURIComponent(team.guest.username)}`);
    expect(users.body.map((u: any) => u.id)).toEqual([team.guest.id]);
    const snippet = (await owner.post("/snippets", { title: `Snip ${WORD}`, visibility: "private", files: [{ file_path: "a.txt", content: "x" }] })).body;
    const open = (await owner.post("/snippets", { title: `Open ${WORD}`, visibility: "public", files: [{ file_path: "a.txt", content: "x" }] })).body;
    expect(ids((await team.nonMember.api.get(`/search?scope=snippet_titles&search=${WORD}`)).body)).toEqual([open.id]);
    expect(ids((await owner.get(`/search?scope=snippet_titles&search=${WORD}`)).body)).toEqual(ids([snippet, open]));
  });

  it("a group's search covers its subgroups' projects, as each caller may read them", async () => {
    const owner = team.owner.api;
    const group = await createGroup(owner, { visibility: "public" });
    const sub = await createGroup(owner, { visibility: "public", parent_id: group.id, path: uniq("sub") });
    const inSub = await createProject(owner, { namespace_id: sub.id, visibility: "public", name: `Deep ${WORD}` });
    const privateIn = await createProject(owner, { namespace_id: group.id, visibility: "private", name: `Closed ${WORD}` });
    const outside = await createIssue(owner, team.publicProject.id, { title: `Outside ${WORD} group` });
    const deep = await createIssue(owner, inSub.id, { title: `Deep ${WORD} issue` });
    const closedIssue = await createIssue(owner, privateIn.id, { title: `Closed ${WORD} issue` });
    await addMember(owner, "groups", group.id, team.developer.id, 30);
    const base = `/groups/${group.id}/search?search=${WORD}`;
    expect(ids((await team.nonMember.api.get(`${base}&scope=issues`)).body)).toEqual([deep.id]);
    expect(ids((await team.developer.api.get(`${base}&scope=issues`)).body)).toEqual(ids([deep, closedIssue]));
    expect(ids((await team.nonMember.api.get(`${base}&scope=projects`)).body)).toEqual([inSub.id]);
    expect(ids((await team.developer.api.get(`${base}&scope=projects`)).body)).toEqual(ids([inSub, privateIn]));
    const users = await team.nonMember.api.get(`/groups/${group.id}/search?scope=users&search=${encodeURIComponent(team.developer.username)}`);
    expect(users.body.map((u: any) => u.id)).toEqual([team.developer.id]);
    expect(ids((await t.root.get(`${base}&scope=issues`)).body)).not.toContain(outside.id);
  });
});

describe("a term that matches more issues than the index's list of ids holds", () => {
  it("answers the page and the count (a thousand matches were a 500 on SQLite: too many bound values)", async () => {
    const project = await createProject(team.owner.api, { visibility: "public" });
    const seeded = await promisify(execFile)(process.execPath, ["--import", "tsx", "scripts/seed-issues.ts", String(project.id), "1200"], {
      env: { ...process.env, NODE_OPTIONS: "", DATA_DIR: t.dataDir, DATABASE_URL: t.services.config.databaseUrl, WEBHOOK_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY },
    });
    expect(seeded.stdout).toContain("Inserted 1200 issues");
    for (const path of [`/projects/${project.id}/search?scope=issues&search=Seeded+issue`, "/search?scope=issues&search=Seeded+issue&per_page=5"]) {
      const answer = await team.nonMember.api.get(path);
      expect(answer.status, path).toBe(200);
      expect(answer.headers.get("x-total"), path).toBe("1200");
    }
    const page = await team.nonMember.api.get(`/projects/${project.id}/search?scope=issues&search=Seeded+issue&per_page=3&page=2`);
    expect(page.body.map((issue: { iid: number }) => issue.iid)).toEqual([1197, 1196, 1195]);
    const one = await team.nonMember.api.get(`/projects/${project.id}/search?scope=issues&search=Seeded+issue+1117`);
    expect(one.body.map((issue: { iid: number }) => issue.iid)).toEqual([1117]);
  });
});
