// Search through @gitbeaker/rest against the real server process: Search.all at the instance, a
// group and a project, per scope, for an outsider, a Developer of a private project and the
// administrator (each finds what they may read: a confidential issue only for the administrator,
// the private project's issue only for its member), and the errors gitbeaker raises.
import { Gitlab } from "@gitbeaker/rest";
import { beforeAll, describe, expect, it } from "vitest";
import { failure } from "./helpers/gitbeaker.js";
import { createSearchFixtures, type SearchFixtures } from "./helpers/search-fixtures.js";
import { useServer } from "./helpers/suite.js";

const suite = useServer();
const gitlab = (token: string) => new Gitlab({ host: suite.server.url, token });
let f: SearchFixtures;

beforeAll(async () => {
  f = await createSearchFixtures(suite.server);
}, 120_000);

const titles = (rows: { title?: string; name?: string }[]) => rows.map((row) => row.title ?? row.name).sort();

describe("gitbeaker Search.all", () => {
  it("issues across the instance: each caller finds what they may read", async () => {
    const asOutsider = await gitlab(f.outsider.token).Search.all("issues", f.term);
    expect(titles(asOutsider)).toEqual([`The ${f.term} crash`]);
    const asMember = await gitlab(f.member.token).Search.all("issues", f.term);
    expect(titles(asMember)).toEqual([`Private ${f.term} work`, `The ${f.term} crash`]);
    const asAdmin = await gitlab(suite.server.rootToken!).Search.all("issues", f.term);
    expect(titles(asAdmin)).toEqual([`A ${f.term} leak`, `Private ${f.term} work`, `The ${f.term} crash`]);
  });

  it("a group's projects, issues, merge requests and milestones", async () => {
    const api = gitlab(f.outsider.token);
    expect((await api.Search.all("projects", f.term, { groupId: f.groupId })).map((p) => p.id)).toEqual([f.publicProjectId]);
    expect(titles(await api.Search.all("issues", f.term, { groupId: f.groupId }))).toEqual([`The ${f.term} crash`]);
    expect(titles(await api.Search.all("merge_requests", f.term, { groupId: f.groupId }))).toEqual([`Parse ${f.term} input`]);
    expect(titles(await api.Search.all("milestones", f.term, { groupId: f.groupId }))).toEqual([`${f.term} release`]);
  });

  it("a project's notes, commits and blobs", async () => {
    const api = gitlab(f.outsider.token);
    const notes = await api.Search.all("notes", f.term, { projectId: f.publicProjectId });
    expect(notes.map((note) => note.body)).toEqual([`Reproduced the ${f.term} crash`]);
    const commits = await api.Search.all("commits", f.term, { projectId: f.publicProjectId });
    expect(commits.map((commit) => commit.title)).toEqual([`Handle ${f.term} input`]);
    const blobs = await api.Search.all("blobs", f.term, { projectId: f.publicProjectId });
    // the README names the project, whose name carries the word
    expect(blobs.map((blob) => [blob.path, blob.ref, blob.project_id]).sort()).toEqual([
      ["README.md", "main", f.publicProjectId], ["docs/notes.md", "main", f.publicProjectId],
    ]);
    expect(blobs.find((blob) => blob.path === "docs/notes.md")!.data).toContain(`The ${f.term} parser.`);
  });

  it("users by name, and the private project hidden from an outsider", async () => {
    const users = await gitlab(f.outsider.token).Search.all("users", f.member.username);
    expect(users.map((user) => user.id)).toEqual([f.member.id]);
    expect(await failure(gitlab(f.outsider.token).Search.all("issues", f.term, { projectId: f.privateProjectId }))).toMatchObject({
      status: 404, message: "404 Project Not Found",
    });
    expect(titles(await gitlab(f.member.token).Search.all("issues", f.term, { projectId: f.privateProjectId }))).toEqual([`Private ${f.term} work`]);
  });

  it("a scope the level does not have is refused as GitLab refuses it", async () => {
    expect(await failure(gitlab(f.outsider.token).Search.all("blobs", f.term))).toMatchObject({
      status: 400, message: "scope does not have a valid value",
    });
  });
});
