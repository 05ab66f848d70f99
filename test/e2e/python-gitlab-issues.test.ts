// python-gitlab 3.12 driving project issues against the real server (test/e2e/python/issues.py):
// create, get, list with filters and get_all, save() of changed attributes and state_event,
// gl.issues.list(scope=...), and the client's errors.
import { describe, expect, it } from "vitest";
import { createUser, uniqueName } from "./helpers/fixtures.js";
import { pythonGitlabUnavailable, runPython } from "./helpers/python.js";
import { useServer } from "./helpers/suite.js";

const unavailable = pythonGitlabUnavailable();
if (unavailable) console.warn(`Skipping the python-gitlab issues e2e suite: ${unavailable}`);
const title = unavailable ? `python-gitlab issues (SKIPPED: ${unavailable})` : "python-gitlab issues";

describe.skipIf(unavailable !== null)(title, () => {
  const suite = useServer();

  it("create, get, list, save, close and reopen through state_event, errors", async () => {
    const tag = uniqueName("pyi").toLowerCase();
    const [member, guest] = [await createUser(suite.server), await createUser(suite.server)];
    const out = await runPython("issues.py", suite.server, {
      TAG: tag, MEMBER_ID: String(member.id), MEMBER_TOKEN: member.token, GUEST_ID: String(guest.id), GUEST_TOKEN: guest.token,
    });

    const base = { id: out.created.id, iid: 1, project_id: out.project_id, description: "details", confidential: false };
    expect(out.created).toEqual({ ...base, title: "From python", state: "opened", labels: ["a", "z"], assignee_ids: [member.id], closed_by: null });
    expect(out.fetched).toEqual(out.created);
    expect(out.after_save).toEqual({ ...base, title: "Saved by python", state: "opened", labels: ["a", "b"], assignee_ids: [member.id], closed_by: null });
    expect(out.closed).toEqual({ ...out.after_save, state: "closed", closed_by: member.id });
    expect(out.reopened).toEqual(out.after_save);
    expect(out.all_iids).toEqual([4, 3, 2, 1]);
    expect(out.labelled_iids).toEqual([1]);
    expect(out.opened_count).toBe(4);
    expect(out.assigned_to_member).toEqual([out.created.id]);

    expect(out.errors).toEqual({
      missing_title: { type: "GitlabHttpError", response_code: 400, error_message: "title is missing" },
      bad_state_event: { type: "GitlabUpdateError", response_code: 400, error_message: "state_event does not have a valid value" },
      guest_update: { type: "GitlabUpdateError", response_code: 403, error_message: "403 Forbidden" },
      anonymous_read: { type: "GitlabGetError", response_code: 404, error_message: "404 Project Not Found" },
      unknown_iid: { type: "GitlabGetError", response_code: 404, error_message: "404 Not found" },
    });
  });
});
