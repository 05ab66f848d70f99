// Emoji reactions against the real server process, driven by @gitbeaker/rest 43.8: its award-emoji
// classes (IssueAwardEmojis, MergeRequestAwardEmojis, ProjectSnippetAwardEmojis,
// IssueNoteAwardEmojis, MergeRequestNoteAwardEmojis: award, all, show, remove; all walking the
// Link header), raw requester calls for snippet notes (gitbeaker has no class for them), the
// errors the client surfaces, and upvotes/downvotes on the issue and MR.
import { Gitlab } from "@gitbeaker/rest";
import { describe, expect, it } from "vitest";
import { createUser, uniqueName } from "./helpers/fixtures.js";
import { failure } from "./helpers/gitbeaker.js";
import { useServer } from "./helpers/suite.js";

const suite = useServer();
const gitlab = (token: string | undefined = suite.server.rootToken) => new Gitlab({ host: suite.server.url, token: token! });

/** A public project with an issue, a merge request and a snippet (each with a note), made by root. */
async function awardables(api: InstanceType<typeof Gitlab>) {
  const project = await api.Projects.create({ name: uniqueName("gbae"), visibility: "public", initializeWithReadme: true });
  const issue = await api.Issues.create(project.id, "Award me");
  const branch = uniqueName("feature").replace(/_/g, "-");
  await api.Branches.create(project.id, branch, "main");
  const mr = await api.MergeRequests.create(project.id, branch, "main", "Award me too");
  const snippet = await api.ProjectSnippets.create(project.id, "Snippet", { visibility: "public", files: [{ filePath: "a.rb", content: "puts 1" }] });
  const issueNote = await api.IssueNotes.create(project.id, issue.iid, "issue note");
  const mrNote = await api.MergeRequestNotes.create(project.id, mr.iid, "mr note");
  const snippetNote = await api.ProjectSnippetNotes.create(project.id, snippet.id, "snippet note");
  return { project, issue, mr, snippet, issueNote, mrNote, snippetNote };
}

