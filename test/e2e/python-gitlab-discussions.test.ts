// python-gitlab 3.12 driving discussions against the real server (test/e2e/python/discussions.py):
// an issue thread started, answered, edited and pruned; a reply turning a plain note into a
// thread; a merge request thread resolved and unresolved through save(); snippet threads; errors.
import { describe, expect, it } from "vitest";
import { createUser, uniqueName } from "./helpers/fixtures.js";
import { pythonGitlabUnavailable, runPython } from "./helpers/python.js";
import { useServer } from "./helpers/suite.js";

const unavailable = pythonGitlabUnavailable();
if (unavailable) console.warn(`Skipping the python-gitlab discussions e2e suite: ${unavailable}`);
const title = unavailable ? `python-gitlab discussions (SKIPPED: ${unavailable})` : "python-gitlab discussions";

describe.skipIf(unavailable !== null)(title, () => {
  const suite = useServer();

  it("threads, replies, edits, resolution and errors on issues, merge requests and snippets", async () => {
    const [dev, guest] = [await createUser(suite.server), await createUser(suite.server)];
    const out = await runPython("discussions.py", suite.server, {
      TAG: uniqueName("pydi").toLowerCase(), DEV_ID: String(dev.id), DEV_TOKEN: dev.token, GUEST_ID: String(guest.id), GUEST_TOKEN: guest.token,
    });
    const note = (body: string, author: number, fields: Record<string, unknown> = {}) =>
      ({ body, type: "DiscussionNote", resolvable: true, resolved: false, author_id: author, ...fields });

    expect(out.thread_id).toMatch(/^[0-9a-f]{40}$/);
    expect(out.issue_thread).toEqual({
      id: out.thread_id, individual_note: false, notes: [note("Shall we?", guest.id), note("We shall, edited", dev.id)],
    });
    expect(out.plain_before).toEqual({
      id: out.plain_discussion_id, individual_note: true, notes: [{ body: "A plain note", type: null, resolvable: false, resolved: null, author_id: dev.id }],
    });
    expect(out.plain_after).toEqual({
      id: out.plain_discussion_id, individual_note: false, notes: [note("A plain note", dev.id), note("Replying to a plain note", guest.id)],
    });
    expect(out.listed).toEqual([out.thread_id, out.plain_discussion_id]);
    expect(out.after_delete.notes).toEqual([note("Shall we?", guest.id)]);
    expect(out.resolved.notes).toEqual([note("Please rename this", guest.id, { resolved: true })]);
    expect(out.unresolved.notes).toEqual([note("Please rename this", guest.id)]);
    expect(out.snippet_thread).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{40}$/), individual_note: false,
      notes: [{ body: "On a snippet", type: "DiscussionNote", resolvable: false, resolved: null, author_id: guest.id }],
    });
    expect(out.errors).toEqual({
      guest_resolve: { type: "GitlabUpdateError", response_code: 403, error_message: "403 Forbidden" },
      unknown: { type: "GitlabGetError", response_code: 404, error_message: "404 Discussion Not Found" },
      snippet_reply_individual: { type: "GitlabCreateError", response_code: 400, error_message: "400 Bad request - Discussion can not be replied to." },
      empty_body: { type: "GitlabCreateError", response_code: 400, error_message: '400 Bad request - Note {:note=>["can\'t be blank"]}' },
    });
  });
});
