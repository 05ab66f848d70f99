// Discussions against the real server process, driven by @gitbeaker/rest 43.8: IssueDiscussions,
// MergeRequestDiscussions and ProjectSnippetDiscussions create / all / show / addNote / editNote /
// removeNote, MergeRequestDiscussions.resolve (sent as a query param) and editNote with
// `resolved`, and the errors the client surfaces.
import { Gitlab } from "@gitbeaker/rest";
import { describe, expect, it } from "vitest";
import { createUser, uniqueName } from "./helpers/fixtures.js";
import { failure } from "./helpers/gitbeaker.js";
import { useServer } from "./helpers/suite.js";

const suite = useServer();
const gitlab = (token: string | undefined = suite.server.rootToken) => new Gitlab({ host: suite.server.url, token: token! });
const HEX40 = /^[0-9a-f]{40}$/;

/** A public project of root's with `dev` as Developer and `guest` as Guest, an issue, an MR and a snippet. */
async function setting() {
  const root = gitlab();
  const [dev, guest] = [await createUser(suite.server), await createUser(suite.server)];
  const project = await root.Projects.create({ name: uniqueName("gbdi"), visibility: "public", initializeWithReadme: true });
  await root.ProjectMembers.add(project.id, 30, { userId: dev.id });
  await root.ProjectMembers.add(project.id, 10, { userId: guest.id });
  const issue = await root.Issues.create(project.id, "Discussed issue");
  const branch = uniqueName("feature").replace(/_/g, "-");
  await root.Branches.create(project.id, branch, "main");
  const mr = await root.MergeRequests.create(project.id, branch, "main", "Discussed MR");
  const snippet = await root.ProjectSnippets.create(project.id, "Discussed snippet", { visibility: "public", files: [{ filePath: "d.txt", content: "d" }] });
  return { project, dev, guest, issue, mr, snippet };
}

describe("gitbeaker discussions", () => {
  it("a thread on each kind: create, addNote, show, all, editNote, removeNote", async () => {
    const { project, dev, guest, issue, mr, snippet } = await setting();
    const kinds = [
      { api: (token?: string) => gitlab(token).IssueDiscussions, ref: issue.iid, resolvable: true },
      { api: (token?: string) => gitlab(token).MergeRequestDiscussions, ref: mr.iid, resolvable: true },
      { api: (token?: string) => gitlab(token).ProjectSnippetDiscussions, ref: snippet.id, resolvable: false },
    ];
    for (const { api, ref, resolvable } of kinds) {
      const thread = await api(guest.token).create(project.id, ref, "Shall we?");
      expect(thread).toMatchObject({ id: expect.stringMatching(HEX40), individual_note: false, notes: [{ body: "Shall we?", type: "DiscussionNote", resolvable, author: { id: guest.id } }] });
      const answer = await api(dev.token).addNote(project.id, ref, thread.id, "We shall");
      expect(answer).toMatchObject({ body: "We shall", type: "DiscussionNote", author: { id: dev.id } });
      const edited = await api(dev.token).editNote(project.id, ref, thread.id, answer.id as number, { body: "We shall, edited" });
      expect(edited.body).toBe("We shall, edited");
      const shown = await api(guest.token).show(project.id, ref, thread.id);
      expect(shown.notes!.map((n) => n.body)).toEqual(["Shall we?", "We shall, edited"]);
      expect((await api(guest.token).all(project.id, ref)).map((d) => d.id)).toContain(thread.id);
      expect(await failure(api(guest.token).removeNote(project.id, ref, thread.id, answer.id as number))).toEqual({ status: 403, message: "403 Forbidden" });
      await api(dev.token).removeNote(project.id, ref, thread.id, answer.id as number);
      expect((await api(guest.token).show(project.id, ref, thread.id)).notes).toHaveLength(1);
    }
  });

  it("MergeRequestDiscussions.resolve and editNote with resolved; errors", async () => {
    const { project, dev, guest, mr } = await setting();
    const threads = gitlab(dev.token).MergeRequestDiscussions;
    const thread = await gitlab(guest.token).MergeRequestDiscussions.create(project.id, mr.iid, "Please rename this");
    expect(await failure(gitlab(guest.token).MergeRequestDiscussions.resolve(project.id, mr.iid, thread.id, true))).toEqual({ status: 403, message: "403 Forbidden" });
    const resolved = await threads.resolve(project.id, mr.iid, thread.id, true);
    expect(resolved.notes).toMatchObject([{ resolvable: true, resolved: true, resolved_by: { id: dev.id } }]);
    const reopened = await threads.resolve(project.id, mr.iid, thread.id, false);
    expect(reopened.notes).toMatchObject([{ resolved: false, resolved_by: null, resolved_at: null }]);
    const note = await threads.editNote(project.id, mr.iid, thread.id, thread.notes![0]!.id as number, { resolved: true });
    expect(note).toMatchObject({ resolved: true, resolved_by: { id: dev.id } });

    expect(await failure(threads.show(project.id, mr.iid, "0".repeat(40)))).toEqual({ status: 404, message: "404 Discussion Not Found" });
    expect(await failure(threads.create(project.id, mr.iid, ""))).toEqual({ status: 400, message: '400 Bad request - Note {:note=>["can\'t be blank"]}' });
    expect(await failure(gitlab("").MergeRequestDiscussions.all(project.id, mr.iid))).toMatchObject({ status: 401 });
  });
});
