// Emoji reactions over /graphql: the root fields behind the 24 REST endpoints run the same domain
// functions (same rules, GitLab's errors in extensions), and issues, merge requests, snippets and
// notes carry `award_emoji` (issues and MRs also `upvotes`/`downvotes`), batched per request.
import { beforeAll, describe, expect, it, vi } from "vitest";
import { startTestApp, type TestApp } from "../helpers/app.js";
import { gitlabError } from "../helpers/errors.js";
import { createProject, type TestUser } from "../helpers/factories.js";
import { createIssue } from "../helpers/issues.js";
import { createMergeRequest } from "../helpers/merge-requests.js";
import { createNote, createSnippet } from "../helpers/snippets-notes.js";
import { createTeam, createTeamProject } from "../helpers/team.js";

let t: TestApp;
let owner: TestUser;
let other: TestUser;
let project: any;

const AWARD = "id name awardable_id awardable_type created_at updated_at user { id username }";

beforeAll(async () => {
  t = await startTestApp();
  const team = await createTeam(t);
  ({ owner, developer: other } = team);
  project = await createTeamProject(team, { visibility: "public" });
});

describe("award emoji root fields", () => {
  it("adds, reads, lists and removes reactions on an issue and its note", async () => {
    const issue = await createIssue(owner.api, project.id);
    const note = await createNote(owner.api, project.id, "issues", issue.iid);
    const add = await other.api.graphql(
      `mutation($id: ID!, $iid: Int!, $note: Int!) {
        onIssue: createIssueAwardEmoji(id: $id, issue_iid: $iid, name: "+1") { ${AWARD} }
        onNote: createIssueNoteAwardEmoji(id: $id, issue_iid: $iid, note_id: $note, name: "tada") { ${AWARD} }
      }`,
      { id: String(project.id), iid: issue.iid, note: note.id },
    );
    expect(add.body.errors).toBeUndefined();
    const { onIssue, onNote } = add.body.data;
    expect(onIssue).toMatchObject({ name: "thumbsup", awardable_id: issue.id, awardable_type: "Issue", user: { id: other.id, username: other.username } });
    expect(onNote).toMatchObject({ name: "tada", awardable_id: note.id, awardable_type: "Note" });
    // the same entity as REST
    const rest = await t.anon.get(`/projects/${project.id}/issues/${issue.iid}/award_emoji/${onIssue.id}`);
    expect(rest.body).toMatchObject({ id: onIssue.id, name: "thumbsup", created_at: onIssue.created_at });

    const read = await t.anon.graphql(
      `query($id: ID!, $iid: Int!, $note: Int!, $award: Int!) {
        issueAwardEmojis(id: $id, issue_iid: $iid) { id name }
        issueNoteAwardEmoji(id: $id, issue_iid: $iid, note_id: $note, award_id: $award) { id name }
      }`,
      { id: project.path_with_namespace, iid: issue.iid, note: note.id, award: onNote.id },
    );
    expect(read.body.data).toEqual({ issueAwardEmojis: [{ id: onIssue.id, name: "thumbsup" }], issueNoteAwardEmoji: { id: onNote.id, name: "tada" } });

    const remove = await other.api.graphql(
      `mutation($id: ID!, $iid: Int!, $award: Int!) { deleteIssueAwardEmoji(id: $id, issue_iid: $iid, award_id: $award) }`,
      { id: String(project.id), iid: issue.iid, award: onIssue.id },
    );
    expect(remove.body).toEqual({ data: { deleteIssueAwardEmoji: true } });
    expect((await t.anon.get(`/projects/${project.id}/issues/${issue.iid}/award_emoji`)).body).toEqual([]);
  });

  it("reports GitLab's errors in extensions", async () => {
    const mr = await createMergeRequest(owner.api, project.id);
    const vars = { id: String(project.id), iid: mr.iid };
    const create = `mutation($id: ID!, $iid: Int!, $name: String!) { createMergeRequestAwardEmoji(id: $id, merge_request_iid: $iid, name: $name) { id } }`;
    const first = await owner.api.graphql(create, { ...vars, name: "smile" });
    const awardId = first.body.data.createMergeRequestAwardEmoji.id;
    const cases: [Awaited<ReturnType<TestApp["anon"]["graphql"]>>, number, unknown][] = [
      [await owner.api.graphql(create, { ...vars, name: "smile" }), 404, { message: "404 Award Emoji Name has already been taken Not Found" }],
      [await owner.api.graphql(create, { ...vars, name: "no_such_emoji" }), 404, { message: "404 Award Emoji Name is not a valid emoji name Not Found" }],
      [await t.anon.graphql(create, { ...vars, name: "eyes" }), 404, { message: "404 Award Emoji Not Found" }],
      [await owner.api.graphql(create, { ...vars, iid: 9999, name: "eyes" }), 404, { message: "404 Not found" }],
      [
        await other.api.graphql(`mutation($id: ID!, $iid: Int!, $award: Int!) { deleteMergeRequestAwardEmoji(id: $id, merge_request_iid: $iid, award_id: $award) }`, {
          ...vars,
          award: awardId,
        }),
        401,
        { message: "401 Unauthorized" },
      ],
    ];
    for (const [res, status, body] of cases) {
      expect(gitlabError(res).http.status).toBe(status);
      expect(gitlabError(res).gitlab).toEqual(body);
    }
  });
});

