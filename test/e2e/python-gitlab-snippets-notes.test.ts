// python-gitlab 3.12 driving project snippets and notes against the real server
// (test/e2e/python/snippets_notes.py): snippets.create with file_name + content, get, list with
// get_all, save(), content() (the raw file), delete; issue.notes, mr.notes and snippet.notes
// create / list / get / save / delete (the child paths come from the parents' project_id, iid and
// id), internal notes, errors.
import { describe, expect, it } from "vitest";
import { createUser, uniqueName } from "./helpers/fixtures.js";
import { pythonGitlabUnavailable, runPython } from "./helpers/python.js";
import { useServer } from "./helpers/suite.js";

const unavailable = pythonGitlabUnavailable();
if (unavailable) console.warn(`Skipping the python-gitlab snippets and notes e2e suite: ${unavailable}`);
const title = unavailable ? `python-gitlab snippets and notes (SKIPPED: ${unavailable})` : "python-gitlab snippets and notes";

describe.skipIf(unavailable !== null)(title, () => {
  const suite = useServer();

  it("snippets and the notes of issues, merge requests and snippets", async () => {
    const tag = uniqueName("pysn").toLowerCase();
    const [dev, guest] = [await createUser(suite.server), await createUser(suite.server)];
    const out = await runPython("snippets_notes.py", suite.server, {
      TAG: tag, DEV_ID: String(dev.id), DEV_TOKEN: dev.token, GUEST_ID: String(guest.id), GUEST_TOKEN: guest.token,
    });

    const web = `${suite.server.url}/${out.project.path_with_namespace}/-/snippets/${out.created.id}`;
    expect(out.created).toEqual({
      id: expect.any(Number), title: "From python", description: "python snippet", visibility: "private",
      project_id: out.project.id, file_name: "hello.py", web_url: web, raw_url: `${web}/raw`, author_id: dev.id,
    });
    expect(out.fetched).toEqual(out.created);
    expect(out.listed_ids).toHaveLength(3);
    expect(out.listed_ids[2]).toBe(out.created.id);
    expect(out.after_save).toEqual({ ...out.created, title: "Saved by python" });
    expect(out.raw).toEqual({
      dev: "print('saved')",
      guest: "print('saved')",
      anonymous_private: { type: "GitlabGetError", response_code: 404, error_message: "404 Snippet Not Found" },
      unknown: { type: "GitlabGetError", response_code: 404, error_message: "404 Snippet Not Found" },
    });

    const parents = {
      issue: { type: "Issue", id: out.issue.id, iid: out.issue.iid },
      mr: { type: "MergeRequest", id: out.mr.id, iid: out.mr.iid },
      snippet: { type: "Snippet", id: out.created.id, iid: null },
    };
    for (const [kind, parent] of Object.entries(parents)) {
      const notes = out.notes[kind];
      const base = {
        noteable_type: parent.type, noteable_id: parent.id, noteable_iid: parent.iid, project_id: out.project.id,
        internal: false, confidential: false, system: false,
      };
      expect(notes.created, kind).toEqual({ ...base, id: expect.any(Number), body: `${kind} note from python`, author_id: guest.id });
      expect(notes.edited, kind).toEqual({ ...notes.created, body: "edited by python" });
      expect(notes.empty_body, kind).toEqual({
        type: "GitlabCreateError", response_code: 400, error_message: '400 Bad request - Note {:note=>["can\'t be blank"]}',
      });
      expect(notes.deleted, kind).toEqual({ type: "GitlabGetError", response_code: 404, error_message: "404 Not found" });
      if (kind === "snippet") {
        expect(notes.internal).toBeNull();
        expect(notes.guest_list).toEqual([notes.created.id]);
        continue;
      }
      expect(notes.internal, kind).toEqual({ ...base, id: expect.any(Number), body: "internal", internal: true, confidential: true, author_id: dev.id });
      expect(notes.guest_list, kind).toEqual([notes.created.id]);
      expect(notes.dev_list, kind).toEqual([notes.created.id, notes.internal.id]);
      expect(notes.guest_edit_other, kind).toEqual({ type: "GitlabUpdateError", response_code: 403, error_message: "403 Forbidden" });
      expect(notes.guest_get_internal, kind).toEqual({ type: "GitlabGetError", response_code: 404, error_message: "404 Note Not Found" });
    }

    expect(out.errors).toEqual({
      guest_create_snippet: { type: "GitlabCreateError", response_code: 403, error_message: "403 Forbidden" },
      missing_title: { type: "GitlabHttpError", response_code: 400, error_message: "title is missing, title is empty" },
      anonymous_list: { type: "GitlabAuthenticationError", response_code: 401, error_message: "401 Unauthorized" },
      anonymous_notes: { type: "GitlabAuthenticationError", response_code: 401, error_message: "401 Unauthorized" },
      unknown_snippet: { type: "GitlabGetError", response_code: 404, error_message: "404 Not found" },
      guest_delete_snippet: { type: "GitlabDeleteError", response_code: 403, error_message: "403 Forbidden" },
      deleted_snippet: { type: "GitlabGetError", response_code: 404, error_message: "404 Not found" },
    });
  });
});
