// Merging against the real server process, driven by python-gitlab (test/e2e/python/merging.py):
// refused before approval (405), merged after it with the source branch removed, the MR's
// commits, participants, changes and diffs, rebase and merge ref, tags, merge base, all commits.
import { describe, expect, it } from "vitest";
import { createUser, uniqueName } from "./helpers/fixtures.js";
import { pythonGitlabUnavailable, runPython } from "./helpers/python.js";
import { useServer } from "./helpers/suite.js";

const suite = useServer();
const unavailable = pythonGitlabUnavailable();
if (unavailable) console.warn(`Skipping the python-gitlab merging e2e test: ${unavailable}`);

describe.skipIf(unavailable !== null)(unavailable ? `python-gitlab merging (SKIPPED: ${unavailable})` : "python-gitlab merging", () => {
  it("approve then merge, review reads, rebase, merge ref, tags and merge base", async () => {
    const tag = uniqueName("pymerge").toLowerCase().replace(/_/g, "-");
    const [owner, dev, reviewer] = await Promise.all([createUser(suite.server), createUser(suite.server), createUser(suite.server)]);
    const out = await runPython("merging.py", suite.server, {
      TAG: tag, OWNER_TOKEN: owner.token, DEV_TOKEN: dev.token, REVIEWER_TOKEN: reviewer.token,
      DEV_ID: String(dev.id), REVIEWER_ID: String(reviewer.id),
    });

    expect(out.before).toBe("not_approved");
    expect(out.errors.unapproved).toMatchObject({ type: "GitlabMRClosedError", response_code: 405, error_message: "405 Method Not Allowed" });
    expect(out.after_approval).toBe("mergeable");
    expect(out.merged).toMatchObject({ state: "merged", merged_by: { id: dev.id }, merge_commit_sha: expect.stringMatching(/^[0-9a-f]{40}$/) });
    expect(out.errors.merge_twice).toMatchObject({ type: "GitlabMRClosedError", response_code: 405 });
    expect(out.branches).toEqual(["main"]);

    expect(out.mr_commits).toEqual([out.commit]);
    expect(out.participants).toEqual([dev.id]);
    expect(out.changes).toEqual([expect.objectContaining({ new_path: "pages/one.md", new_file: true, diff: "@@ -0,0 +1 @@\n+one\n", too_large: false })]);
    expect(out.diffs).toEqual(["pages/one.md"]);

    expect(out.rebase).toEqual({ rebase_in_progress: false });
    expect(out.rebased_refs).toMatchObject({ base_sha: out.main_commit, start_sha: out.main_commit });
    expect(out.merge_ref).toEqual({ commit_id: expect.stringMatching(/^[0-9a-f]{40}$/) });

    expect(out.tag).toMatchObject({ name: "v1.0", message: "Release", commit: { id: out.main_commit } });
    expect(out.tags).toEqual(["v1.0"]);
    expect(out.merge_base.id).toBe(out.main_commit);
    expect(out.all_commits.length).toBeGreaterThan(out.main_only.length);
    expect(out.all_commits).toEqual(expect.arrayContaining(out.main_only));
    expect(out.tags_after_delete).toEqual([]);
  });
});
