// python-gitlab 3.12 building the fixtures of approvals, emoji reactions and webhooks against the
// real server (test/e2e/python/work_items_review.py): a group project with a second user as
// Developer; branches.create, commits.create with actions, protectedbranches create / get / delete
// by name; issues create, save(), state_event close, list filters (state, labels, search);
// mergerequests create, list, get, save() of title / assignee / reviewers, close and reopen;
// snippets in the file_name + content form, update, content(), delete; notes on the issue, the MR
// and the snippet through fetched and lazy parents; list(get_all=True) and list(iterator=True).
import { describe, expect, it } from "vitest";
import { createUser, uniqueName } from "./helpers/fixtures.js";
import { pythonGitlabUnavailable, runPython } from "./helpers/python.js";
import { useServer } from "./helpers/suite.js";

const unavailable = pythonGitlabUnavailable();
if (unavailable) console.warn(`Skipping the python-gitlab work items review suite: ${unavailable}`);
const title = unavailable ? `python-gitlab work item fixtures (SKIPPED: ${unavailable})` : "python-gitlab work item fixtures";

const notFound = (type: string, message = "404 Not found") => ({ type, response_code: 404, error_message: message });

describe.skipIf(unavailable !== null)(title, () => {
  const suite = useServer();

  it("builds branches, commits, protected branches, issues, merge requests, snippets and notes, and reads them back", async () => {
    const tag = uniqueName("pyrev").toLowerCase();
    const dev = await createUser(suite.server);
    const out = await runPython("work_items_review.py", suite.server, { TAG: tag, DEV_ID: String(dev.id), DEV_TOKEN: dev.token });
    const projectId = out.project.id;
    expect(out.project.path_with_namespace).toBe(`${tag}/${tag}`);

    // repository: the branch starts at main's head, the commit moves it, main stays where it was
    const repo = out.repository;
    const mainHead = repo.main_head;
    expect(repo.branch_created).toEqual({ name: `feature-${tag}`, commit_id: mainHead });
    expect(repo.commit).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{40}$/), title: "Add the notes", message: "Add the notes\n\nTwo lines of notes.",
      parent_ids: [mainHead], author_email: `${dev.username}@example.com`,
    });
    expect(repo.commit_read).toBe(repo.commit.id);
    expect(repo.branch_head).toBe(repo.commit.id);
    expect(repo.branch_history).toEqual([repo.commit.id, mainHead]);
    expect(repo.protected).toEqual({
      created: { name: "main", push: [40], merge: [30] },
      read_by_dev: "main",
      listed: ["main"],
      branch: { protected: true, developers_can_push: false, developers_can_merge: true, can_push: false },
      dev_push: { type: "GitlabCreateError", response_code: 403, error_message: "403 Forbidden - You are not allowed to push into this branch" },
      duplicate: { type: "GitlabCreateError", response_code: 409, error_message: "Protected branch 'main' already exists" },
      after_delete: { listed: [], branch_protected: false, get: notFound("GitlabGetError") },
    });

    // issues
    const issues = out.issues;
    const iid = out.issue.iid;
    const [o1, o2, o3, o4] = issues.others;
    expect(issues.created).toEqual({
      iid, project_id: projectId, title: "Broken page", state: "opened", labels: ["bug", "ui"],
      task_completion_status: { count: 2, completed_count: 1 },
    });
    expect(issues.edited).toEqual({ title: "Broken page, edited", labels: ["backend", "bug"], state: "opened", assignees: [dev.id] });
    expect(issues.closed).toEqual({ state: "closed", closed_by: dev.id });
    expect(issues.reread).toEqual({
      id: out.issue.id, iid, project_id: projectId, title: "Broken page, edited", state: "closed", labels: ["backend", "bug"],
      web_url: `${suite.server.url}/${tag}/${tag}/-/issues/${iid}`,
    });
    expect(issues.closed_list).toEqual([iid]);
    expect(issues.opened_list).toEqual([o4, o3, o2, o1]);
    expect(issues.label_bug).toEqual([iid]);
    expect(issues.label_ui).toEqual([o4, o2]); // "Other 1" and "Other 3"
    expect(issues.label_bug_backend).toEqual([iid]);
    expect(issues.label_other_case).toEqual([]); // label titles match case-sensitively
    expect(issues.search).toEqual([iid]);
    expect(issues.search_other_case).toEqual([iid]);
    expect(issues.bad_state_event).toEqual({ type: "GitlabUpdateError", response_code: 400, error_message: "state_event does not have a valid value" });
    expect(issues.missing_title).toEqual({ type: "GitlabHttpError", response_code: 400, error_message: "title is missing" });
    expect(issues.iterator).toEqual({ len: 5, total_pages: 3, iids: [iid, o1, o2, o3, o4] });
    expect(issues.get_all).toEqual([iid, o1, o2, o3, o4]);
    expect(issues.lazy_notes_before).toEqual([]);

    // merge requests
    const mrs = out.mrs;
    const mrIid = out.mr.iid;
    expect(mrs.created).toEqual({
      iid: mrIid, project_id: projectId, title: "Add the notes", state: "opened", source_branch: `feature-${tag}`, target_branch: "main",
      sha: repo.commit.id, labels: ["docs"],
    });
    expect(mrs.changed).toEqual({ title: "Add the notes, reviewed", state: "opened", assignees: [dev.id], reviewers: [out.root_id] });
    expect([mrs.closed_state, mrs.reopened_state]).toEqual(["closed", "opened"]);
    expect(mrs.duplicate).toEqual({
      type: "GitlabCreateError", response_code: 409, error_message: [`Another open merge request already exists for this source branch: !${mrIid}`],
    });
    expect(mrs.unknown_branch).toEqual({ type: "GitlabCreateError", response_code: 400, error_message: { source_branch: ["does not exist"] } });
    expect(mrs.listed).toEqual([mrIid]);
    expect(mrs.listed_by_label).toEqual([mrIid]);
    expect(mrs.listed_by_search).toEqual([mrIid]);
    expect(mrs.read).toEqual({ id: out.mr.id, iid: mrIid, project_id: projectId, title: "Add the notes, reviewed", state: "opened", sha: repo.commit.id });

    // snippet
    const snippets = out.snippets;
    expect(snippets.created).toEqual({ id: expect.any(Number), project_id: projectId, title: "Notes", file_name: "notes.md", visibility: "private" });
    expect(snippets.raw).toBe("# second");
    expect(snippets.lazy_raw).toBe("# second");
    expect(snippets.listed).toEqual([snippets.created.id]);
    expect(snippets.after_delete).toEqual(notFound("GitlabGetError"));

    // notes: fetched and lazy parents reach the same noteable
    const parents = {
      issue: { noteable_type: "Issue", noteable_id: out.issue.id, noteable_iid: iid },
      mr: { noteable_type: "MergeRequest", noteable_id: out.mr.id, noteable_iid: mrIid },
      snippet: { noteable_type: "Snippet", noteable_id: snippets.created.id, noteable_iid: null },
    };
    for (const [kind, parent] of Object.entries(parents)) {
      const notes = out.notes[kind];
      expect(notes.first, kind).toEqual({ ...parent, project_id: projectId, body: `first ${kind} note` });
      expect(notes.edited, kind).toBe(`first ${kind} note, edited`);
      expect(notes.listed, kind).toEqual([notes.first_id, notes.second_id]);
      expect(notes.after_delete, kind).toEqual([notes.first_id]);
      expect(notes.deleted_get, kind).toEqual(notFound("GitlabGetError"));
    }
    expect(out.notes.empty_body).toEqual({
      type: "GitlabCreateError", response_code: 400, error_message: '400 Bad request - Note {:note=>["can\'t be blank"]}',
    });
  });
});
