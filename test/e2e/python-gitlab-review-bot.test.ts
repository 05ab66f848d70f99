// python-gitlab 3.12 as a review bot against the real server (test/e2e/python/review_bot.py): the
// merge request's diff_refs and changes, threads on an added and a removed line (position sent as
// JSON), the note edited and deleted, the diff versions (mr.diffs), a line not in the diff refused.
import { describe, expect, it } from "vitest";
import { createUser } from "./helpers/fixtures.js";
import { pythonGitlabUnavailable, runPython } from "./helpers/python.js";
import { useServer } from "./helpers/suite.js";

const unavailable = pythonGitlabUnavailable();
if (unavailable) console.warn(`Skipping the python-gitlab review bot e2e suite: ${unavailable}`);
const title = unavailable ? `python-gitlab review bot (SKIPPED: ${unavailable})` : "python-gitlab review bot";

describe.skipIf(unavailable !== null)(title, () => {
  const suite = useServer();

  it("reads the diff, comments on changed lines, edits and deletes its note", async () => {
    const bot = await createUser(suite.server);
    const out = await runPython("review_bot.py", suite.server, { BOT_ID: String(bot.id), BOT_TOKEN: bot.token });
    const position = (lines: object) => ({ ...out.refs, old_path: "lib.py", new_path: "lib.py", position_type: "text", line_range: null, ...lines });

    expect(out.removed).toEqual({ old_line: 5, text: "    return cmd" });
    expect(out.added).toEqual({ new_line: 5, text: "    return os.system(cmd)" });
    expect(out.created).toMatchObject({ type: "DiffNote", body: "Shell injection risk", author: { id: bot.id }, position: position({ old_line: null, new_line: 5 }) });
    expect(out.listed_added).toEqual([{ body: "Shell injection risk: use subprocess.run([...])", type: "DiffNote", position: position({ old_line: null, new_line: 5 }), resolvable: true }]);
    expect(out.listed_removed).toEqual([{ body: "Why drop this?", type: "DiffNote", position: position({ old_line: 5, new_line: null }), resolvable: true }]);
    expect(out.refused).toEqual({
      type: "GitlabCreateError", response_code: 400,
      error_message: `400 Bad request - Note {:line_code=>["can't be blank", "must be a valid line code"]}`,
    });
    expect(out.versions).toEqual([expect.objectContaining({
      head_commit_sha: out.refs.head_sha, base_commit_sha: out.refs.base_sha, start_commit_sha: out.refs.start_sha, state: "collected", real_size: "1",
    })]);
    expect(out.version_diff_paths).toEqual(["lib.py"]);
    expect(out.version_commits).toBe(1);
    expect(out.gone).toEqual({ type: "GitlabGetError", response_code: 404, error_message: "404 Discussion Not Found" });
  });
});
