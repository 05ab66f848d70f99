// python-gitlab 3.12 driving an issue's lifecycle endpoints against the real server
// (test/e2e/python/issue_lifecycle.py): participants(), closed_by(), related_merge_requests() and
// delete(), with the client's errors for callers without destroy_issue.
import { describe, expect, it } from "vitest";
import { createUser, uniqueName } from "./helpers/fixtures.js";
import { pythonGitlabUnavailable, runPython } from "./helpers/python.js";
import { useServer } from "./helpers/suite.js";

const unavailable = pythonGitlabUnavailable();
if (unavailable) console.warn(`Skipping the python-gitlab issue lifecycle e2e suite: ${unavailable}`);
const title = unavailable ? `python-gitlab issue lifecycle (SKIPPED: ${unavailable})` : "python-gitlab issue lifecycle";

describe.skipIf(unavailable !== null)(title, () => {
  const suite = useServer();

  it("participants, closed_by, related_merge_requests, then delete (refused to a Guest and a Developer)", async () => {
    const [member, guest] = [await createUser(suite.server), await createUser(suite.server)];
    const out = await runPython("issue_lifecycle.py", suite.server, {
      TAG: uniqueName("pyil").toLowerCase(), MEMBER_ID: String(member.id), MEMBER_TOKEN: member.token,
      GUEST_ID: String(guest.id), GUEST_TOKEN: guest.token, GUEST_USERNAME: guest.username,
    });
    expect(out.participants).toEqual([member.id, out.root_id, guest.id]);
    expect(out.closed_by).toEqual([out.mrs.closing]);
    expect(out.related).toEqual([out.mrs.closing, out.mrs.mentioning]);
    expect(out.guest_delete).toEqual({ type: "GitlabDeleteError", response_code: 403, error_message: "403 Forbidden" });
    expect(out.member_delete).toEqual({ type: "GitlabDeleteError", response_code: 403, error_message: "403 Forbidden" });
    expect(out.after_delete).toEqual({ type: "GitlabGetError", response_code: 404, error_message: "404 Not found" });
    expect(out.second_delete).toEqual({ type: "GitlabDeleteError", response_code: 404, error_message: "404 Issue Not Found" });
  });
});
