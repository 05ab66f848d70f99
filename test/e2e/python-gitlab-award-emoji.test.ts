// Emoji reactions against the real server process, driven by python-gitlab 3.12
// (test/e2e/python/award_emoji.py): the award-emoji managers of issues, merge requests, snippets
// and their notes (create, list, get, delete), a raw http_list call, upvotes/downvotes, pagination
// and the client's error classes.
import { describe, expect, it } from "vitest";
import { createUser, uniqueName } from "./helpers/fixtures.js";
import { pythonGitlabUnavailable, runPython } from "./helpers/python.js";
import { useServer } from "./helpers/suite.js";

const suite = useServer();
const unavailable = pythonGitlabUnavailable();
if (unavailable) console.warn(`Skipping the python-gitlab award emoji e2e test: ${unavailable}`);

describe.skipIf(unavailable !== null)(unavailable ? `python-gitlab award emoji (SKIPPED: ${unavailable})` : "python-gitlab award emoji", () => {
  it("creates, lists, gets and deletes reactions on every awardable and note", async () => {
    const user = await createUser(suite.server);
    const out = await runPython("award_emoji.py", suite.server, { TAG: uniqueName("pyae").toLowerCase().replace(/_/g, "-"), USER_TOKEN: user.token });
    const by = (awardable_id: number, awardable_type: string) => ({ awardable_id, awardable_type, user_id: user.id });

    expect(out.created).toEqual({
      issue: { id: expect.any(Number), name: "thumbsup", ...by(out.issue_id, "Issue") },
      mr: { id: expect.any(Number), name: "thumbsdown", ...by(out.mr_id, "MergeRequest") },
      snippet: { id: expect.any(Number), name: "tada", ...by(out.snippet_id, "Snippet") },
      issue_note: { id: expect.any(Number), name: "smile", ...by(out.note_ids.issue_note, "Note") },
      mr_note: { id: expect.any(Number), name: "rocket", ...by(out.note_ids.mr_note, "Note") },
      snippet_note: { id: expect.any(Number), name: "8ball", ...by(out.note_ids.snippet_note, "Note") },
    });
    for (const key of Object.keys(out.created)) expect(out.listed[key], key).toEqual([out.created[key]]);
    expect(out.fetched).toEqual(out.created.mr_note);
    expect(out.votes).toEqual({ issue: [1, 0], mr: [0, 1] });

    expect(out.errors).toEqual({
      duplicate: { type: "GitlabCreateError", response_code: 404, error_message: "404 Award Emoji Name has already been taken Not Found" },
      unknown_name: { type: "GitlabCreateError", response_code: 404, error_message: "404 Award Emoji Name is not a valid emoji name Not Found" },
      others: { type: "GitlabAuthenticationError", response_code: 401, error_message: "401 Unauthorized" },
      unknown: { type: "GitlabGetError", response_code: 404, error_message: "404 Not found" },
    });
    expect(out.after_delete).toEqual({ issue: ["heart"], snippet_note: [], mr: [] });

    expect(out.pagination).toEqual({
      walked: ["tada", "smile", "eyes", "rocket", "100"],
      page_two: ["eyes", "rocket"],
      iterator: { total: 5, total_pages: 3, per_page: 2 },
      raw: ["rocket", "100"],
    });
  });
});