describe("gitbeaker award emoji", () => {
  it("award, all, show, remove on issues, merge requests, snippets and their notes", async () => {
    const root = gitlab();
    const user = await createUser(suite.server);
    const api = gitlab(user.token);
    const { project, issue, mr, snippet, issueNote, mrNote } = await awardables(root);

    const onIssue = await api.IssueAwardEmojis.award(project.id, issue.iid, "+1");
    expect(onIssue).toMatchObject({ name: "thumbsup", awardable_id: issue.id, awardable_type: "Issue", user: { id: user.id, username: user.username } });
    const onMr = await api.MergeRequestAwardEmojis.award(String(project.path_with_namespace), mr.iid, "-1");
    expect(onMr).toMatchObject({ name: "thumbsdown", awardable_id: mr.id, awardable_type: "MergeRequest" });
    const onSnippet = await api.ProjectSnippetAwardEmojis.award(project.id, snippet.id, "tada");
    expect(onSnippet).toMatchObject({ name: "tada", awardable_id: snippet.id, awardable_type: "Snippet" });
    const onIssueNote = await api.IssueNoteAwardEmojis.award(project.id, issue.iid, issueNote.id, "smile");
    expect(onIssueNote).toMatchObject({ name: "smile", awardable_id: issueNote.id, awardable_type: "Note" });
    const onMrNote = await api.MergeRequestNoteAwardEmojis.award(project.id, mr.iid, mrNote.id, "rocket");
    expect(onMrNote).toMatchObject({ name: "rocket", awardable_id: mrNote.id, awardable_type: "Note" });

    expect(await root.IssueAwardEmojis.show(project.id, issue.iid, onIssue.id)).toEqual(onIssue);
    expect(await root.MergeRequestAwardEmojis.all(project.id, mr.iid)).toEqual([onMr]);
    expect(await root.ProjectSnippetAwardEmojis.show(project.id, snippet.id, onSnippet.id)).toEqual(onSnippet);
    expect(await root.IssueNoteAwardEmojis.all(project.id, issue.iid, issueNote.id)).toEqual([onIssueNote]);
    expect(await root.MergeRequestNoteAwardEmojis.show(project.id, mr.iid, mrNote.id, onMrNote.id)).toEqual(onMrNote);

    // upvotes and downvotes on the issue and the MR
    expect(await root.Issues.show(issue.id, { projectId: project.id })).toMatchObject({ upvotes: 1, downvotes: 0 });
    expect(await root.MergeRequests.show(project.id, mr.iid)).toMatchObject({ upvotes: 0, downvotes: 1 });

    await api.IssueAwardEmojis.remove(project.id, issue.iid, onIssue.id);
    await root.MergeRequestNoteAwardEmojis.remove(project.id, mr.iid, mrNote.id, onMrNote.id); // an administrator may
    expect(await root.IssueAwardEmojis.all(project.id, issue.iid)).toEqual([]);
    expect(await root.MergeRequestNoteAwardEmojis.all(project.id, mr.iid, mrNote.id)).toEqual([]);
  });

  it("all() follows the Link header page by page; showExpanded gives the pagination headers", async () => {
    const root = gitlab();
    const { project, issue } = await awardables(root);
    const names = ["smile", "tada", "rocket", "eyes", "heart"];
    for (const name of names) await root.IssueAwardEmojis.award(project.id, issue.iid, name);
    const all = await root.IssueAwardEmojis.all(project.id, issue.iid, { perPage: 2 });
    expect(all.map((a) => a.name)).toEqual(names);
    const { data, paginationInfo } = await root.IssueAwardEmojis.all(project.id, issue.iid, { perPage: 2, page: 2, showExpanded: true });
    expect(data.map((a) => a.name)).toEqual(["rocket", "eyes"]);
    expect(paginationInfo).toMatchObject({ total: 5, current: 2, next: 3, previous: 1, perPage: 2, totalPages: 3 });
  });

  it("snippet note reactions through raw requester calls", async () => {
    const root = gitlab();
    const user = await createUser(suite.server);
    const api = gitlab(user.token);
    const { project, snippet, snippetNote } = await awardables(root);
    const path = `projects/${project.id}/snippets/${snippet.id}/notes/${snippetNote.id}/award_emoji`;
    const awarded = (await api.requester.post(path, { body: { name: "8ball" } })).body as any;
    expect(awarded).toMatchObject({ name: "8ball", awardable_id: snippetNote.id, awardable_type: "Note", user: { id: user.id } });
    expect(((await root.requester.get(path)).body as any[]).map((a) => a.id)).toEqual([awarded.id]);
    expect(((await root.requester.get(`${path}/${awarded.id}`)).body as any).name).toBe("8ball");
    expect(await failure(api.requester.post(path, { body: { name: "8ball" } }))).toEqual({
      status: 404, message: "404 Award Emoji Name has already been taken Not Found",
    });
    await api.requester.delete(`${path}/${awarded.id}`, { body: {} });
    expect((await root.requester.get(path)).body).toEqual([]);
  });

  it("surfaces GitLab's errors", async () => {
    const root = gitlab();
    const user = await createUser(suite.server);
    const api = gitlab(user.token);
    const { project, issue, snippet } = await awardables(root);
    const mine = await api.IssueAwardEmojis.award(project.id, issue.iid, "thumbsup");
    expect(await failure(api.IssueAwardEmojis.award(project.id, issue.iid, "+1"))).toEqual({
      status: 404, message: "404 Award Emoji Name has already been taken Not Found",
    });
    expect(await failure(api.ProjectSnippetAwardEmojis.award(project.id, snippet.id, "not_an_emoji"))).toEqual({
      status: 404, message: "404 Award Emoji Name is not a valid emoji name Not Found",
    });
    const rootsOwn = await root.IssueAwardEmojis.award(project.id, issue.iid, "heart");
    expect(await failure(api.IssueAwardEmojis.remove(project.id, issue.iid, rootsOwn.id))).toEqual({ status: 401, message: "401 Unauthorized" });
    expect(await failure(api.IssueAwardEmojis.show(project.id, issue.iid, 999999))).toEqual({ status: 404, message: "404 Not found" });
    expect(await failure(api.IssueAwardEmojis.all(project.id, 999999))).toEqual({ status: 404, message: "404 Not found" });
    const anonymous = new Gitlab({ host: suite.server.url } as ConstructorParameters<typeof Gitlab>[0]);
    expect((await anonymous.IssueAwardEmojis.all(project.id, issue.iid)).map((a) => a.id)).toEqual([mine.id, rootsOwn.id]);
  });
});
