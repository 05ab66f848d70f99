// Merge requests against the real server process, driven by python-gitlab 3.12
// (test/e2e/python/merge_requests.py): create, get, list, save() with state_event, the group and
// instance-wide lists, and the client's error classes.
import { describe, expect, it } from "vitest";
import { createUser, uniqueName } from "./helpers/fixtures.js";
import { pythonGitlabUnavailable, runPython } from "./helpers/python.js";
import { useServer } from "./helpers/suite.js";

const suite = useServer();
const unavailable = pythonGitlabUnavailable();
if (unavailable) console.warn(`Skipping the python-gitlab merge requests e2e test: ${unavailable}`);

describe.skipIf(unavailable !== null)(unavailable ? `python-gitlab merge requests (SKIPPED: ${unavailable})` : "python-gitlab merge requests", () => {
  it("create, get, list, save with state_event, group and instance lists, errors", async () => {
    const tag = uniqueName("pymr").toLowerCase().replace(/_/g, "-");
    const dev = await createUser(suite.server);
    const outsider = await createUser(suite.server);
    const out = await runPython("merge_requests.py", suite.server, {
      TAG: tag, DEV_TOKEN: dev.token, DEV_ID: String(dev.id), USER_TOKEN: outsider.token,
    });
    const webUrl = `${suite.server.url}/${out.project_path}/-/merge_requests`;

    expect(out.created).toEqual({
      id: out.one_id, iid: 1, project_id: out.project_id, title: "First from python", description: "- [x] done", state: "opened",
      source_branch: `${tag}-one`, target_branch: "main", sha: expect.stringMatching(/^[0-9a-f]{40}$/),
      // a new branch with no commits of its own: GitLab's commits_status check
      merge_status: "cannot_be_merged", detailed_merge_status: "commits_status", draft: false, labels: ["e2e", "py"], web_url: `${webUrl}/1`,
      references: { short: "!1", relative: "!1", full: `${out.project_path}!1` },
      author_id: dev.id, assignee_ids: [dev.id], reviewer_ids: [dev.id], closed_by_id: null,
    });
    expect(out.after_commit).toEqual({ sha: out.after_commit.commit_id, commit_id: expect.any(String), changes_count: "1", diff_head: out.after_commit.commit_id });
    expect(out.after_commit.sha).not.toBe(out.created.sha);
    expect(out.renamed).toMatchObject({ title: "First, renamed", description: "saved from python", state: "opened" });
    expect(out.closed).toMatchObject({ state: "closed", closed_by_id: dev.id, detailed_merge_status: "not_open" });
    expect(out.reopened).toMatchObject({ state: "opened", closed_by_id: null, title: "First, renamed" });
    expect(out.updated).toMatchObject({ iid: out.two_iid, labels: ["later"], target_branch: `${tag}-one`, draft: true });

    expect(out.lists).toEqual({
      all: [out.two_iid, 1],
      opened: [out.two_iid, 1],
      wip: [out.two_iid],
      labels: [1],
      iids: [out.two_iid],
      source: [out.two_iid],
      group: [out.two_iid, 1],
      mine: [out.one_id, out.two_id].sort((a: number, b: number) => a - b),
      assigned: [out.one_id],
      // a private project: its merge requests stay hidden from non-members
      outsider_all: [],
    });

    expect(out.errors).toEqual({
      duplicate: {
        type: "GitlabCreateError", response_code: 409,
        error_message: ["Another open merge request already exists for this source branch: !1"],
      },
      same_branch: { type: "GitlabCreateError", response_code: 422, error_message: ["You can't use same project/branch for source and target"] },
      unknown_branch: { type: "GitlabCreateError", response_code: 400, error_message: { source_branch: ["does not exist"] } },
      bad_state_event: { type: "GitlabUpdateError", response_code: 400, error_message: "state_event does not have a valid value" },
      unknown_iid: { type: "GitlabGetError", response_code: 404, error_message: "404 Not found" },
      outsider_get: { type: "GitlabGetError", response_code: 404, error_message: "404 Project Not Found" },
    });
  });
});
