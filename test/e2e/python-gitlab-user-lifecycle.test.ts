// python-gitlab 3.12 driving the user lifecycle against the real server (test/e2e/python/user_lifecycle.py).
import { describe, expect, it } from "vitest";
import { pythonGitlabUnavailable, runPython } from "./helpers/python.js";
import { useServer } from "./helpers/suite.js";

const unavailable = pythonGitlabUnavailable();
if (unavailable) console.warn(`Skipping the python-gitlab user lifecycle e2e suite: ${unavailable}`);
const title = unavailable ? `python-gitlab user lifecycle (SKIPPED: ${unavailable})` : "python-gitlab user lifecycle";

describe.skipIf(unavailable !== null)(title, () => {
  const suite = useServer();

  it("save() with an avatar, states with their answers, memberships, projects, deletion to the ghost user", async () => {
    const out = await runPython("user_lifecycle.py", suite.server);
    expect(out.saved.bio).toBe("saved by python");
    expect(out.saved.avatar_url).toMatch(new RegExp(`^${suite.server.url}/uploads/-/system/user/avatar/\\d+/avatar\\.png$`));
    const served = await fetch(out.saved.avatar_url);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("image/png");

    expect(out.user_projects).toEqual([out.project_id]);
    expect(out.memberships).toEqual([["Project", out.project_id, 50]]);

    expect(out).toMatchObject({
      block: true, state_after_block: "blocked", block_again: null,
      unblock: true, ban: true, unban: true, deactivate: true, activate: true, activate_again: false,
      state_at_end: "active",
    });
    expect(out.refused_deactivate).toEqual({
      type: "GitlabDeactivateError", response_code: 403,
      error_message: "The user you are trying to deactivate has been active in the past 90 days and cannot be deactivated",
    });
    expect(out.blocked_call).toEqual({ type: "GitlabGetError", response_code: 403, error_message: "403 Forbidden - Your account has been blocked." });
    expect(out.deleted_lookup).toMatchObject({ type: "GitlabGetError", response_code: 404, error_message: "404 User Not Found" });
    expect(out.ghost_author).toBe("ghost");
  });
});
