// Project snippets and notes against the real server process, driven by @gitbeaker/rest 43.8:
// ProjectSnippets.create with `files` (sent as files[].file_path), show, showContent (raw), all,
// edit with file actions, remove; IssueNotes, MergeRequestNotes and ProjectSnippetNotes create /
// all / show / edit / remove; and the errors the client surfaces.
import { Gitlab } from "@gitbeaker/rest";
import { describe, expect, it } from "vitest";
import { createUser, uniqueName } from "./helpers/fixtures.js";
import { failure } from "./helpers/gitbeaker.js";
import { useServer } from "./helpers/suite.js";

const suite = useServer();
const gitlab = (token: string | undefined = suite.server.rootToken) => new Gitlab({ host: suite.server.url, token: token! });

/** A public project of root's with `dev` as Developer and `guest` as Guest. */
async function projectWithMembers() {
  const root = gitlab();
  const [dev, guest] = [await createUser(suite.server), await createUser(suite.server)];
  const project = await root.Projects.create({ name: uniqueName("gbsn"), visibility: "public", initializeWithReadme: true });
  await root.ProjectMembers.add(project.id, 30, { userId: dev.id });
  await root.ProjectMembers.add(project.id, 10, { userId: guest.id });
  return { project, dev, guest };
}

describe("gitbeaker ProjectSnippets", () => {
  it("create with files, show, showContent, all, edit with file actions, remove", async () => {
    const { project, dev, guest } = await projectWithMembers();
    const api = gitlab(dev.token);
    const created = await api.ProjectSnippets.create(project.id, "From gitbeaker", {
      visibility: "internal", description: "two files",
      files: [{ filePath: "lib/b.rb", content: "puts 'b'" }, { filePath: "a.md", content: "# a" }],
    });
    const web = `${suite.server.url}/${project.path_with_namespace}/-/snippets/${created.id}`;
    expect(created).toMatchObject({
      title: "From gitbeaker", description: "two files", visibility: "internal", project_id: project.id,
      author: { id: dev.id, username: dev.username }, web_url: web, raw_url: `${web}/raw`, file_name: "a.md",
      files: [{ path: "a.md", raw_url: `${web}/raw/main/a.md` }, { path: "lib/b.rb", raw_url: `${web}/raw/main/lib/b.rb` }],
      imported: false, imported_from: "none",
    });
    expect(await api.ProjectSnippets.show(project.id, created.id)).toEqual(created);
    expect(await gitlab(guest.token).ProjectSnippets.showContent(project.id, created.id)).toBe("# a");

    const second = await api.ProjectSnippets.create(project.id, "Second", { visibility: "private", files: [{ filePath: "s.txt", content: "s" }] });
    const { data, paginationInfo } = await gitlab(guest.token).ProjectSnippets.all(project.id, { perPage: 1, showExpanded: true });
    expect(data.map((s) => s.id)).toEqual([second.id, created.id]);
    expect(paginationInfo).toMatchObject({ total: 2, totalPages: 2, perPage: 1 });

    const edited = await api.ProjectSnippets.edit(project.id, created.id, {
      visibility: "public",
      files: [{ action: "move", previousPath: "a.md", filePath: "README.md" }, { action: "delete", filePath: "lib/b.rb" }],
    });
    expect(edited).toMatchObject({ id: created.id, visibility: "public", file_name: "README.md", files: [{ path: "README.md" }] });

    await api.ProjectSnippets.remove(project.id, second.id);
    expect(await failure(api.ProjectSnippets.show(project.id, second.id))).toEqual({ status: 404, message: "404 Not found" });
  });

  it("errors: Grape's parameter texts, a Guest creating (403), an unknown snippet", async () => {
    const { project, dev, guest } = await projectWithMembers();
    const api = gitlab(dev.token);
    expect(await failure(api.ProjectSnippets.create(project.id, "No files", { visibility: "public" }))).toEqual({
      status: 400, message: "files, content are missing, exactly one parameter must be provided",
    });
    const byGuest = gitlab(guest.token).ProjectSnippets.create(project.id, "Guest", { visibility: "public", files: [{ filePath: "g", content: "g" }] });
    expect(await failure(byGuest)).toEqual({ status: 403, message: "403 Forbidden" });
    expect(await failure(api.ProjectSnippets.edit(project.id, 999999, { visibility: "public" }))).toEqual({ status: 404, message: "404 Snippet Not Found" });
    expect(await failure(api.ProjectSnippets.showContent(project.id, 999999))).toEqual({ status: 404, message: "404 Snippet Not Found" });
    expect(await failure(gitlab("").ProjectSnippets.all(project.id))).toMatchObject({ status: 401 });
  });
});

describe("gitbeaker notes", () => {
  it("IssueNotes, MergeRequestNotes and ProjectSnippetNotes: create, all, show, edit, remove", async () => {
    const { project, dev, guest } = await projectWithMembers();
    const root = gitlab();
    const issue = await root.Issues.create(project.id, "Noted issue");
    const branch = uniqueName("feature").replace(/_/g, "-");
    await root.Branches.create(project.id, branch, "main");
    const mr = await root.MergeRequests.create(project.id, branch, "main", "Noted MR");
    const snippet = await root.ProjectSnippets.create(project.id, "Noted snippet", { visibility: "public", files: [{ filePath: "n.txt", content: "n" }] });

    const kinds = [
      { notes: (token?: string) => gitlab(token).IssueNotes, ref: issue.iid, type: "Issue", id: issue.id, iid: issue.iid },
      { notes: (token?: string) => gitlab(token).MergeRequestNotes, ref: mr.iid, type: "MergeRequest", id: mr.id, iid: mr.iid },
      { notes: (token?: string) => gitlab(token).ProjectSnippetNotes, ref: snippet.id, type: "Snippet", id: snippet.id, iid: null },
    ];
    for (const { notes, ref, type, id, iid } of kinds) {
      const first = await notes(guest.token).create(project.id, ref, "First from gitbeaker");
      expect(first).toMatchObject({
        body: "First from gitbeaker", author: { id: guest.id }, noteable_type: type, noteable_id: id, noteable_iid: iid,
        project_id: project.id, system: false, internal: false, confidential: false,
      });
      const second = await notes(dev.token).create(project.id, ref, "Second", type === "Snippet" ? {} : { internal: true });
      expect(second.internal).toBe(type !== "Snippet");

      expect((await notes(dev.token).all(project.id, ref)).map((n) => n.id)).toEqual([second.id, first.id]);
      expect((await notes(dev.token).all(project.id, ref, { sort: "asc", perPage: 1 })).map((n) => n.id)).toEqual([first.id, second.id]);
      const guestSees = (await notes(guest.token).all(project.id, ref)).map((n) => n.id);
      expect(guestSees).toEqual(type === "Snippet" ? [second.id, first.id] : [first.id]);
      expect(await notes(guest.token).show(project.id, ref, first.id)).toEqual(first as any);

      const edited = await notes(guest.token).edit(project.id, ref, first.id, { body: "Edited" });
      expect(edited).toMatchObject({ id: first.id, body: "Edited" });
      expect(await failure(notes(guest.token).edit(project.id, ref, second.id, { body: "not mine" }))).toMatchObject({ status: 403 });
      await notes(guest.token).remove(project.id, ref, first.id);
      expect(await failure(notes(dev.token).show(project.id, ref, first.id))).toEqual({ status: 404, message: "404 Not found" });
      expect(await failure(notes("").all(project.id, ref))).toEqual({ status: 401, message: "401 Unauthorized" });
    }
  });
});
