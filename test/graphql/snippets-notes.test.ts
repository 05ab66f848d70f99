// Project snippets and notes over /graphql: the root fields run the same domain functions as REST
// (same entity, same rules, GitLab's errors in extensions), for snippets and for the notes of
// issues, merge requests and snippets.
import { beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../helpers/app.js";
import { gitlabError } from "../helpers/errors.js";
import type { TestUser } from "../helpers/factories.js";
import { createIssue } from "../helpers/issues.js";
import { createMergeRequest } from "../helpers/merge-requests.js";
import { createNote, createSnippet } from "../helpers/snippets-notes.js";
import { createTeam, createTeamProject } from "../helpers/team.js";

let t: TestApp;
let owner: TestUser;
let guest: TestUser;
let reporter: TestUser;
let project: any;

const SNIPPET_FIELDS = "id title description visibility author { id username } project_id web_url raw_url file_name files { path raw_url } imported imported_from";
const NOTE_FIELDS = "id type body author { id username } system noteable_id noteable_type noteable_iid project_id confidential internal resolvable commands_changes";

const CREATE_SNIPPET = `mutation($id: ID!, $title: String, $visibility: String, $files: [SnippetFileInput!], $content: String, $file_name: String) {
  createProjectSnippet(id: $id, title: $title, visibility: $visibility, files: $files, content: $content, file_name: $file_name) { ${SNIPPET_FIELDS} }
}`;
const UPDATE_SNIPPET = `mutation($id: ID!, $snippet_id: Int!, $title: String, $files: [SnippetFileActionInput!]) {
  updateProjectSnippet(id: $id, snippet_id: $snippet_id, title: $title, files: $files) { ${SNIPPET_FIELDS} }
}`;
const DELETE_SNIPPET = `mutation($id: ID!, $snippet_id: Int!) { deleteProjectSnippet(id: $id, snippet_id: $snippet_id) }`;
const SNIPPET = `query($id: ID!, $snippet_id: Int!) { projectSnippet(id: $id, snippet_id: $snippet_id) { ${SNIPPET_FIELDS} } }`;
const SNIPPETS = `query($id: ID!, $per_page: Int) { projectSnippets(id: $id, per_page: $per_page) { id title } }`;

beforeAll(async () => {
  t = await startTestApp();
  const team = await createTeam(t);
  ({ owner, guest, reporter } = team);
  project = await createTeamProject(team, { visibility: "public" });
});

describe("project snippets over GraphQL", () => {
  it("createProjectSnippet gives the entity REST shows; projectSnippet and projectSnippets read it", async () => {
    const res = await reporter.api.graphql(CREATE_SNIPPET, {
      id: String(project.id), title: "From GraphQL", visibility: "public", files: [{ file_path: "g.txt", content: "graph" }],
    });
    expect(res.body.errors).toBeUndefined();
    const snippet = res.body.data.createProjectSnippet;
    expect(snippet).toMatchObject({
      title: "From GraphQL", description: null, visibility: "public", author: { id: reporter.id, username: reporter.username },
      project_id: project.id, file_name: "g.txt", files: [{ path: "g.txt", raw_url: `${snippet.web_url}/raw/main/g.txt` }],
      imported: false, imported_from: "none",
    });
    const rest = (await t.anon.get(`/projects/${project.id}/snippets/${snippet.id}`)).body;
    expect(rest).toMatchObject(snippet);
    expect((await t.anon.graphql(SNIPPET, { id: project.path_with_namespace, snippet_id: snippet.id })).body.data.projectSnippet).toEqual(snippet);
    const listed = await guest.api.graphql(SNIPPETS, { id: String(project.id), per_page: 100 });
    expect(listed.body.data.projectSnippets.map((s: any) => s.id)).toContain(snippet.id);
  });

  it("reports Grape's parameter texts and GitLab's answers in extensions", async () => {
    const missing = await reporter.api.graphql(CREATE_SNIPPET, { id: String(project.id), visibility: "public", content: "x", file_name: "a" });
    expect(missing.status).toBe(400);
    expect(gitlabError(missing)).toMatchObject({ http: { status: 400 }, gitlab: { error: "title is missing, title is empty" } });
    const byGuest = await guest.api.graphql(CREATE_SNIPPET, { id: String(project.id), title: "T", visibility: "public", content: "x", file_name: "a" });
    expect(gitlabError(byGuest)).toMatchObject({ http: { status: 403 }, gitlab: { message: "403 Forbidden" } });
    const anonList = await t.anon.graphql(SNIPPETS, { id: String(project.id) });
    expect(gitlabError(anonList)).toMatchObject({ http: { status: 401 }, gitlab: { message: "401 Unauthorized" } });
    const unknown = await t.anon.graphql(SNIPPET, { id: String(project.id), snippet_id: 999999 });
    expect(gitlabError(unknown).gitlab).toEqual({ message: "404 Not found" });
  });

  it("updateProjectSnippet applies file actions and deleteProjectSnippet removes the snippet", async () => {
    const snippet = await createSnippet(reporter.api, project.id, { file_name: "a.txt", content: "a" });
    const updated = await reporter.api.graphql(UPDATE_SNIPPET, {
      id: String(project.id), snippet_id: snippet.id, title: "Renamed", files: [{ action: "move", previous_path: "a.txt", file_path: "b.txt" }],
    });
    expect(updated.body.errors).toBeUndefined();
    expect(updated.body.data.updateProjectSnippet).toMatchObject({ title: "Renamed", file_name: "b.txt" });
    const invalid = await reporter.api.graphql(UPDATE_SNIPPET, { id: String(project.id), snippet_id: snippet.id, files: [{ action: "delete" }] });
    expect(gitlabError(invalid)).toMatchObject({ http: { status: 422 }, gitlab: { message: { error: "Snippet actions have invalid data" } } });
    const byGuest = await guest.api.graphql(DELETE_SNIPPET, { id: String(project.id), snippet_id: snippet.id });
    expect(gitlabError(byGuest).http.status).toBe(403);
    const deleted = await reporter.api.graphql(DELETE_SNIPPET, { id: String(project.id), snippet_id: snippet.id });
    expect(deleted.body.data.deleteProjectSnippet).toBe(true);
    expect((await t.root.get(`/projects/${project.id}/snippets/${snippet.id}`)).status).toBe(404);
  });
});

/** The GraphQL root fields of each noteable kind and its parent argument. */
const KINDS = [
  { kind: "issues", stem: "issue", Stem: "Issue", parent: "issue_iid" },
  { kind: "merge_requests", stem: "mergeRequest", Stem: "MergeRequest", parent: "merge_request_iid" },
  { kind: "snippets", stem: "snippet", Stem: "Snippet", parent: "snippet_id" },
] as const;

describe.each(KINDS)("notes on $kind over GraphQL", ({ kind, stem, Stem, parent }) => {
  let ref: number;
  let noteableId: number;

  const LIST = `query($id: ID!, $ref: Int!, $sort: SortDirection) { ${stem}Notes(id: $id, ${parent}: $ref, sort: $sort) { id body } }`;
  const ONE = `query($id: ID!, $ref: Int!, $note: Int!) { ${stem}Note(id: $id, ${parent}: $ref, note_id: $note) { ${NOTE_FIELDS} } }`;
  const CREATE = `mutation($id: ID!, $ref: Int!, $body: String!, $internal: Boolean) {
    create${Stem}Note(id: $id, ${parent}: $ref, body: $body, internal: $internal) { ${NOTE_FIELDS} }
  }`;
  const UPDATE = `mutation($id: ID!, $ref: Int!, $note: Int!, $body: String) { update${Stem}Note(id: $id, ${parent}: $ref, note_id: $note, body: $body) { id body } }`;
  const DELETE = `mutation($id: ID!, $ref: Int!, $note: Int!) { delete${Stem}Note(id: $id, ${parent}: $ref, note_id: $note) }`;

  beforeAll(async () => {
    if (kind === "issues") {
      const issue = await createIssue(owner.api, project.id);
      [ref, noteableId] = [issue.iid, issue.id];
    } else if (kind === "merge_requests") {
      const mr = await createMergeRequest(owner.api, project.id);
      [ref, noteableId] = [mr.iid, mr.id];
    } else {
      const snippet = await createSnippet(owner.api, project.id);
      [ref, noteableId] = [snippet.id, snippet.id];
    }
  });

  it("creates, reads, lists, changes and deletes a note with the entity REST shows", async () => {
    const created = await guest.api.graphql(CREATE, { id: String(project.id), ref, body: "via GraphQL" });
    expect(created.body.errors).toBeUndefined();
    const note = created.body.data[`create${Stem}Note`];
    expect(note).toEqual({
      id: expect.any(Number), type: null, body: "via GraphQL", author: { id: guest.id, username: guest.username }, system: false,
      noteable_id: noteableId, noteable_type: { issues: "Issue", merge_requests: "MergeRequest", snippets: "Snippet" }[kind],
      noteable_iid: kind === "snippets" ? null : ref, project_id: project.id, confidential: false, internal: false,
      resolvable: false, commands_changes: {},
    });
    const rest = (await guest.api.get(`/projects/${project.id}/${kind}/${ref}/notes/${note.id}`)).body;
    expect(rest).toMatchObject(note);
    expect((await guest.api.graphql(ONE, { id: String(project.id), ref, note: note.id })).body.data[`${stem}Note`]).toEqual(note);
    const second = await createNote(owner.api, project.id, kind, ref, { body: "second" });
    const listed = await guest.api.graphql(LIST, { id: String(project.id), ref, sort: "asc" });
    expect(listed.body.data[`${stem}Notes`].map((n: any) => n.id).slice(-2)).toEqual([note.id, second.id]);
    const changed = await guest.api.graphql(UPDATE, { id: String(project.id), ref, note: note.id, body: "changed" });
    expect(changed.body.data[`update${Stem}Note`]).toEqual({ id: note.id, body: "changed" });
    const refused = await guest.api.graphql(DELETE, { id: String(project.id), ref, note: second.id });
    expect(gitlabError(refused)).toMatchObject({ http: { status: 403 }, gitlab: { message: "403 Forbidden" } });
    const deleted = await guest.api.graphql(DELETE, { id: String(project.id), ref, note: note.id });
    expect(deleted.body.data[`delete${Stem}Note`]).toBe(true);
  });

  it("needs a signed-in caller for every notes field", async () => {
    for (const [query, variables] of [[LIST, {}], [CREATE, { body: "x" }]] as const) {
      const res = await t.anon.graphql(query, { id: String(project.id), ref, ...variables });
      expect(res.status).toBe(401);
      expect(gitlabError(res)).toMatchObject({ http: { status: 401 }, gitlab: { message: "401 Unauthorized" } });
    }
  });

  it.skipIf(kind === "snippets")("keeps internal notes from Guests (404 Note Not Found)", async () => {
    const hidden = await createNote(reporter.api, project.id, kind, ref, { internal: true });
    const res = await guest.api.graphql(ONE, { id: String(project.id), ref, note: hidden.id });
    expect(gitlabError(res)).toMatchObject({ http: { status: 404 }, gitlab: { message: "404 Note Not Found" } });
    const seen = await reporter.api.graphql(ONE, { id: String(project.id), ref, note: hidden.id });
    expect(seen.body.data[`${stem}Note`]).toMatchObject({ internal: true, confidential: true });
  });
});