describe("award_emoji, upvotes and downvotes on the awardable types", () => {
  it("shows reactions of issues, merge requests, snippets and notes", async () => {
    const issue = await createIssue(owner.api, project.id);
    const mr = await createMergeRequest(owner.api, project.id);
    const snippet = await createSnippet(owner.api, project.id);
    const note = await createNote(owner.api, project.id, "snippets", snippet.id);
    const base = `/projects/${project.id}`;
    await other.api.post(`${base}/issues/${issue.iid}/award_emoji`, { name: "thumbsup" });
    await owner.api.post(`${base}/issues/${issue.iid}/award_emoji`, { name: "thumbsdown" });
    await owner.api.post(`${base}/merge_requests/${mr.iid}/award_emoji`, { name: "+1" });
    await owner.api.post(`${base}/snippets/${snippet.id}/award_emoji`, { name: "rocket" });
    await other.api.post(`${base}/snippets/${snippet.id}/notes/${note.id}/award_emoji`, { name: "eyes" });

    const res = await t.anon.graphql(
      `query($id: ID!, $issue: Int!, $mr: Int!, $snippet: Int!) {
        projectIssue(id: $id, issue_iid: $issue) { upvotes downvotes award_emoji { name user { username } } }
        projectMergeRequest(id: $id, merge_request_iid: $mr) { upvotes downvotes award_emoji { name awardable_type } }
        projectSnippet(id: $id, snippet_id: $snippet) { award_emoji { name awardable_type } }
      }`,
      { id: String(project.id), issue: issue.iid, mr: mr.iid, snippet: snippet.id },
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data).toEqual({
      projectIssue: {
        upvotes: 1,
        downvotes: 1,
        award_emoji: [
          { name: "thumbsup", user: { username: other.username } },
          { name: "thumbsdown", user: { username: owner.username } },
        ],
      },
      projectMergeRequest: { upvotes: 1, downvotes: 0, award_emoji: [{ name: "thumbsup", awardable_type: "MergeRequest" }] },
      projectSnippet: { award_emoji: [{ name: "rocket", awardable_type: "Snippet" }] },
    });
    const notes = await owner.api.graphql(`query($id: ID!, $snippet: Int!) { snippetNotes(id: $id, snippet_id: $snippet) { id award_emoji { name awardable_id } } }`, {
      id: String(project.id),
      snippet: snippet.id,
    });
    expect(notes.body.data.snippetNotes).toEqual([{ id: note.id, award_emoji: [{ name: "eyes", awardable_id: note.id }] }]);
  });

  it("loads the reactions and votes of a whole list in one query each", async () => {
    const listed = await createProject(owner.api, { visibility: "public" });
    for (let i = 0; i < 4; i++) {
      const issue = await createIssue(owner.api, listed.id);
      await owner.api.post(`/projects/${listed.id}/issues/${issue.iid}/award_emoji`, { name: i % 2 ? "thumbsup" : "thumbsdown" });
    }
    const findMany = vi.spyOn(t.services.db.awardEmoji, "findMany");
    const facts = vi.spyOn(t.services.db, "$queryRaw"); // votes, comment counts and assignees of the page
    const res = await t.anon.graphql(`query($id: ID!) { projectIssues(id: $id) { iid upvotes downvotes award_emoji { name } } }`, { id: String(listed.id) });
    expect(res.body.errors).toBeUndefined();
    const rows = res.body.data.projectIssues;
    expect(rows).toHaveLength(4);
    for (const row of rows) expect(row.upvotes + row.downvotes).toBe(1);
    expect(rows.map((r: any) => r.award_emoji[0].name).sort()).toEqual(["thumbsdown", "thumbsdown", "thumbsup", "thumbsup"]);
    expect(findMany).toHaveBeenCalledTimes(1);
    expect(facts).toHaveBeenCalledTimes(1);
    findMany.mockRestore();
    facts.mockRestore();
  });
});
